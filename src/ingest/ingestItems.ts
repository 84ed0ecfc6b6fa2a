/**
 * `heritage-api ingest items PATH...`: item packages (cortex XML, package
 * JSON), idempotent upsert by item id; cycles in the hierarchy are reported
 * once the whole run is in.
 */
import type { PreparedItem, Store } from '../store/Store.js';
import { readItemRecords } from './items/readItemRecords.js';
import { runIngest, type IngestOptions, type IngestSummary, type ReadResult } from './runIngest.js';

export type { IngestSummary, Problem } from './runIngest.js';

const ITEM_FILE = /\.(xml|json)$/i;

export async function ingestItems(store: Store, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  const withParents: string[] = [];
  const summary = await runIngest<PreparedItem>(
    paths,
    {
      accept: (name) => ITEM_FILE.test(name),
      read: (text) =>
        readItemRecords(text).map((r): ReadResult<PreparedItem> => (r.kind === 'item' ? { kind: 'record', record: r.item } : r)),
      write: (batch) => store.upsertItems(batch),
      written: (batch) => {
        for (const item of batch) if (item.parentRef !== null) withParents.push(item.id);
      },
    },
    options,
  );
  // Cycles can only be seen once every record of the run is in.
  summary.cycles = store.findCycles(withParents);
  return summary;
}
