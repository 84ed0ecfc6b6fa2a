/**
 * `heritage-api ingest items PATH...`: item packages (cortex XML, package
 * JSON) and EDM records (RDF/XML, one or many per file, or OAI-PMH
 * responses; issue #4), idempotent upsert by item id; cycles in the
 * hierarchy are reported once the whole run is in.
 */
import type { ItemChange, Store } from '../store/Store.js';
import { readItemRecords } from './items/readItemRecords.js';
import { readWholeFile, runIngest, type IngestOptions, type IngestSummary, type ReadResult } from './runIngest.js';

export type { IngestSummary, Problem } from './runIngest.js';

const ITEM_FILE = /\.(xml|json|rdf)$/i;

function readPackages(text: string): ReadResult<ItemChange>[] {
  return readItemRecords(text).map((r) => (r.kind === 'item' ? { kind: 'record', record: { kind: 'upsert', item: r.item } } : r));
}

export async function ingestItems(store: Store, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  const withParents: string[] = [];
  const summary = await runIngest<ItemChange>(
    paths,
    {
      accept: (name) => ITEM_FILE.test(name),
      read: (file) => readWholeFile(file, readPackages),
      write: (batch) => store.applyItemChanges(batch),
      written: (batch) => {
        for (const change of batch) if (change.kind === 'upsert' && change.item.parentRef !== null) withParents.push(change.item.id);
      },
    },
    options,
  );
  // Cycles can only be seen once every record of the run is in.
  summary.cycles = store.findCycles(withParents);
  return summary;
}
