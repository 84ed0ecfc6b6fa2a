/**
 * Relevance pages of a word, an OR and an AND of words without scoring every hit
 * (src/search/engine/topScores.ts): every answer (total, page, scores to the last bit,
 * facets, matched terms, the first cursor) equals the one of the same query scored whole,
 * which `*:* AND (query)` is (the same hits and scores; its shape is not bounded), on the
 * item schema with its language analysis (German and English words whose forms meet), with
 * exact-title hits, ties, filters, deep offsets, 1 and 7 shards in one thread and 2 and 7
 * scattered as over threads (each shard bounding its own range of ordinals), and through replacements
 * and deletes (idf and bounds move, lists grow past their kept window maxima); and the same
 * pages when the total is not asked and the hits of an OR are not made.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryNode } from '../../src/query/ast.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { fingerprintOf } from '../../src/search/engine/search.js';
import { topQuery } from '../../src/search/engine/topScores.js';
import { windowsOf } from '../../src/search/engine/windowMaxima.js';
import { mergeParts } from '../../src/search/engine/shards.js';
import type { SearchDocument, SearchRequest, SearchResult } from '../../src/search/engine/types.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { rng } from '../helpers/random.js';

const FAR = () => Date.now() + 60_000;

/** A search scattered as the pool scatters it (src/search/searchPool.ts): each part cloned as it crosses threads, then merged. */
function scattered(ix: SearchIndex, req: SearchRequest, n: number): SearchResult {
  const parts = Array.from({ length: n }, (_, i) => structuredClone(ix.searchPart(req, FAR(), i, n)));
  return mergeParts(req, parts, fingerprintOf(req));
}

const WORDS = [
  'haus',
  'häuser',
  'hauses',
  'arbeiter',
  'arbeitern',
  'arbeit',
  'working',
  'works',
  'worker',
  'workers',
  'stadt',
  'städte',
  'berlin',
  'goethe',
  'briefe',
  'brief',
  'bild',
  'bilder',
  'kirche',
  'kirchen',
  'foto',
  'fotos',
  'museum',
  'karte',
  'karten',
  'house',
  'houses',
  'letter',
  'letters',
  'church',
];

function doc(r: () => number, id: string): SearchDocument {
  // Zipf-like: the first words far more often
  const word = () => WORDS[Math.min(WORDS.length - 1, Math.floor(Math.exp(r() * Math.log(WORDS.length + 1))) - 1)]!;
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const title = r() < 0.05 ? word() : words(1 + Math.floor(r() * 4)); // some titles are one word: the exact tier
  const lang = r() < 0.5 ? 'ger' : r() < 0.5 ? 'eng' : 'fre';
  return {
    id: `I${id}`,
    text: {
      title: [title],
      subtitle: r() < 0.3 ? [words(2)] : [],
      description: r() < 0.6 ? [words(5 + Math.floor(r() * 20))] : [],
      // rare words: a few postings against the index's windows, bounded from their postings
      keywords: r() < 0.5 ? [word()] : r() < 0.3 ? [`rare${Math.floor(r() * 40)}`] : [],
    },
    facets: {
      language_fct: [lang],
      type_fct: [`mediatype_00${Math.floor(r() * 4)}`],
      place_fct: r() < 0.5 ? [`Ort ${Math.floor(r() * 30)}`] : [],
    },
    numbers: {},
    sort: { title },
  };
}

const term = (text: string, field: string | null = null): QueryNode<string> => ({ kind: 'term', field, text });

const QUERIES: QueryNode<string>[] = [
  term('haus'),
  term('Häuser'),
  term('arbeiter'),
  term('workers'),
  term('church'),
  term('stadt', 'title'),
  term('briefe', 'description'),
  term('nowhere'),
  term('rare7'),
  { kind: 'or', children: [term('rare3'), term('rare11'), term('rare19', 'keywords')] },
  { kind: 'or', children: [term('haus'), term('kirche')] },
  { kind: 'or', children: [term('goethe'), term('letters'), term('museum', 'title')] },
  { kind: 'and', children: [term('haus'), term('stadt')] },
  { kind: 'and', children: [term('arbeiter'), term('foto'), term('bild')] },
  // more like this: the item's terms, the item left out (src/search/moreLikeThis.ts)
  {
    kind: 'and',
    children: [
      { kind: 'or', children: [term('haus'), term('stadt', 'title'), term('goethe')] },
      { kind: 'not', child: term('kirche') },
    ],
  },
  { kind: 'and', children: [term('haus'), { kind: 'not', child: term('stadt') }, { kind: 'not', child: term('foto') }] },
];

describe('relevance top-k by bounds', () => {
  it('answers as scoring every hit', () => {
    const r = rng(11);
    const ix = new SearchIndex(itemSchema, { postingsCache: { minPostings: 500 } });
    let next = 0;
    for (let i = 0; i < 6000; i++) ix.upsert(doc(r, String(next++)));
    for (let round = 0; round < 3; round++) {
      for (const query of QUERIES) {
        for (const filters of [undefined, { type_fct: ['mediatype_001', 'mediatype_002'] }]) {
          for (const [offset, rows] of [
            [0, 20],
            [0, 1],
            [37, 10],
            [0, 400],
          ] as const) {
            for (const shards of [1, 7]) {
              const req: SearchRequest = {
                query,
                filters,
                facets: [{ field: 'place_fct', limit: 5, mincount: 1, sort: 'count' }],
                sort: { kind: 'relevance' },
                offset,
                rows,
              };
              const what = `round ${round}, ${JSON.stringify(req)}, ${shards} shards`;
              const got = ix.search(req, FAR(), undefined, shards);
              const whole = ix.search({ ...req, query: { kind: 'and', children: [{ kind: 'all' }, query] } }, FAR(), undefined, shards);
              assert.deepEqual(got, whole, what);
              // scattered over threads, each shard bounding and scoring only its range of ordinals
              if (shards === 7)
                for (const n of [2, 7]) assert.equal(JSON.stringify(scattered(ix, req, n)), JSON.stringify(got), `${n} parts, ${what}`);
              if (offset === 0 && rows === 20) {
                // the first page of a cursor walk
                const c = ix.search({ ...req, cursor: '*' }, FAR(), undefined, shards);
                assert.deepEqual(c.ids, got.ids, `cursor *, ${what}`);
                assert.deepEqual(c.scores, got.scores, `cursor * scores, ${what}`);
                if (shards === 7)
                  assert.equal(JSON.stringify(scattered(ix, { ...req, cursor: '*' }, 7)), JSON.stringify(c), `7 parts, cursor *, ${what}`);
                const rest = ix.search({ ...req, cursor: c.nextCursor }, FAR(), undefined, shards);
                const all = ix.search({ ...req, rows: 40 }, FAR(), undefined, shards);
                assert.deepEqual([...c.ids, ...rest.ids], all.ids.slice(0, c.ids.length + rest.ids.length), `next page, ${what}`);
              }
            }
          }
        }
      }
      // replace, delete and add: frequencies, idf and the lists' window maxima move
      for (let k = 0; k < 2500; k++) {
        const x = r();
        const id = String(Math.floor(r() * next));
        if (x < 0.3) ix.delete(`I${id}`);
        else ix.upsert(doc(r, x < 0.6 ? id : String(next++)));
      }
    }
  });

  it('finds the same page without making the hits of an OR whose total is not asked', () => {
    // SearchRequest.count false (src/search/engine/uncounted.ts): each window's hits read
    // from the words' lists, the exact-title tier from the shortest list, NOT clauses kept out
    const r = rng(12);
    const ix = new SearchIndex(itemSchema, { postingsCache: { minPostings: 500 } });
    let next = 0;
    for (let i = 0; i < 6000; i++) ix.upsert(doc(r, String(next++)));
    const queries: QueryNode<string>[] = [
      ...QUERIES,
      // the title of many documents: its exact-title tier comes first whatever the score
      { kind: 'or', children: [term('haus'), term('stadt')] },
      {
        kind: 'and',
        children: [
          { kind: 'or', children: [term('haus'), term('arbeiter', 'title')] },
          { kind: 'not', child: term('I17', 'id') },
        ],
      },
      { kind: 'or', children: [term('kirche', 'description'), term('rare5'), term('häuser')] },
    ];
    let fewer = 0;
    for (let round = 0; round < 3; round++) {
      for (const query of queries) {
        for (const [offset, rows] of [
          [0, 6],
          [0, 1],
          [37, 10],
          [0, 400],
        ] as const) {
          // a filter of no values is the counted search's to read: the same answer
          for (const filters of [undefined, { type_fct: [] }])
            for (const shards of [1, 7]) {
              const req: SearchRequest = { query, filters, sort: { kind: 'relevance' }, offset, rows };
              const what = `round ${round}, ${JSON.stringify(req)}, ${shards} shards`;
              const counted = ix.search(req, FAR(), undefined, shards);
              const got = ix.search({ ...req, count: false }, FAR(), undefined, shards);
              assert.deepEqual(got.ids, counted.ids, what);
              assert.deepEqual(got.scores, counted.scores, what);
              assert.ok(
                got.matchedTerms.every((t) => counted.matchedTerms.includes(t)),
                what,
              );
              assert.ok(got.total >= got.ids.length && got.total <= counted.total, `total ${got.total} of ${counted.total}, ${what}`);
              if (got.total < counted.total) fewer++;
              for (const n of [2, 7]) {
                const parts = scattered(ix, { ...req, count: false }, n);
                assert.deepEqual(parts.ids, counted.ids, `${n} parts, ${what}`);
                assert.deepEqual(parts.scores, counted.scores, `${n} parts, ${what}`);
              }
            }
        }
      }
      for (let k = 0; k < 2500; k++) {
        const x = r();
        const id = String(Math.floor(r() * next));
        if (x < 0.3) ix.delete(`I${id}`);
        else ix.upsert(doc(r, x < 0.6 ? id : String(next++)));
      }
    }
    // the hits were left unmade (else every total would be the whole count)
    assert.ok(fewer > 50, `${fewer} answers counted fewer than all hits`);
  });

  it('bounds the words of X AND NOT Y as those of X, and not X AND Y AND NOT Z of a phrase or *:*', () => {
    const ix = new SearchIndex(itemSchema);
    for (let i = 0; i < 50; i++) ix.upsert(doc(rng(i), String(i)));
    const not: QueryNode<string> = { kind: 'not', child: term('kirche') };
    const or: QueryNode<string> = { kind: 'or', children: [term('haus'), term('stadt', 'title')] };
    assert.deepEqual(topQuery(ix, { kind: 'and', children: [or, not] }), topQuery(ix, or));
    assert.notEqual(topQuery(ix, { kind: 'and', children: [or, not] }), undefined);
    assert.equal(topQuery(ix, { kind: 'and', children: [{ kind: 'all' }, or, not] }), undefined);
    assert.equal(topQuery(ix, { kind: 'and', children: [{ kind: 'phrase', field: null, text: 'haus stadt' }, not] }), undefined);
  });

  it('bounds no windows of an empty index', () => {
    // 64 ordinals a window; none for none (an unsigned -1 made it 2^26 windows: 512 MB and
    // seconds for each relevance search of an empty index, such as the persons of a store of items only).
    assert.deepEqual([0, 1, 63, 64, 65, 128, 129].map(windowsOf), [0, 1, 1, 1, 2, 2, 3]);
    const ix = new SearchIndex(itemSchema);
    for (const query of QUERIES) {
      const req: SearchRequest = { query, sort: { kind: 'relevance' }, offset: 0, rows: 10 };
      const r = ix.search(req, FAR());
      assert.equal(r.total, 0, JSON.stringify(query));
      assert.deepEqual(r.ids, []);
    }
  });
});
