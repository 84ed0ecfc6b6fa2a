/**
 * `heritage-api harvest URL`: an OAI-PMH harvest into the store, with
 * progress on a terminal; Ctrl-C stops after the page being stored, and the
 * same command resumes there (src/ingest/harvest.ts).
 */
import type { Config } from '../../config.js';
import { harvest } from '../../ingest/harvest.js';
import { edmItemOptions } from '../../ingest/items/edmOptions.js';
import { HarvestHttpError, OaiError } from '../../ingest/oai/listRecordsPages.js';
import { silentProgress, terminalProgress } from '../../ingest/progress.js';
import type { Store } from '../../store/Store.js';
import { EXIT, type CliIo } from '../io.js';
import { printInterrupted, printProblems } from './ingest.js';

export interface HarvestFlags {
  metadataPrefix: string;
  set?: string;
  from?: string;
}

export async function harvestCommand(
  config: Config,
  store: Store,
  url: string,
  flags: HarvestFlags,
  io: CliIo,
  signal?: AbortSignal,
): Promise<number> {
  const progress = config.ingest.progress && io.progressStream ? terminalProgress('harvest', io.progressStream) : silentProgress;
  let summary;
  try {
    summary = await harvest(store, {
      baseUrl: url,
      metadataPrefix: flags.metadataPrefix,
      set: flags.set,
      from: flags.from,
      edm: edmItemOptions(config),
      limits: { maxRecordBytes: config.ingest.maxRecordBytes },
      progress,
      ...(signal ? { signal } : {}),
      client: {
        retries: config.harvest.retries,
        maxDelayMs: config.harvest.maxRetryDelaySeconds * 1000,
        timeoutMs: config.harvest.timeoutSeconds * 1000,
        onRetry: (r) => io.err(`retrying in ${(r.delayMs / 1000).toFixed(1)} s (attempt ${r.attempt}): ${r.reason}`),
      },
    });
  } catch (e) {
    if (e instanceof OaiError || e instanceof HarvestHttpError) {
      io.err(`heritage-api: ${e.message}`);
      io.err('Pages stored before this stay stored; run the same command again to resume.');
      return EXIT.failed;
    }
    throw e;
  }
  printProblems(summary, io);
  const start =
    summary.start.kind === 'resumed' ? 'resumed a stopped run' : summary.start.from ? `from ${summary.start.from}` : 'from the beginning';
  io.out(
    `harvest ${url} (${start}): ${summary.records} records in ${summary.pages} pages in ${summary.seconds.toFixed(1)} s: ` +
      `${summary.inserted} new, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.deleted} deleted, ${summary.problems.length} skipped.`,
  );
  if (summary.interrupted) return printInterrupted(summary, io, 'Run the same command again to resume at the next page.');
  if (!summary.complete) {
    io.out('Stopped before the end of the list; run the same command again to resume at the next page.');
    return EXIT.failed;
  }
  io.out(summary.highWater ? `Complete. The next run harvests changes from ${summary.highWater}.` : 'Complete.');
  return summary.problems.length > 0 ? EXIT.partial : EXIT.ok;
}
