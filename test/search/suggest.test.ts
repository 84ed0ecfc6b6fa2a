/**
 * Prefix completion (src/search/engine/suggest.ts): the first values of the first text
 * field, folded for matching and shown as written, in folded code point order, one per
 * distinct folded key; compared with a brute force over the live documents through
 * upserts, deletes and rank refreshes, and on the real fixtures through the index host.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fold } from '../../src/search/engine/fold.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { SearchDocument } from '../../src/search/engine/types.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexPackages, edmPackages } from './itemFixtures.js';

const doc = (id: string, title: string): SearchDocument => ({
  id,
  text: { title: [title] },
  facets: {},
  numbers: {},
  sort: { title: fold(title) },
});

/** What suggest must answer: per distinct folded title with the prefix, the first live document's title in ordinal order. */
function expected(live: Map<string, string>, order: string[], prefix: string, limit: number): string[] {
  const p = fold(prefix);
  if (p === '') return [];
  const byKey = new Map<string, string>();
  for (const id of order) {
    const title = live.get(id);
    if (title === undefined || !fold(title).startsWith(p) || byKey.has(fold(title))) continue;
    byKey.set(fold(title), title);
  }
  return [...byKey]
    .sort((a, b) => compareCodePoints(a[0], b[0]))
    .slice(0, limit)
    .map(([, t]) => t);
}

test('suggest: folded prefixes, one suggestion per folded title, in order, limited', () => {
  const index = new SearchIndex(itemSchema);
  const titles = ['Goethe-Galerie', 'Goethe, Johann Wolfgang von', 'GOETHE-GALERIE', 'Göttingen', 'Gotha', 'Leipzig', 'goethe'];
  titles.forEach((t, i) => index.upsert(doc(`d${i}`, t)));
  assert.deepEqual(index.suggest('goe', 10), ['goethe', 'Goethe, Johann Wolfgang von', 'Goethe-Galerie']);
  assert.deepEqual(index.suggest('GÖT', 10), ['Gotha', 'Göttingen']);
  assert.deepEqual(index.suggest('go', 2), ['goethe', 'Goethe, Johann Wolfgang von']);
  assert.deepEqual(index.suggest('', 10), []);
  assert.deepEqual(index.suggest('x', 10), []);
  // The first document of a folded key is shown; once it is gone, the next one.
  index.delete('d0');
  assert.deepEqual(index.suggest('goethe-', 10), ['GOETHE-GALERIE']);
});

test('suggest matches a brute force through upserts, deletes and rank refreshes', () => {
  const index = new SearchIndex(itemSchema);
  const live = new Map<string, string>();
  const order: string[] = [];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const words = ['Goethe', 'goethe', 'Göthe', 'Gotik', 'Berlin', 'Bern', 'bernstein', 'Zürich', 'zurich', 'Ärzte', 'arzt'];
  const prefixes = ['g', 'go', 'GOE', 'goeth', 'b', 'bern', 'z', 'zu', 'ar', 'ä', 'q'];
  for (let step = 0; step < 12_000; step++) {
    const id = `d${rnd(3000)}`;
    if (rnd(5) === 0) {
      index.delete(id);
      live.delete(id);
    } else {
      const title = `${words[rnd(words.length)]} ${words[rnd(words.length)]}${rnd(3) === 0 ? ` ${rnd(50)}` : ''}`;
      index.upsert(doc(id, title));
      live.set(id, title);
      // an upsert takes a new ordinal: the id moves to the end of the ordinal order
      const at = order.indexOf(id);
      if (at >= 0) order.splice(at, 1);
      order.push(id);
    }
    if (step % 2500 === 0) index.refreshOrders(0);
    if (step % 500 === 0) {
      for (const p of prefixes) assert.deepEqual(index.suggest(p, 7), expected(live, order, p, 7), `step ${step}, prefix ${p}`);
    }
  }
  index.refreshOrders(0);
  for (const p of prefixes) assert.deepEqual(index.suggest(p, 50), expected(live, order, p, 50), `after refresh, prefix ${p}`);
});

for (const backend of BACKENDS) {
  test(`[${backend.name}] the index host suggests titles of the real fixtures`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const packages = [...cortexPackages(), ...(await edmPackages())].map((p) => p.item);
      await store.upsertItems(packages);
      const host = new IndexHost(store);
      while (!(await host.refresh('item', 1000)));
      const got = host.suggest('item', 'Goethe', 5);
      assert.ok(got.length > 0, 'some title starts with Goethe');
      for (const t of got) assert.ok(fold(t).startsWith('goethe'), t);
      assert.deepEqual(
        got,
        [...got].sort((a, b) => compareCodePoints(fold(a), fold(b))),
      );
      assert.deepEqual(host.suggest('item', 'zzzzqq', 5), []);
    } finally {
      await dispose();
    }
  });
}
