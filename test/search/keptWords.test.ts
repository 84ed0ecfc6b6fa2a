/**
 * A relevance search for one common word, alone or under one facet filter, with its total,
 * facet counts and exact-title hits kept up to date (src/search/engine/keptWords.ts) and its
 * page found in the windows its bounds visit (topScores.ts): an index that keeps them answers
 * every search as one that keeps none and counts every time, through rounds of additions,
 * replacements, deletes, values new to a facet and a facet turning multi-valued; whole, in 7
 * parts within a thread and scattered over 3 shards (searchPart, merged), with offsets,
 * count-only searches and a cursor's first two pages; with few entries kept, so that
 * words are dropped and counted again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprintOf } from '../../src/search/engine/search.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { mergeParts } from '../../src/search/engine/shards.js';
import { topQuery } from '../../src/search/engine/topScores.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { SearchDocument, SearchRequest } from '../../src/search/engine/types.js';
import { rng } from '../helpers/random.js';

const FAR = () => Date.now() + 60_000;

const SCHEMA: Schema = {
  kind: 'thing',
  idField: 'id',
  text: [
    { name: 'title', weight: 5 },
    { name: 'body', weight: 1 },
  ],
  facets: ['kind', 'tag', 'place', 'lang'],
  numbers: [],
  sortKeys: [{ name: 'title', type: 'string', queryable: true }],
  relevanceTiebreak: [{ key: 'title', descending: false }],
  analysis: { fields: ['title', 'body'], languageFacet: 'lang' },
};
/**
 * Without analysis: a word is one list, whose ties on score a kept word decides per window
 * by the tiebreak (windowMaxima.ts WindowTies), with titles of few words, so ties are many.
 */
const plain: Schema = { ...SCHEMA, analysis: undefined };

/** Words by frequency: the first in most titles; plurals and singulars meet in their analysed forms. */
const WORDS = ['house', 'houses', 'worker', 'workers', 'garden', 'river', 'rivers', 'night', 'bridge', 'bridges'];

function word(r: () => number): string {
  // about Zipf: the first word in a third of the draws
  return WORDS[Math.min(WORDS.length - 1, Math.floor(-Math.log(1 - r()) * 2.2))]!;
}

function doc(r: () => number, id: string, places: number, multi: boolean): SearchDocument {
  const x = r();
  const kind = x < 0.6 ? 'a' : x < 0.95 ? 'b' : 'c';
  const tags = ['t1', 't2', 't3'].filter(() => r() < 0.4);
  // a title of one word now and then: the exact-title tier of that word
  const title = r() < 0.1 ? word(r) : Array.from({ length: 1 + Math.floor(r() * 4) }, () => word(r)).join(' ');
  const body = Array.from({ length: Math.floor(r() * 3) }, () => (r() < 0.5 ? word(r) : `z${Math.floor(r() * 500)}`)).join(' ');
  return {
    id,
    text: { title: [title], body: body === '' ? [] : [body] },
    facets: {
      kind: [kind],
      tag: multi ? tags : tags.slice(0, 1),
      place: r() < 0.9 ? [`p${Math.floor(r() * places)}`] : [],
      lang: [r() < 0.7 ? 'eng' : 'ger'],
    },
    numbers: {},
    sort: { title },
  };
}

const QUERIES: SearchRequest['query'][] = [
  { kind: 'term', field: null, text: 'house' },
  { kind: 'term', field: null, text: 'houses' },
  { kind: 'term', field: null, text: 'worker' },
  { kind: 'term', field: 'title', text: 'house' },
  { kind: 'term', field: 'body', text: 'garden' },
];
const FILTERS: Array<Record<string, string[]>> = [{}, { kind: ['a'] }, { tag: ['t1', 't2'] }, { place: ['p1', 'p7', 'nobody'] }];
const FACETS = [
  { field: 'kind', limit: -1, mincount: 0, sort: 'count' as const },
  { field: 'tag', limit: -1, mincount: 1, sort: 'index' as const },
  { field: 'place', limit: 5, mincount: 1, sort: 'count' as const },
];

describe('kept answers of a common word', () => {
  for (const [name, schema] of [
    ['analysed', SCHEMA],
    ['one list a word', plain],
  ] as const)
    it(`answer as counting every time, through changes (${name})`, () => {
      const r = rng(11);
      // every word and filter of the test kept, and few kept (dropped and counted again)
      const kept = new SearchIndex(schema, { keptWords: { minDocs: 50, entries: 32 } });
      const few = new SearchIndex(schema, { keptWords: { minDocs: 50, entries: 3 } });
      // a postings cache that keeps nothing: the kept words' own lists serve their pages
      const uncached = new SearchIndex(schema, { keptWords: { minDocs: 50, entries: 32 }, postingsCache: { bytes: 1 } });
      const counted = new SearchIndex(schema, { keptWords: { entries: 0 } });
      const docs = new Map<string, SearchDocument>();
      let next = 0;
      let places = 20;
      let multi = false;
      const put = (d: SearchDocument) => {
        for (const ix of [kept, few, uncached, counted]) ix.upsert(d);
        docs.set(d.id, d);
      };
      /** Replaces (values change), deletes and adds; values new to `place` as `places` grows. */
      const change = (n: number) => {
        const ids = [...docs.keys()];
        for (let k = 0; k < n; k++) {
          const x = r();
          if (x < 0.3) {
            const id = ids[Math.floor(r() * ids.length)]!;
            assert.equal(kept.delete(id), docs.has(id));
            few.delete(id);
            uncached.delete(id);
            counted.delete(id);
            docs.delete(id);
          } else put(doc(r, x < 0.6 ? ids[Math.floor(r() * ids.length)]! : `d${next++}`, places, multi));
        }
      };
      const scattered = (ix: SearchIndex, req: SearchRequest) =>
        mergeParts(
          req,
          [0, 1, 2].map((i) => structuredClone(ix.searchPart(req, FAR(), i, 3))),
          fingerprintOf(req),
        );
      for (let i = 0; i < 2500; i++) put(doc(r, `d${next++}`, places, multi));
      for (let round = 0; round < 4; round++) {
        if (round === 2) multi = true; // tags turn multi-valued (facetColumn.ts)
        for (const query of QUERIES) {
          for (const filters of FILTERS) {
            const what = `round ${round}, ${JSON.stringify(query)}, ${JSON.stringify(filters)}`;
            const req: SearchRequest = { query, filters, facets: FACETS, sort: { kind: 'relevance' }, offset: 0, rows: 10 };
            const want = counted.search(req, FAR());
            assert.ok(want.total > 0, `the word has hits, ${what}`);
            // twice: the second from what the first kept
            assert.deepEqual(kept.search(req, FAR()), want, what);
            assert.deepEqual(kept.search(req, FAR()), want, `again, ${what}`);
            assert.deepEqual(few.search(req, FAR()), want, `few kept, ${what}`);
            assert.deepEqual(uncached.search(req, FAR()), want, `no postings cached, ${what}`);
            assert.deepEqual(scattered(uncached, req), want, `no postings cached, 3 shards, ${what}`);
            assert.deepEqual(kept.search(req, FAR(), undefined, 7), counted.search(req, FAR(), undefined, 7), `7 parts, ${what}`);
            assert.deepEqual(scattered(kept, req), scattered(counted, req), `3 shards, ${what}`);
            assert.deepEqual(scattered(kept, req), want, `3 shards as whole, ${what}`);
            const deep = { ...req, offset: 37, rows: 5 };
            assert.deepEqual(kept.search(deep, FAR()), counted.search(deep, FAR()), `offset, ${what}`);
            const count = { ...req, rows: 0 };
            assert.deepEqual(kept.search(count, FAR()), counted.search(count, FAR()), `rows 0, ${what}`);
            // a cursor's first page, then the next one from its mark (not bounded: every hit ordered)
            const first = kept.search({ ...req, cursor: '*' }, FAR());
            assert.deepEqual(first, counted.search({ ...req, cursor: '*' }, FAR()), `cursor, ${what}`);
            const after = { ...req, cursor: first.nextCursor! };
            assert.deepEqual(kept.search(after, FAR()), counted.search(after, FAR()), `next page, ${what}`);
            // changes between searches: the kept answers of every word are moved by them
            change(25);
          }
        }
        places += 40;
      }
      assert.equal(kept.keptWords.count, QUERIES.length * FILTERS.length, 'every word and filter was kept');
      assert.ok(few.keptWords.count <= 3, 'no more words than allowed');
      assert.equal(uncached.keptWords.count, QUERIES.length * FILTERS.length, 'kept without the postings cache');
      assert.equal(counted.keptWords.count, 0, 'none kept with entries: 0');
      const leaves = topQuery(kept, QUERIES[0]!)!.words[0]!.length;
      assert.equal(leaves, schema === plain ? 1 : 2, 'a word is its term, and its analysed form with analysis');
    });

  it('keeps no word rarer than minDocs, and none whose lists do not fit', () => {
    const r = rng(5);
    const rare = new SearchIndex(SCHEMA, { keptWords: { minDocs: 1_000_000 } });
    const small = new SearchIndex(SCHEMA, { keptWords: { minDocs: 1, bytes: 1024 } });
    for (let i = 0; i < 500; i++) {
      const d = doc(r, `d${i}`, 10, false);
      rare.upsert(d);
      small.upsert(d);
    }
    const req: SearchRequest = { query: { kind: 'term', field: null, text: 'house' }, sort: { kind: 'relevance' }, offset: 0, rows: 10 };
    assert.deepEqual(rare.search(req, FAR()), small.search(req, FAR()));
    assert.equal(rare.keptWords.count, 0);
    assert.equal(small.keptWords.count, 0);
  });
});
