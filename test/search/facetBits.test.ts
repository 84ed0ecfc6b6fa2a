/**
 * Bitsets of long facet values (src/search/engine/facetBits.ts) at a size that crosses the
 * default thresholds (a value with 4,096 live documents and one ordinal in 64; a filter of
 * 4,096 hits): an index with the defaults answers every search exactly as one that never
 * makes a bitset (the list path), before and after replacements, deletes and additions
 * past the sets' first length. The brute-force reference test (engine.test.ts) covers the
 * same paths at small sizes with the thresholds at 0.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryNode } from '../../src/query/ast.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { SearchDocument, SearchRequest, SearchSort } from '../../src/search/engine/types.js';
import { rng } from '../helpers/random.js';

const FAR = () => Date.now() + 60_000;

const schema: Schema = {
  kind: 'thing',
  idField: 'id',
  text: [
    { name: 'title', weight: 5 },
    { name: 'body', weight: 2 },
  ],
  facets: ['kind', 'tag'],
  numbers: [],
  sortKeys: [{ name: 'title', type: 'string', queryable: true }],
  relevanceTiebreak: [{ key: 'title', descending: false }],
};

/** w0 in most documents, w1 in about half, … w9 in few; kinds a (60 %), b (39 %), c (1 %); tags multi-valued. */
function doc(r: () => number, id: string): SearchDocument {
  const words = (n: number) => Array.from({ length: n }, () => `w${Math.min(9, Math.floor(-Math.log2(1 - r() * 0.999)))}`).join(' ');
  const title = words(1 + Math.floor(r() * 3));
  const x = r();
  const kind = x < 0.6 ? 'a' : x < 0.99 ? 'b' : 'c';
  const tags = ['t1', 't2', 't3'].filter(() => r() < 0.5);
  return {
    id,
    text: { title: [title], body: r() < 0.7 ? [words(3 + Math.floor(r() * 5))] : [] },
    facets: { kind: [kind], tag: tags },
    numbers: {},
    sort: { title },
  };
}

const term = (text: string, field: string | null = null): QueryNode<string> => ({ kind: 'term', field, text });

const QUERIES: Array<{ query: QueryNode<string>; filters?: Record<string, string[]> }> = [
  { query: term('w0'), filters: { kind: ['a'] } },
  { query: term('w0'), filters: { kind: ['a', 'b'] } },
  { query: term('w1'), filters: { kind: ['a', 'c'] } }, // c has no set: filtered after
  { query: term('w0'), filters: { kind: ['a'], tag: ['t1', 't2'] } },
  { query: term('w9'), filters: { tag: ['t3'] } },
  { query: { kind: 'phrase', field: null, text: 'w0 w1' }, filters: { kind: ['b'] } },
  { query: { kind: 'or', children: [term('w2'), term('w3', 'title')] }, filters: { kind: ['a'] } },
  { query: { kind: 'and', children: [term('w0'), { kind: 'not', child: term('w1') }] }, filters: { tag: ['t1'] } },
  { query: { kind: 'not', child: term('w0') }, filters: { kind: ['a'] } },
  { query: { kind: 'all' }, filters: { kind: ['a'] } },
  { query: { kind: 'prefix', field: null, text: 'w' }, filters: { kind: ['b'] } },
  // Solr's fq as an AND's facet clause, alone and beside a request filter
  { query: { kind: 'and', children: [term('w0'), term('a', 'kind')] } },
  { query: { kind: 'and', children: [term('w1'), term('t2', 'tag'), term('b', 'kind')] }, filters: { tag: ['t1'] } },
  {
    query: {
      kind: 'and',
      children: [{ kind: 'or', children: [term('w0'), term('w4')] }, term('a', 'kind'), { kind: 'not', child: term('w2') }],
    },
  },
  { query: term('w0'), filters: { kind: ['nobody'] } },
];

const SORTS: SearchSort[] = [{ kind: 'relevance' }, { kind: 'key', key: 'title', descending: true }, { kind: 'id', descending: false }];

function same(bits: SearchIndex, lists: SearchIndex, label: string): void {
  const facets = [
    { field: 'kind', limit: -1, mincount: 0, sort: 'count' as const },
    { field: 'tag', limit: 2, mincount: 1, sort: 'index' as const },
  ];
  for (const q of QUERIES) {
    for (const sort of SORTS) {
      const req: SearchRequest = { query: q.query, filters: q.filters, facets, sort, offset: 37, rows: 25 };
      const what = `${label}: ${JSON.stringify(req)}`;
      const a = bits.search(req, FAR());
      const b = lists.search(req, FAR());
      assert.equal(a.total, b.total, `total, ${what}`);
      assert.deepEqual(a.ids, b.ids, `page, ${what}`);
      assert.deepEqual(a.scores, b.scores, `scores, ${what}`);
      assert.deepEqual(a.facets, b.facets, `facets, ${what}`);
      assert.deepEqual(a.matchedTerms, b.matchedTerms, `matched terms, ${what}`);
      // a cursor page deep in the hits, and the cursor after it
      const deep = { ...req, offset: 0, facets: [], cursor: '*', rows: Math.max(1, Math.floor(a.total / 3)) };
      const ca = bits.search(deep, FAR());
      const cb = lists.search(deep, FAR());
      assert.deepEqual(ca.ids, cb.ids, `cursor page, ${what}`);
      assert.equal(ca.nextCursor, cb.nextCursor, `next cursor, ${what}`);
      const next = { ...deep, cursor: ca.nextCursor!, rows: 50 };
      assert.deepEqual(bits.search(next, FAR()).ids, lists.search(next, FAR()).ids, `page after the cursor, ${what}`);
    }
  }
}

describe('facet value bitsets', () => {
  it('answer as the list path at 24,000 documents, before and after changes', () => {
    const bits = new SearchIndex(schema);
    const lists = new SearchIndex(schema, { facetBits: { minPostings: Infinity } });
    const r = rng(14);
    let next = 0;
    const add = (id: string) => {
      const d = doc(r, id);
      bits.upsert(d);
      lists.upsert(d);
    };
    for (let i = 0; i < 24_000; i++) add(`d${next++}`);
    same(bits, lists, 'loaded');
    assert.ok(bits.facetBits.size > 0, 'the long values were given bitsets');
    assert.equal(lists.facetBits.size, 0, 'the reference index made none');
    // replace and delete some, then add more than the sets' first length holds (they grow)
    for (let i = 0; i < 3000; i++) {
      const id = `d${Math.floor(r() * next)}`;
      if (r() < 0.5) {
        bits.delete(id);
        lists.delete(id);
      } else add(id);
    }
    for (let i = 0; i < 8000; i++) add(`d${next++}`);
    same(bits, lists, 'after changes');
  });
});
