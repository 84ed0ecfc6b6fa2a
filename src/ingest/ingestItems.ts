/**
 * `heritage-api ingest items PATH...`: item packages (cortex XML, package
 * JSON) and EDM records (RDF/XML, one or many per file, or OAI-PMH
 * responses; docs/edm-mapping.md), idempotent upsert by item id; cycles in the
 * hierarchy are reported once the whole run is in.
 */
import type { ItemChange, Store } from '../store/Store.js';
import { DEFAULT_LIMITS } from '../formats/recordLimits.js';
import type { EdmItemOptions } from './items/edmItems.js';
import { readItemFile } from './items/readItemFile.js';
import { ParserPool } from './parserPool.js';
import { loadRun, runIngest, type IngestOptions, type IngestSummary } from './runIngest.js';

export type { IngestSummary, Problem } from './runIngest.js';

const ITEM_FILE = /\.(xml|json|rdf)$/i;

export interface ItemIngestOptions extends IngestOptions {
  /** How packages are built from EDM records; by default without a providers file, dated now. */
  edm?: EdmItemOptions;
}

/** How many ids of new items a load remembers to show (a new user must find what they loaded). */
export const NEW_IDS_SHOWN = 10;

export interface ItemIngestSummary extends IngestSummary {
  /** The first NEW_IDS_SHOWN items of the run that were not in the store before, in load order. */
  newIds: string[];
}

export async function ingestItems(store: Store, paths: readonly string[], options: ItemIngestOptions): Promise<ItemIngestSummary> {
  const edm = options.edm ?? { ingestDate: new Date(), providersFingerprint: '' };
  const withParents: string[] = [];
  const newIds = new Set<string>();
  // Ids not in the store before their batch are new; looked up only until enough are found.
  const noteNew = async (batch: readonly ItemChange[]) => {
    for (const change of batch) {
      if (newIds.size >= NEW_IDS_SHOWN) return;
      if (change.kind === 'upsert' && !newIds.has(change.item.id) && (await store.getItemHead(change.item.id)) === undefined)
        newIds.add(change.item.id);
    }
  };
  const limits = options.limits ?? DEFAULT_LIMITS;
  const packages = new ParserPool('packages', { limits });
  const summary = await runIngest<ItemChange>(
    paths,
    {
      accept: (name) => ITEM_FILE.test(name),
      read: (file) => readItemFile(file, edm, packages, limits),
      key: (change) => (change.kind === 'upsert' ? change.item.id : null),
      write: async (batch) => {
        await noteNew(batch);
        return store.applyItemChanges(batch);
      },
      written: (batch) => {
        for (const change of batch) if (change.kind === 'upsert' && change.item.parentRef !== null) withParents.push(change.item.id);
      },
    },
    options,
  ).finally(() => packages.close());
  // Cycles can only be seen once every record of the run is in.
  summary.cycles = await store.findCycles(withParents);
  await store.recordLoad(loadRun('items', summary));
  return { ...summary, newIds: [...newIds] };
}
