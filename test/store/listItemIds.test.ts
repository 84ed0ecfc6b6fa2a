/**
 * Paging through every stored item id in order (`heritage-api items list`), for every backend.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import type { PreparedItem } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexXml } from '../helpers/packages.js';

function prepared(id: string): PreparedItem {
  const [r] = readItemRecords(cortexXml({ id, title: `Title of ${id}` }));
  assert.equal(r?.kind, 'item');
  return (r as { item: PreparedItem }).item;
}

// Not in load order, with ids that sort differently by case and by length.
const IDS = ['b', 'A', 'ZZ', 'a-1', 'a', 'Z', '0', 'a:2', 'B.5'];
const SORTED = [...IDS].sort();

for (const backend of BACKENDS) {
  test(`[${backend.name}] listItemIds pages through every item in id order`, async () => {
    const { store, dispose } = await backend.open();
    try {
      assert.deepEqual(await store.listItemIds({ limit: 10 }), []);
      await store.upsertItems(IDS.map(prepared));
      assert.deepEqual(await store.listItemIds({ limit: 100 }), SORTED);
      const pages: string[][] = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.listItemIds({ after, limit: 4 });
        if (page.length === 0) break;
        pages.push(page);
        after = page.at(-1);
      }
      assert.deepEqual(pages, [SORTED.slice(0, 4), SORTED.slice(4, 8), SORTED.slice(8)]);
      // `after` need not be an id in the store.
      assert.deepEqual(await store.listItemIds({ after: 'Y', limit: 3 }), SORTED.filter((id) => id > 'Y').slice(0, 3));
      assert.deepEqual(await store.listItemIds({ after: SORTED.at(-1), limit: 3 }), []);
    } finally {
      await dispose();
    }
  });
}
