/**
 * The sitemap's reads (Store.ts SitemapStore, docs/sitemaps.md) on every backend: pages of at
 * most a page size in id order with their newest change, entries by keyset within a page,
 * blocked items and non-GND persons left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import type { PreparedItem, SitemapEntry, Store } from '../../src/store/Store.js';
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

const person = (id: string) => preparePerson({ id, type: 'person', preferredName: `Name ${id}`, variantName: [] });

/** Every entry of every page, read as a sitemap page is read: from its first id to the next page's, in chunks. */
async function readAll(store: Store, kind: 'item' | 'person', pageSize: number, chunk: number): Promise<SitemapEntry[][]> {
  const pages = await store.sitemapPages(kind, pageSize);
  const out: SitemapEntry[][] = [];
  for (const [i, page] of pages.entries()) {
    const before = pages[i + 1]?.firstId;
    const entries: SitemapEntry[] = [];
    let from = page.firstId;
    let after = false;
    for (;;) {
      const got = await store.listSitemapEntries(kind, { from, after, before, limit: Math.min(chunk, pageSize - entries.length) });
      entries.push(...got);
      if (got.length < chunk || entries.length >= pageSize) break;
      from = got.at(-1)!.id;
      after = true;
    }
    assert.equal(entries.length, page.count, `page ${i + 1} holds what its count says`);
    out.push(entries);
  }
  return out;
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] sitemap pages of items: id order, at most the page size, newest change, blocked items left out`, async () => {
    const { store, dispose } = await backend.open();
    try {
      assert.deepEqual(await store.sitemapPages('item', 4), [], 'an empty store has no pages');
      const before = Date.now();
      await store.upsertItems(IDS.map(prepared));
      const after = Date.now();
      const pages = await store.sitemapPages('item', 4);
      assert.deepEqual(
        pages.map((p) => [p.firstId, p.count]),
        [
          [SORTED[0], 4],
          [SORTED[4], 4],
          [SORTED[8], 1],
        ],
      );
      for (const p of pages) {
        assert.ok(p.lastModified !== null && p.lastModified.getTime() >= before - 1000 && p.lastModified.getTime() <= after + 1000);
      }
      const read = await readAll(store, 'item', 4, 3);
      assert.deepEqual(
        read.map((page) => page.map((e) => e.id)),
        [SORTED.slice(0, 4), SORTED.slice(4, 8), SORTED.slice(8)],
      );
      const head = await store.getItemHead('a');
      assert.deepEqual(
        read[2 - 1]![SORTED.slice(4, 8).indexOf('a')]!.lastModified,
        head!.lastModified,
        "an entry's lastmod is its package's",
      );
      assert.deepEqual(
        (await store.sitemapPages('item', 100)).map((p) => [p.firstId, p.count]),
        [[SORTED[0], 9]],
      );

      // A changed item moves its page's lastmod; a blocked one leaves the pages.
      const [changed] = readItemRecords(cortexXml({ id: 'ZZ', title: 'Changed' }));
      await store.upsertItems([(changed as { item: PreparedItem }).item]);
      const newest = (await store.getItemHead('ZZ'))!.lastModified;
      // ZZ is on the second page; it changed last, so the page's newest change is ZZ's.
      assert.deepEqual((await store.sitemapPages('item', 4))[1]!.lastModified, newest);
      assert.deepEqual((await store.listSitemapEntries('item', { from: 'ZZ', limit: 1 }))[0]!.lastModified, newest);
      assert.ok(await store.blockItem('a', 'test'));
      assert.deepEqual(
        (await readAll(store, 'item', 4, 2)).map((page) => page.map((e) => e.id)),
        [SORTED.filter((id) => id !== 'a').slice(0, 4), SORTED.filter((id) => id !== 'a').slice(4)],
      );
      // Bounds: `before` is exclusive, `from` inclusive and need not be stored.
      assert.deepEqual(
        (await store.listSitemapEntries('item', { from: 'B', before: 'a-1', limit: 10 })).map((e) => e.id),
        ['B.5', 'Z', 'ZZ', 'b'].filter((id) => id < 'a-1'),
      );
      assert.deepEqual(await store.listSitemapEntries('item', { from: 'zzz', limit: 10 }), []);
      await assert.rejects(store.sitemapPages('item', 0), RangeError);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] sitemap pages of persons: GND persons only, in id order, lastmod when they were stored`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const gnd = [
        'http://d-nb.info/gnd/118540238',
        'http://d-nb.info/gnd/11871791X',
        'http://d-nb.info/gnd/4005728-8',
        'http://d-nb.info/gnd/1',
      ];
      const from = Date.now();
      await store.upsertPersons([...gnd, 'http://viaf.org/viaf/24602065', 'https://www.wikidata.org/wiki/Q5879'].map(person));
      const until = Date.now();
      const sorted = [...gnd].sort();
      const pages = await store.sitemapPages('person', 3);
      // One load, one time: each person's and each page's lastmod is when it was stored.
      const at = pages[0]!.lastModified!;
      assert.ok(at.getTime() >= from && at.getTime() <= until, `${at.toISOString()} is when the persons were stored`);
      assert.deepEqual(pages, [
        { firstId: sorted[0], count: 3, lastModified: at },
        { firstId: sorted[3], count: 1, lastModified: at },
      ]);
      assert.deepEqual(await readAll(store, 'person', 3, 2), [
        sorted.slice(0, 3).map((id) => ({ id, lastModified: at })),
        sorted.slice(3).map((id) => ({ id, lastModified: at })),
      ]);
    } finally {
      await dispose();
    }
  });
}
