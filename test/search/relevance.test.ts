/**
 * Relevance on the real fixtures (docs/search-engine.md "Semantics",
 * docs/search.md "Relevance"): a table of real queries with the hits expected on top.
 * The rules it shows: a title whose words are exactly the query's comes first; then the
 * score, where a match in the title (weight 8) beats one in the subtitle (4), keywords and
 * people (3), the description and places (2) and the rest (1); equal scores by the
 * folded title, then by id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../../src/query/parse.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexPackages, edmPackages } from './itemFixtures.js';

const TABLE: Array<{ query: string; top: string[]; why: string }> = [
  {
    query: 'goethe',
    top: ['TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK', '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22', '222NZKK63TNRLC2VETRV722VKBDSUVGL'],
    why: 'the exact title "Goethe" first, then the title "Cornelie Goethe" (same score), then a description that names Goethe',
  },
  { query: 'Cornelie Goethe', top: ['4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22'], why: 'both words in one title' },
  {
    query: 'druckgraphik',
    top: ['4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22', 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK'],
    why: 'the same subtitle in both: equal scores, so by title ("cornelie goethe" before "goethe")',
  },
  {
    query: 'violine',
    top: ['EILKMMGDSC7BRMQ6AARXVAG3R5NEWHVZ', '23U7CN5NOY25ODYWDBUJWGYVXEOADYNE', '3BCRQT2I6CNLJDBTHTOCJ6GGAXNZYWFM'],
    why: 'exact titles "Violine" with the subtitle and keyword "Violin" (an analysed form of it): the one whose description has "Violinen" too first, the others equal: by id',
  },
  {
    query: 'leipzig',
    top: ['LETGGG5OYOQA37LTOSC52DBOIU5ISRIN', '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22', 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK'],
    why: 'no title has it: a place in several fields beats one place and a keyword',
  },
  {
    query: 'combat',
    top: ['ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ', 'ZYPKTHQVYW7BDWECOQLUQRFXOHP3A33C', 'COHJUZMGMFQDEQQNAQ6D3PPU54PYS5RY'],
    why: 'no exact title ("Combat (1961)" has a second word): equal scores, by title "combat (1961)" < "combat (1961)01"',
  },
];

for (const backend of BACKENDS) {
  test(`[${backend.name}] relevance: the expected top hits of real queries on the real fixtures`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.upsertItems([...cortexPackages(), ...(await edmPackages())].map((p) => p.item));
      const host = new IndexHost(store);
      while (!(await host.refresh('item', 1000)));
      for (const row of TABLE) {
        const request = {
          query: parseQuery(row.query, { fields: queryFields(itemSchema) }),
          sort: { kind: 'relevance' as const },
          offset: 0,
          rows: row.top.length,
        };
        const got = await host.search({ kind: 'item', request }, Date.now() + 60_000);
        assert.deepEqual(got.ids, row.top, `${row.query}: ${row.why}`);
      }
      // Title over description: the description-only hit scores below the title hits.
      const goethe = await host.search(
        {
          kind: 'item',
          request: { query: parseQuery('goethe', { fields: queryFields(itemSchema) }), sort: { kind: 'relevance' }, offset: 0, rows: 3 },
        },
        Date.now() + 60_000,
      );
      assert.ok(goethe.scores[2]! < goethe.scores[1]! / 2, goethe.scores.join(', '));
    } finally {
      await dispose();
    }
  });
}
