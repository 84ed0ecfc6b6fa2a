/**
 * `heritage-api ingest items|entities PATH...`
 */
import type { Config } from '../../config.js';
import { ingestEntities } from '../../ingest/ingestEntities.js';
import { ingestItems, type IngestSummary, type ItemIngestSummary } from '../../ingest/ingestItems.js';
import { edmItemOptions } from '../../ingest/items/edmOptions.js';
import type { IngestOptions, LoadCounts } from '../../ingest/runIngest.js';
import { silentProgress, terminalProgress } from '../../ingest/progress.js';
import type { Store } from '../../store/Store.js';
import { EXIT, type CliIo } from '../io.js';
import { shellWord } from './items.js';

/** Shown in full up to this many; the rest are counted, so a bad directory does not flood the terminal. */
const MAX_LISTED_PROBLEMS = 50;

/** The skipped records (the first MAX_LISTED_PROBLEMS) and the cycles of a load, on stderr. */
export function printProblems(s: LoadCounts, io: CliIo): void {
  for (const p of s.problems.slice(0, MAX_LISTED_PROBLEMS)) io.err(`skipped: ${p.file} (${p.position}): ${p.reason}`);
  if (s.problems.length > MAX_LISTED_PROBLEMS) io.err(`... and ${s.problems.length - MAX_LISTED_PROBLEMS} more skipped records`);
  for (const n of s.notes.slice(0, MAX_LISTED_PROBLEMS)) io.err(`note: ${n.file} (${n.position}): ${n.reason}`);
  if (s.notes.length > MAX_LISTED_PROBLEMS) io.err(`... and ${s.notes.length - MAX_LISTED_PROBLEMS} more notes`);
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

type Loader<S extends IngestSummary> = (store: Store, paths: readonly string[], options: IngestOptions) => Promise<S>;

export interface LoadRun {
  /** Aborted by Ctrl-C: the load stops, keeps what it read, and says so. */
  signal?: AbortSignal | undefined;
  /** The command line to suggest for the next step (`heritage-api --db PATH`). */
  cli?: string;
}

/** After the summary of a stopped load: what was kept, and how to go on (docs/cli.md "Exit codes"). */
export function printInterrupted(s: LoadCounts, io: CliIo, goOn: string): number {
  io.err(
    `Stopped by Ctrl-C: ${s.records} records stored (${s.inserted} new, ${s.updated} updated, ${s.unchanged} unchanged), nothing after them. ${goOn}`,
  );
  return EXIT.interrupted;
}

const RERUN = 'Run the same command again to load the rest; what is stored already stays unchanged.';

async function ingestCommand<S extends IngestSummary>(
  what: string,
  load: Loader<S>,
  batchSize: number,
  config: Config,
  store: Store,
  paths: string[],
  io: CliIo,
  run: LoadRun,
  after: (summary: S) => void = () => {},
): Promise<number> {
  const progress = config.ingest.progress && io.progressStream ? terminalProgress(what, io.progressStream) : silentProgress;
  const summary = await load(store, paths, {
    batchSize,
    progress,
    stdin: io.stdin,
    limits: { maxRecordBytes: config.ingest.maxRecordBytes },
    ...(run.signal ? { signal: run.signal } : {}),
  });
  const code = printSummary(what, summary, io);
  after(summary);
  return summary.interrupted ? printInterrupted(summary, io, RERUN) : code;
}

/** A new user must find the ids of what they loaded: the first few, and how to see the rest. */
export function printNewIds(newIds: readonly string[], inserted: number, cli: string, io: CliIo): void {
  if (newIds.length === 0) return;
  io.out(inserted > newIds.length ? `New items (the first ${newIds.length} of ${inserted}; every item: ${cli} items list):` : 'New items:');
  for (const id of newIds) io.out(`  ${id}`);
  io.out(`Show one: ${cli} items show ${shellWord(newIds[0]!)}`);
}

export const ingestItemsCommand = (config: Config, store: Store, paths: string[], io: CliIo, run: LoadRun = {}) =>
  ingestCommand(
    'items',
    (s, p, o) => ingestItems(s, p, { ...o, edm: edmItemOptions(config) }),
    config.ingest.itemBatchSize,
    config,
    store,
    paths,
    io,
    run,
    (summary: ItemIngestSummary) => printNewIds(summary.newIds, summary.inserted, run.cli ?? 'heritage-api', io),
  );

export const ingestEntitiesCommand = (config: Config, store: Store, paths: string[], io: CliIo, run: LoadRun = {}) =>
  ingestCommand('entities', ingestEntities, config.ingest.batchSize, config, store, paths, io, run);
