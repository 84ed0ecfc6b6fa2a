/**
 * `heritage-api ingest items|entities PATH...`
 */
import type { Config } from '../../config.js';
import { ingestEntities } from '../../ingest/ingestEntities.js';
import { ingestItems, type IngestSummary } from '../../ingest/ingestItems.js';
import { edmItemOptions } from '../../ingest/items/edmOptions.js';
import type { IngestOptions, LoadCounts } from '../../ingest/runIngest.js';
import { silentProgress, terminalProgress } from '../../ingest/progress.js';
import type { Store } from '../../store/Store.js';
import { EXIT, type CliIo } from '../io.js';

/** Shown in full up to this many; the rest are counted, so a bad directory does not flood the terminal. */
const MAX_LISTED_PROBLEMS = 50;

/** The skipped records (the first MAX_LISTED_PROBLEMS) and the cycles of a load, on stderr. */
export function printProblems(s: LoadCounts, io: CliIo): void {
  for (const p of s.problems.slice(0, MAX_LISTED_PROBLEMS)) io.err(`skipped: ${p.file} (${p.position}): ${p.reason}`);
  if (s.problems.length > MAX_LISTED_PROBLEMS) io.err(`... and ${s.problems.length - MAX_LISTED_PROBLEMS} more skipped records`);
  for (const c of s.cycles) io.err(`cycle in isPartOf: ${c.join(' -> ')} (parents stops where the chain repeats)`);
}

export function printSummary(what: string, s: IngestSummary, io: CliIo): number {
  printProblems(s, io);
  for (const d of s.duplicates.slice(0, MAX_LISTED_PROBLEMS)) io.err(`duplicate: ${d.file} (${d.position}): ${d.reason}`);
  if (s.duplicates.length > MAX_LISTED_PROBLEMS) io.err(`... and ${s.duplicates.length - MAX_LISTED_PROBLEMS} more duplicates`);
  const others = Object.entries(s.skippedByType);
  if (others.length > 0) io.err(`not loaded (not ${what}): ${others.map(([type, n]) => `${n} ${type}`).join(', ')}`);
  const rate = s.seconds > 0 ? Math.round(s.records / s.seconds) : s.records;
  io.out(
    `${what}: ${s.records} records from ${s.files} files in ${s.seconds.toFixed(1)} s (${rate}/s): ` +
      `${s.inserted} new, ${s.updated} updated, ${s.unchanged} unchanged, ${s.deleted > 0 ? `${s.deleted} deleted, ` : ''}${s.problems.length} skipped` +
      `${s.duplicates.length > 0 ? `, ${s.duplicates.length} duplicates` : ''}.`,
  );
  return s.problems.length > 0 ? EXIT.partial : EXIT.ok;
}

type Loader = (store: Store, paths: readonly string[], options: IngestOptions) => Promise<IngestSummary>;

async function ingestCommand(what: string, load: Loader, batchSize: number, config: Config, store: Store, paths: string[], io: CliIo): Promise<number> {
  const progress = config.ingest.progress && io.progressStream ? terminalProgress(what, io.progressStream) : silentProgress;
  const summary = await load(store, paths, { batchSize, progress, stdin: io.stdin, limits: { maxRecordBytes: config.ingest.maxRecordBytes } });
  return printSummary(what, summary, io);
}

export const ingestItemsCommand = (config: Config, store: Store, paths: string[], io: CliIo) =>
  ingestCommand('items', (s, p, o) => ingestItems(s, p, { ...o, edm: edmItemOptions(config) }), config.ingest.itemBatchSize, config, store, paths, io);

export const ingestEntitiesCommand = (config: Config, store: Store, paths: string[], io: CliIo) =>
  ingestCommand('entities', ingestEntities, config.ingest.batchSize, config, store, paths, io);
