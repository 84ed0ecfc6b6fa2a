/**
 * Phrases (src/search/engine/phrase.ts, docs/search-engine.md "Phrases") against the
 * brute-force reference (engineReference.ts) on documents made of a few inflected words, so
 * that most words of a query stand for several terms and analysed forms at once, often at
 * the same positions: the exact phrase and the phrase of the words' forms matched in one
 * pass, positions of several sources united, exact and sloppy, in all fields and in one;
 * while documents are added, replaced and deleted between the searches, with the decoded
 * positions all kept, kept in a few bytes (evicted between the words of one phrase) and
 * kept by the default rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '../../src/search/engine/fold.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { SearchDocument, SearchRequest } from '../../src/search/engine/types.js';
import { Reference } from './engineReference.js';

const FAR = () => Date.now() + 60_000;

const schema: Schema = {
  kind: 'thing',
  idField: 'id',
  text: [
    { name: 'title', weight: 5 },
    { name: 'body', weight: 2 },
    { name: 'tags', weight: 1 },
  ],
  facets: ['lang'],
  numbers: [],
  sortKeys: [{ name: 'title', type: 'string', queryable: true }],
  relevanceTiebreak: [],
  constants: {},
  analysis: { fields: ['title', 'body'], languageFacet: 'lang' },
};

/** Words whose forms meet (English, French and German stems, elisions, possessives). */
const VOCABULARY = [
  'worker',
  'workers',
  'working',
  'work',
  'world',
  'worlds',
  'Welt',
  'Welten',
  'homme',
  'hommes',
  "l'homme",
  'goethe',
  "Goethe's",
  'goethes',
  'arbeiter',
  'Arbeitern',
  'Bewegung',
  'Bewegungen',
  'alpha',
];
const LANGS = ['eng', 'fre', 'ger'];

class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)]!;
  }
  words(min: number, max: number): string {
    return Array.from({ length: min + this.int(max - min + 1) }, () => this.pick(VOCABULARY)).join(' ');
  }
}

function randomDoc(r: Rng, id: string): SearchDocument {
  const title = r.words(1, 4);
  return {
    id,
    text: {
      title: [title],
      body: Array.from({ length: r.int(3) }, () => r.words(2, 8)),
      tags: Array.from({ length: r.int(2) }, () => r.pick(VOCABULARY)),
    },
    facets: { lang: r.next() < 0.2 ? [] : [r.pick(LANGS)] },
    numbers: {},
    sort: { title: fold(title) },
  };
}

describe('phrases against a brute-force reference', () => {
  const caches = [{ minDocs: 0 }, { minDocs: 0, bytes: 600 }, undefined];
  caches.forEach((positionsCache, c) => {
    it(`exact and sloppy phrases of inflected words while documents change (positions cache ${JSON.stringify(positionsCache ?? 'default')})`, () => {
      const r = new Rng(11 + c);
      const ix = new SearchIndex(schema, { positionsCache });
      const ref = new Reference(schema);
      let next = 0;
      for (let i = 0; i < 300; i++) {
        const doc = randomDoc(r, `d${next++}`);
        ix.upsert(doc);
        ref.upsert(doc);
      }
      let matched = 0;
      for (let round = 0; round < 5; round++) {
        for (let q = 0; q < 40; q++) {
          const slop = r.next() < 0.5 ? 0 : 1 + r.int(3);
          const req: SearchRequest = {
            query: { kind: 'phrase', field: r.pick([null, null, 'title', 'body']), text: r.words(2, 3), ...(slop > 0 ? { slop } : {}) },
            sort: { kind: 'relevance' },
            offset: 0,
            rows: 1 + r.int(15),
          };
          const what = `round ${round} query ${q}: ${JSON.stringify(req.query)}`;
          const want = ref.search(req);
          const got = ix.search(req, FAR());
          assert.equal(got.total, want.hits.length, `total, ${what}`);
          const page = want.hits.slice(0, req.rows);
          assert.deepEqual(
            got.ids,
            page.map((h) => h.id),
            `page, ${what}`,
          );
          assert.deepEqual(
            got.scores,
            page.map((h) => h.score),
            `scores, ${what}`,
          );
          if (got.total > 0) matched++;
        }
        // appended to the kept lists, replaced and deleted documents: liveness and dfs move
        const ids = [...ref.docs.keys()];
        for (let k = 0; k < 40; k++) {
          const op = r.int(3);
          if (op === 0) {
            const id = r.pick(ids);
            ix.delete(id);
            ref.delete(id);
          } else {
            const doc = randomDoc(r, op === 1 ? r.pick(ids) : `d${next++}`);
            ix.upsert(doc);
            ref.upsert(doc);
          }
        }
      }
      assert.ok(matched > 100, `most phrases find documents (${matched} of 200)`);
    });
  });

  it('keeps decoded positions in little more room than they take', () => {
    const ix = new SearchIndex(schema, { positionsCache: { minDocs: 0 } });
    const r = new Rng(5);
    for (let i = 0; i < 5000; i++) ix.upsert(randomDoc(r, `d${i}`));
    const phrase = (text: string) =>
      ix.search({ query: { kind: 'phrase', field: null, text }, sort: { kind: 'relevance' }, offset: 0, rows: 10 }, FAR());
    phrase('alpha alpha');
    const kept = () => ({ size: ix.positionsCache.size, used: ix.positionsCache.used });
    const first = kept();
    assert.ok(first.used > 10_000, `alpha kept (${first.used} bytes)`);
    // an eighth more than used, and 16 entries per array (doubled arrays would hold up to twice as much)
    assert.ok(first.size <= first.used * 1.125 + 5 * 16 * 4 + 8, `${first.size} bytes for ${first.used} used`);
    // appended to: grown and trimmed again, and still the reference's answer (above)
    for (let i = 5000; i < 7000; i++) ix.upsert(randomDoc(r, `d${i}`));
    assert.ok(phrase('alpha alpha').total > 0);
    const grown = kept();
    assert.ok(grown.used > first.used * 1.3, `${first.used} → ${grown.used} bytes used after 40 % more documents`);
    assert.ok(grown.size <= grown.used * 1.125 + 5 * 16 * 4 + 8, `${grown.size} bytes for ${grown.used} used`);
  });
});
