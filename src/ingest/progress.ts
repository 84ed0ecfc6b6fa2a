/**
 * Progress of a load on a terminal (cli-progress): records, records/s and
 * errors; and where the amount of work is known (the input files of a load,
 * the complete list size an OAI-PMH repository announces), a bar,
 * the percentage and the time left, so that an operator sees how far a load is.
 * Off when stderr is not a terminal, so logs and CI output stay clean.
 */
import cliProgress from 'cli-progress';

export interface ProgressCounts {
  records: number;
  errors: number;
  /** Work done so far, in the unit of `total`. */
  done?: number;
  /** All the work, once known: input files of a load, or records of a harvest. */
  total?: number;
  /** What `done` and `total` count: "files", "records". */
  unit?: string;
}

export interface Progress {
  update(counts: ProgressCounts): void;
  stop(): void;
}

export const silentProgress: Progress = { update() {}, stop() {} };

/** 1,234,567: counts of millions stay readable. */
const count = (n: number) => n.toLocaleString('en-US');

/** 42s, 3m05s, 2h10m. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const BAR_WIDTH = 20;

/**
 * The progress line. With a total: bar, percentage and the time left at the
 * rate so far; without: the time elapsed.
 */
export function progressLine(label: string, counts: ProgressCounts, elapsedSeconds: number): string {
  const seconds = Math.max(elapsedSeconds, 0.001);
  const tail = `${count(counts.records)} records | ${count(Math.round(counts.records / seconds))} records/s | ${count(counts.errors)} errors`;
  const { done, total } = counts;
  if (total === undefined || done === undefined || total <= 0) return `${label} ${tail} | ${duration(elapsedSeconds)}`;
  const fraction = Math.min(1, Math.max(0, done / total));
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  // Nothing done yet gives no rate, so no estimate.
  const eta = done > 0 ? duration(((total - done) * seconds) / done) : '?';
  const of = counts.unit === undefined ? count(total) : `${count(total)} ${counts.unit}`;
  return `${label} ${bar} ${Math.floor(fraction * 100)}% of ${of} | ${tail} | ETA ${eta}`;
}

export function terminalProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return silentProgress;
  const started = Date.now();
  let counts: ProgressCounts = { records: 0, errors: 0 };
  const bar = new cliProgress.SingleBar(
    {
      // cli-progress draws and redraws the line; what it shows is ours.
      format: () => progressLine(label, counts, (Date.now() - started) / 1000),
      stream,
      hideCursor: true,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(1, 0);
  return {
    update(next) {
      counts = next;
      bar.update(0);
    },
    stop() {
      bar.stop();
    },
  };
}
