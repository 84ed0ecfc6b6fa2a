/**
 * One load run, whatever the records: read every input file, decode it
 * strictly as UTF-8, turn it into records, write them in batches (one
 * transaction each), and report bad records with file, position and reason
 * while keeping the good ones.
 */
import type { UpsertResult } from '../store/Store.js';
import { BatchWriter } from './batchWriter.js';
import { type Progress, silentProgress } from './progress.js';
import { expandInputs, readingAhead, type InputFile } from './readInputs.js';

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
  /** Parent chains that loop (reported; the chain stops where it repeats). */
  cycles: string[][];
  seconds: number;
}

export interface IngestSummary extends LoadCounts {
  files: number;
  /** Records that are valid but not for this store (e.g. GND records that are not persons), by type. */
  skippedByType: Record<string, number>;
}

export type ReadResult<T> =
  | { kind: 'record'; record: T }
  | { kind: 'other'; type: string }
  | { kind: 'error'; reason: string; position: string };

export interface IngestOptions {
  batchSize: number;
  progress?: Progress;
  stdin?: NodeJS.ReadableStream;
}

export interface RecordKind<T> {
  /** Which files inside a directory are inputs. */
  accept: (fileName: string) => boolean;
  /** The records of one file, in order; a reader that cannot go on yields an error and ends. */
  read: (file: InputFile) => AsyncIterable<ReadResult<T>>;
  /**
   * Set when `read` starts its work as it is called (it parses on a worker)
   * and holds the results until they are read: then the next large file is
   * started while this one is written, rather than in its turn.
   */
  startsEarly?: boolean;
  write: (batch: readonly T[]) => UpsertResult & { deleted?: number };
  /** Called after each written batch (e.g. to remember ids for a check after the run). */
  written?: (batch: readonly T[]) => void;
}

export async function runIngest<T>(paths: readonly string[], kind: RecordKind<T>, options: IngestOptions): Promise<IngestSummary> {
  const started = Date.now();
  const progress = options.progress ?? silentProgress;
  const summary: IngestSummary = {
    files: 0, records: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, problems: [], skippedByType: {}, cycles: [], seconds: 0,
  };
  const writer = new BatchWriter<T, UpsertResult & { deleted?: number }>(options.batchSize, kind.write, (result, batch) => {
    summary.inserted += result.inserted;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    summary.deleted += result.deleted ?? 0;
    kind.written?.(batch);
  });
  try {
    for await (const { file, results } of readInOrder(readingAhead(expandInputs(paths, kind.accept, options.stdin)), kind)) {
      summary.files++;
      for await (const result of results) {
        if (result.kind === 'record') {
          summary.records++;
          writer.add(result.record);
        } else if (result.kind === 'other') {
          summary.skippedByType[result.type] = (summary.skippedByType[result.type] ?? 0) + 1;
        } else {
          summary.problems.push({ file: file.name, position: result.position, reason: result.reason });
        }
        if (summary.records % 1000 === 0) progress.update({ records: summary.records, errors: summary.problems.length });
      }
      progress.update({ records: summary.records, errors: summary.problems.length });
    }
    writer.flush();
  } finally {
    progress.stop();
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

async function collect<T>(results: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const r of results) all.push(r);
  return all;
}

/**
 * Each file with its results, in file order. Files already in memory (read
 * ahead) are read up to `ahead` at a time, so a reader that parses off the
 * main thread (the parser pool) works on the next files while the records of
 * this one are written. A large file is read in its turn, record by record,
 * and nothing after it is started before it; when the reader starts early,
 * one large file is started ahead, so that its parse overlaps this file's writes.
 */
async function* readInOrder<T>(
  files: AsyncIterable<InputFile>,
  kind: Pick<RecordKind<T>, 'read' | 'startsEarly'>,
  ahead = 8,
): AsyncGenerator<{ file: InputFile; results: AsyncIterable<ReadResult<T>> | ReadResult<T>[] }> {
  const source = files[Symbol.asyncIterator]();
  type Queued = { file: InputFile; results: Promise<ReadResult<T>[]> | AsyncIterable<ReadResult<T>> | null };
  const queue: Queued[] = [];
  const large = (q: Queued | undefined) => q !== undefined && !q.file.inMemory;
  let exhausted = false;
  const fill = async (): Promise<void> => {
    while (!exhausted && queue.length < ahead && !queue.some(large)) {
      const next = await source.next();
      if (next.done) {
        exhausted = true;
        return;
      }
      const file = next.value;
      let results: Queued['results'] = null;
      if (file.inMemory) {
        results = collect(kind.read(file));
        // Awaited in its turn; until then a failure must not count as unhandled.
        results.catch(() => {});
      } else if (kind.startsEarly === true) {
        results = kind.read(file);
      }
      queue.push({ file, results });
    }
  };
  for (;;) {
    await fill();
    const head = queue.shift();
    if (head === undefined) return;
    // A started file's successors are started before its records are written.
    if (head.results !== null) await fill();
    const results = head.results === null ? kind.read(head.file) : 'then' in head.results ? await head.results : head.results;
    yield { file: head.file, results };
  }
}
