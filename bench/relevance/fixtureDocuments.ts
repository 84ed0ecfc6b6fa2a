/**
 * The search documents of every item of the fixtures (fixtures/items: the cortex packages
 * and the packages built from the EDM records, as a load stores them), as the engine
 * indexes them (src/search/schemas/itemDocument.ts), one per id. The judged set (./README.md) is
 * judged on these documents, and both engines of the relevance benchmark index them.
 */
import { cortexPackages, edmPackages } from '../../test/search/itemFixtures.js';
import { itemDocumentsFromJson } from '../../src/search/schemas/itemDocument.js';
import type { SearchDocument } from '../../src/search/engine/types.js';

export async function fixtureDocuments(): Promise<SearchDocument[]> {
  const packages = [...cortexPackages(), ...(await edmPackages())];
  // Some records come in several versions under one id: the store keeps the last loaded.
  const byId = new Map<string, SearchDocument>();
  for (const p of packages) byId.set(p.item.id, itemDocumentsFromJson(p.item.json, p.item.id).search);
  return [...byId.values()];
}
