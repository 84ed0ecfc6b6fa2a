/**
 * The index host (src/search/indexHost.ts): the engine's indexes of a real store, caught up
 * in slices from its change feed, answering with what to show of each hit; a pruned
 * position rebuilds the index without the documents deleted meanwhile.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../../src/query/parse.js';
import { itemDocumentsFromJson } from '../../src/search/schemas/itemDocument.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import type { SearchRequest } from '../../src/search/engine/types.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexPackages } from './itemFixtures.js';

const FAR = () => Date.now() + 60_000;

function byId(q: string): SearchRequest {
  return { query: parseQuery(q, { fields: queryFields(itemSchema) }), sort: { kind: 'id', descending: false }, offset: 0, rows: 100 };
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] the host catches up in slices, follows a delete and shows each hit's result doc`, async () => {
    const { store, dispose } = await backend.open({ searchChangesKept: 1 });
    try {
      const packages = cortexPackages().map((p) => p.item);
      await store.upsertItems(packages);
      const host = new IndexHost(store);
      assert.equal(host.built('item'), false);
      while (!(await host.refresh('item', 1)));
      assert.equal(host.built('item'), true);
      assert.equal(host.built('person'), false);

      const all = await host.search({ kind: 'item', request: byId('*:*') }, FAR());
      const ids = packages.map((p) => p.id).sort();
      assert.deepEqual(all.ids, ids);
      assert.deepEqual(
        all.docs,
        ids.map((id) => JSON.stringify(itemDocumentsFromJson(packages.find((p) => p.id === id)!.json, id).result)),
      );

      // A block is a delete in the index; the updates after it move the host on.
      await store.blockItem(ids[0]!, 'test');
      await store.upsertItems([{ ...packages[1]!, etag: 'changed' }]);
      await store.upsertItems([{ ...packages[2]!, etag: 'changed again' }]);
      assert.equal(await host.refresh('item', 1000), true);
      assert.deepEqual((await host.search({ kind: 'item', request: byId('*:*') }, FAR())).ids, ids.slice(1));
    } finally {
      await dispose();
    }
  });
}
