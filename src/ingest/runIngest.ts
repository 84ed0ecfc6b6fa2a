/**
 * One load run, whatever the records: read every input file, decode it
 * strictly as UTF-8, turn it into records, write them in batches (one
 * transaction each), and report bad records with file, position and reason
 * while keeping the good ones.
 */
import type { LoadRun, UpsertResult } from '../store/Store.js';
import type { RecordLimits } from '../formats/recordLimits.js';
import { BatchWriter } from './batchWriter.js';
import { type Progress, silentProgress } from './progress.js';
import { countInputFiles, expandInputs, type InputFile } from './readInputs.js';
import { untilAborted } from './untilAborted.js';

export interface Problem {
  file: string;
  position: string;
  reason: string;
}

/** What any load (files or a harvest) did. */
export interface LoadCounts {
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Items removed because their source marked them deleted. */
  deleted: number;
  problems: Problem[];
  /**
   * What a load changed in records it kept (a DOCTYPE declaration dropped), each
   * with its file and position; warnings, not bad records (docs/cli.md "Limits").
   */
  notes: Problem[];
  /** Parent chains that loop (reported; the chain stops where it repeats). */
  cycles: string[][];
  seconds: number;
  /** Set when the load was stopped (Ctrl-C) before the end: the counts are what was stored until then. */
  interrupted?: boolean;
}

export interface IngestSummary extends LoadCounts {
  files: number;
  /**
   * Records skipped because a record with the same key (item id, person id) was
   * read before them in this run; each names both places (docs/cli.md "Duplicates").
   */
  duplicates: Problem[];
  /** Records that are valid but not for this store (e.g. GND records that are not persons), by type. */
  skippedByType: Record<string, number>;
}

/** What GET /status shows of a finished run (docs/api.md "GET /version and GET /status"). */
export function loadRun(kind: LoadRun['kind'], counts: LoadCounts): LoadRun {
  const { records, inserted, updated, unchanged, deleted } = counts;
  return { kind, finishedAt: new Date(), records, inserted, updated, unchanged, deleted, problems: counts.problems.length };
}

export type ReadResult<T> =
  /** `position` (as for errors) names the record in reports, such as a duplicate's. */
  | { kind: 'record'; record: T; position?: string }
  | { kind: 'other'; type: string }
  | { kind: 'error'; reason: string; position: string }
  /** Something changed on the way in to the record read next (or the file's records), kept all the same. */
  | { kind: 'note'; note: string; position: string };

export interface IngestOptions {
  batchSize: number;
  /** What a record may be (ingest.maxRecordBytes); the defaults of src/formats/recordLimits.ts otherwise. */
  limits?: RecordLimits;
  progress?: Progress;
  stdin?: NodeJS.ReadableStream;
  /**
   * Aborting stops the load at once, even while it waits for input: the
   * records read so far are written, and the summary says `interrupted`.
   */
  signal?: AbortSignal;
}

export interface RecordKind<T> {
  /** Which files inside a directory are inputs. */
  accept: (fileName: string) => boolean;
  /**
   * The records of one file, in order; a reader that cannot go on yields an
   * error and ends. Called ahead of the file's turn for files on disk: it may
   * start work at once, and must give results only as they are read.
   */
  read: (file: InputFile) => AsyncIterable<ReadResult<T>>;
  write: (batch: readonly T[]) => Promise<UpsertResult & { deleted?: number }>;
  /**
   * The key under which the store keeps a record (item id, person id), or null
   * for a change that has none (a deletion). The first record of a key in the
   * run wins; later ones are duplicates.
   */
  key: (record: T) => string | null;
  /** Called after each written batch (e.g. to remember ids for a check after the run). */
  written?: (batch: readonly T[]) => void;
}

export async function runIngest<T>(paths: readonly string[], kind: RecordKind<T>, options: IngestOptions): Promise<IngestSummary> {
  const started = Date.now();
  const progress = options.progress ?? silentProgress;
  const summary: IngestSummary = {
    files: 0,
    records: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    problems: [],
    notes: [],
    duplicates: [],
    skippedByType: {},
    cycles: [],
    seconds: 0,
  };
  // Key -> where it was first read. Files come in a fixed order (the paths as given,
  // directories sorted) and each file's records in document order, however many
  // workers parse them, so "the first wins" picks the same record every run, and a
  // re-run of the same input writes nothing (docs/decisions.md "Duplicates").
  const firstRead = new Map<string, { file: string; position: string | undefined }>();
  const place = (p: { file: string; position: string | undefined }) => (p.position === undefined ? p.file : `${p.file} (${p.position})`);
  const writer = new BatchWriter<T, UpsertResult & { deleted?: number }>(options.batchSize, kind.write, (result, batch) => {
    summary.inserted += result.inserted;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    summary.deleted += result.deleted ?? 0;
    kind.written?.(batch);
  });
  // The total is known once the directories are walked; the load does not wait for it.
  let total: number | undefined;
  const counted = countInputFiles(paths, kind.accept).then((n) => (total = n));
  let filesDone = 0;
  const report = () =>
    progress.update({
      records: summary.records,
      errors: summary.problems.length,
      done: filesDone,
      ...(total !== undefined ? { total, unit: 'files' } : {}),
    });
  const next = untilAborted(options.signal);
  try {
    const files = readInOrder(expandInputs(paths, kind.accept, options.stdin), kind.read)[Symbol.asyncIterator]();
    for (let f = await next(files); !f.done; f = await next(files)) {
      const { file, results } = f.value;
      summary.files++;
      const records = results[Symbol.asyncIterator]();
      for (;;) {
        let r: IteratorResult<ReadResult<T>>;
        try {
          // An abort (Ctrl-C) ends the file as done; see untilAborted.
          r = await next(records);
        } catch (e) {
          // A reader that fails (a bug a hostile file brings out) costs the rest of its file, not the run.
          summary.problems.push({
            file: file.name,
            position: 'file',
            reason: `reading stopped here (${(e as Error).message}); the records before were kept; please report this with the file`,
          });
          break;
        }
        if (r.done === true) break;
        const result = r.value;
        if (result.kind === 'record') {
          const key = kind.key(result.record);
          const first = key === null ? undefined : firstRead.get(key);
          if (first !== undefined) {
            summary.duplicates.push({
              file: file.name,
              position: result.position ?? 'record',
              reason: `duplicate of ${key}, first read from ${place(first)}; this one was skipped (the first in path order wins)`,
            });
            continue;
          }
          if (key !== null) firstRead.set(key, { file: file.name, position: result.position });
          summary.records++;
          const writing = writer.add(result.record);
          if (writing !== undefined) await writing;
        } else if (result.kind === 'note') {
          summary.notes.push({ file: file.name, position: result.position, reason: result.note });
        } else if (result.kind === 'other') {
          summary.skippedByType[result.type] = (summary.skippedByType[result.type] ?? 0) + 1;
        } else {
          summary.problems.push({ file: file.name, position: result.position, reason: result.reason });
        }
        if (summary.records % 1000 === 0) report();
      }
      if (options.signal?.aborted) break;
      filesDone++;
      report();
    }
    // Stopped or not, what was read is kept: a re-run then finds it unchanged and goes on.
    await writer.flush();
    if (options.signal?.aborted) summary.interrupted = true;
    else {
      // The last line on the terminal shows the whole, however quick the load was.
      await counted;
      report();
    }
  } finally {
    progress.stop();
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/** Files whose reading is started before their turn (their results are bounded by the parser pool's credits). */
const READ_AHEAD_FILES = 2000;

/**
 * Each file with its results, in file order. A file on disk is handed to its
 * reader up to READ_AHEAD_FILES ahead, so the parser workers read and parse
 * on while the records before it are written. Standard input is read in its
 * turn, and nothing after it is started before it: a worker parses in the
 * order asked, and must not wait on results taken after ones it holds back.
 */
async function* readInOrder<T>(
  files: AsyncIterable<InputFile>,
  read: (file: InputFile) => AsyncIterable<ReadResult<T>>,
): AsyncGenerator<{ file: InputFile; results: AsyncIterable<ReadResult<T>> }> {
  const source = files[Symbol.asyncIterator]();
  const queue: Array<{ file: InputFile; results: AsyncIterable<ReadResult<T>> | null }> = [];
  let exhausted = false;
  for (;;) {
    while (!exhausted && queue.length < READ_AHEAD_FILES && queue.at(-1)?.results !== null) {
      const next = await source.next();
      if (next.done) exhausted = true;
      else queue.push({ file: next.value, results: next.value.path === undefined ? null : read(next.value) });
    }
    const head = queue.shift();
    if (head === undefined) return;
    yield { file: head.file, results: head.results ?? read(head.file) };
  }
}
