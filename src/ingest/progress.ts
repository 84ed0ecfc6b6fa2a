/**
 * Progress of a load on a terminal: records/s, count, errors (cli-progress).
 * Off when stderr is not a terminal, so logs and CI output stay clean.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(counts: { records: number; errors: number }): void;
  stop(): void;
}

export const silentProgress: Progress = { update() {}, stop() {} };

export function terminalProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return silentProgress;
  const started = Date.now();
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} {records} records | {rate} records/s | {errors} errors | {duration_formatted}`,
      stream,
      hideCursor: true,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(0, 0, { records: 0, errors: 0, rate: 0 });
  return {
    update({ records, errors }) {
      const seconds = Math.max((Date.now() - started) / 1000, 0.001);
      bar.update(0, { records, errors, rate: Math.round(records / seconds) });
    },
    stop() {
      bar.stop();
    },
  };
}
