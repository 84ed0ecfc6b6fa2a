/**
 * `heritage-api ingest items PATH...`: reads packages, writes them in
 * batches (idempotent upsert by item id), reports bad records with file,
 * position and reason, and keeps the good ones.
 */
import type { Store } from '../store/Store.js';
import { BatchWriter } from './batchWriter.js';
import { readItemRecords } from './items/readItemRecords.js';
import { type Progress, silentProgress } from './progress.js';
import { decodeUtf8, expandInputs } from './readInputs.js';
import type { PreparedItem, UpsertResult } from '../store/Store.js';

export interface Problem {
  file: string;
  position: string;
  reason: string;
}

export interface IngestSummary {
  files: number;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  problems: Problem[];
  /** Parent chains that loop (reported; the chain stops where it repeats). */
  cycles: string[][];
  seconds: number;
}

export interface IngestOptions {
  batchSize: number;
  progress?: Progress;
  stdin?: NodeJS.ReadableStream;
}

const ITEM_FILE = /\.(xml|json)$/i;

export async function ingestItems(store: Store, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  const started = Date.now();
  const progress = options.progress ?? silentProgress;
  const summary: IngestSummary = { files: 0, records: 0, inserted: 0, updated: 0, unchanged: 0, problems: [], cycles: [], seconds: 0 };
  const loadedIds: string[] = [];
  const writer = new BatchWriter<PreparedItem, UpsertResult>(
    options.batchSize,
    (batch) => store.upsertItems(batch),
    (result, batch) => {
      summary.inserted += result.inserted;
      summary.updated += result.updated;
      summary.unchanged += result.unchanged;
      for (const item of batch) if (item.parentRef !== null) loadedIds.push(item.id);
    },
  );
  try {
    for await (const file of expandInputs(paths, (name) => ITEM_FILE.test(name), options.stdin)) {
      summary.files++;
      const decoded = decodeUtf8(await file.read());
      if ('error' in decoded) {
        summary.problems.push({ file: file.name, position: 'file', reason: decoded.error });
        continue;
      }
      for (const result of readItemRecords(decoded.text)) {
        if (result.kind === 'item') {
          summary.records++;
          writer.add(result.item);
        } else {
          summary.problems.push({ file: file.name, position: result.position, reason: result.reason });
        }
      }
      progress.update({ records: summary.records, errors: summary.problems.length });
    }
    writer.flush();
  } finally {
    progress.stop();
  }
  // Cycles can only be seen once every record of the run is in.
  summary.cycles = store.findCycles(loadedIds);
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}
