/**
 * `*:*` under one facet filter with its total and facet counts kept up to date
 * (src/search/engine/filterCounts.ts) and its page found among the rank groups' candidates
 * (rankLists.ts): an index that keeps them answers every search as one that keeps none and
 * counts every time, and its totals and counts are those of the documents counted here by
 * hand, through rounds of additions, replacements (values changed), deletes, values new to
 * a facet (past the length of the kept counts) and a facet turning multi-valued; at 1 and 7
 * shards, pages, offsets and cursor walks alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { SearchDocument, SearchRequest, SearchSort } from '../../src/search/engine/types.js';
import { rng } from '../helpers/random.js';

const FAR = () => Date.now() + 60_000;

const schema: Schema = {
  kind: 'thing',
  idField: 'id',
  text: [{ name: 'title', weight: 5 }],
  facets: ['kind', 'tag', 'place'],
  numbers: [],
  sortKeys: [{ name: 'title', type: 'string', queryable: true }],
  relevanceTiebreak: [{ key: 'title', descending: false }],
};

/** kinds a (60 %), b (35 %), c; one place of `places`; tags multi-valued from round `multi` on. */
function doc(r: () => number, id: string, places: number, multi: boolean): SearchDocument {
  const x = r();
  const kind = x < 0.6 ? 'a' : x < 0.95 ? 'b' : 'c';
  const tags = ['t1', 't2', 't3'].filter(() => r() < 0.4);
  const title = `w${Math.floor(r() * 300)} w${Math.floor(r() * 5)}`;
  return {
    id,
    text: { title: [title] },
    facets: { kind: [kind], tag: multi ? tags : tags.slice(0, 1), place: r() < 0.9 ? [`p${Math.floor(r() * places)}`] : [] },
    numbers: {},
    sort: { title },
  };
}

const FILTERS: Array<Record<string, string[]>> = [
  { kind: ['a'] },
  { kind: ['b', 'c'] },
  { kind: ['c', 'nobody'] },
  { tag: ['t1'] },
  { tag: ['t2', 't3'] },
  { place: ['p1', 'p7', 'p40'] },
];
const SORTS: SearchSort[] = [
  { kind: 'relevance' },
  { kind: 'key', key: 'title', descending: false },
  { kind: 'key', key: 'title', descending: true },
  { kind: 'id', descending: false },
];
const FACETS = [
  { field: 'kind', limit: -1, mincount: 0, sort: 'count' as const },
  { field: 'tag', limit: -1, mincount: 1, sort: 'index' as const },
  { field: 'place', limit: 5, mincount: 1, sort: 'count' as const },
];

describe('kept counts of *:* under one filter', () => {
  it('answer as counting every time, through changes', () => {
    const r = rng(7);
    const kept = new SearchIndex(schema);
    const counted = new SearchIndex(schema, { filterCounts: { entries: 0 } });
    const docs = new Map<string, SearchDocument>();
    let next = 0;
    let places = 20;
    let multi = false;
    const put = (d: SearchDocument) => {
      kept.upsert(d);
      counted.upsert(d);
      docs.set(d.id, d);
    };
    for (let i = 0; i < 3000; i++) put(doc(r, `d${next++}`, places, multi));
    for (let round = 0; round < 5; round++) {
      if (round === 2) multi = true; // tags turn multi-valued (facetColumn.ts)
      if (round % 2 === 1) kept.refreshOrders(0);
      if (round % 2 === 1) counted.refreshOrders(0);
      for (const filters of FILTERS) {
        const [facet, values] = Object.entries(filters)[0]!;
        const hits = [...docs.values()].filter((d) => d.facets[facet]!.some((v) => values.includes(v)));
        for (const sort of SORTS) {
          for (const shards of [1, 7]) {
            const req: SearchRequest = { query: { kind: 'all' }, filters, facets: FACETS, sort, offset: 0, rows: 10 };
            const what = `round ${round}, ${JSON.stringify(filters)}, ${JSON.stringify(sort)}, ${shards} shards`;
            const want = counted.search(req, FAR(), undefined, shards);
            const got = kept.search(req, FAR(), undefined, shards);
            assert.deepEqual(got, want, what);
            assert.equal(got.total, hits.length, `total, ${what}`);
            for (const f of got.facets) {
              for (const { value, count } of f.values) {
                const n = hits.filter((d) => d.facets[f.field]!.includes(value)).length;
                assert.equal(count, n, `${f.field} ${value}, ${what}`);
              }
            }
            const deep = { ...req, offset: 37, rows: 5 };
            assert.deepEqual(
              kept.search(deep, FAR(), undefined, shards),
              counted.search(deep, FAR(), undefined, shards),
              `offset, ${what}`,
            );
          }
          // a cursor walk through every hit, with changes between its pages
          if (round === 4) continue;
          let cursor = '*';
          const seen: string[] = [];
          for (let page = 0; page < 400; page++) {
            const req: SearchRequest = { query: { kind: 'all' }, filters, sort, offset: 0, rows: 50, cursor };
            const got = kept.search(req, FAR());
            assert.deepEqual(got, counted.search(req, FAR()), `cursor page ${page}, ${JSON.stringify(filters)}, ${JSON.stringify(sort)}`);
            if (got.ids.length === 0) break;
            seen.push(...got.ids);
            cursor = got.nextCursor!;
          }
          assert.equal(new Set(seen).size, hits.length, `the walk finds every hit once, ${JSON.stringify(filters)}`);
        }
      }
      // replace (values change), delete and add; values new to `place` from round 1 on
      places += 40;
      const ids = [...docs.keys()];
      for (let k = 0; k < 400; k++) {
        const x = r();
        if (x < 0.3) {
          const id = ids[Math.floor(r() * ids.length)]!;
          assert.equal(kept.delete(id), docs.has(id));
          counted.delete(id);
          docs.delete(id);
        } else put(doc(r, x < 0.6 ? ids[Math.floor(r() * ids.length)]! : `d${next++}`, places, multi));
      }
    }
    assert.ok(kept.filterCounts.size > 0, 'counts were kept');
    assert.equal(counted.filterCounts.size, 0, 'none kept with entries: 0');
  });
});
