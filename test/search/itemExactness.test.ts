/**
 * The item search is exact at scale (docs/search-engine.md "Exactness"), as test/entities/exactness.test.ts
 * is for persons: 100,000 items of the benchmark's generator (itemExactnessData.ts: made
 * in-process, fixed seed) are loaded into a real SQLite store, and the engine's index is
 * built from the store's change feed by the IndexHost, as the service builds it. The same
 * items' search documents go into the plain SQL model of itemReference.ts, which shares no
 * code with the engine. Each case compares the total, every facet list asked for (values,
 * counts, order by count then value, limit, mincount, index order), and pages under every
 * order: id and title (a key sort) both ways, begin_time both ways (many ties, some items
 * without), relevance (exact-title tier, score, title, id); random with a seed is checked
 * as a permutation of the hits. Cursor walks go through every hit under every order and
 * must give each exactly once, in the reference's order; a last walk runs while items are
 * added and blocked between its pages: no repeats, no skips of items present throughout.
 *
 * Words and values are picked by counting in the reference, so a change of the generator
 * moves the words, not the meaning of the cases.
 *
 * Runtime: about 3 minutes on the shared 2-core machine, most of it making the packages
 * (generating, parsing the XML as a load does) and writing them to the store.
 */
import { mergeParts } from '../../src/search/engine/shards.js';
import { fingerprintOf } from '../../src/search/engine/search.js';
import type { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from '../../src/query/parse.js';
import { itemDocumentsFromJson } from '../../src/search/schemas/itemDocument.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import type { FacetRequest, SearchRequest, SearchResult, SearchSort } from '../../src/search/engine/types.js';
import { IndexHost } from '../../src/search/indexHost.js';
import type { PreparedItem } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { generatedItems, loadGeneratedItems } from './itemExactnessData.js';
import { ItemReference, type RefSort } from './itemReference.js';

/** 100,000; a smaller number in ITEM_EXACTNESS_ITEMS runs the same cases faster while working on them. */
const ITEMS = Number(process.env['ITEM_EXACTNESS_ITEMS'] ?? 100_000);
/** Items made beyond ITEMS, added while a cursor walks. */
const EXTRA = 2_000;
const SEED = 14;
const BATCH = 500;
const PAGE = 1_000;
const FAR = () => Date.now() + 600_000;

// ---------------------------------------------------------------------------
// Data: the same items into the store (then the engine, through the host) and the reference.

const started = Date.now();
const gen = generatedItems(ITEMS + EXTRA, SEED);
const opened = await BACKENDS[0]!.open();
const store = opened.store;
const ref = new ItemReference();
const docOf = (item: PreparedItem) => itemDocumentsFromJson(item.json, item.id).search;
// Each batch written after the one before, in the order made.
let writing: Promise<unknown> = Promise.resolve();
await loadGeneratedItems(ITEMS + EXTRA, SEED, ITEMS, BATCH, (batch) => {
  writing = writing.then(() => store.upsertItems(batch));
  ref.add(batch.map(docOf));
});
await writing;
ref.finish();
const host = new IndexHost(store);
while (!(await host.refresh('item', 1_000)));
const index = host.index('item');
process.stderr.write(`# item exactness: ${ITEMS} items loaded and indexed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

after(() => opened.dispose());

// ---------------------------------------------------------------------------
// Both sides of one request.

const FIELDS = queryFields(itemSchema);
const Q = (text: string) => parseQuery(text, { fields: FIELDS });

interface Case {
  name: string;
  query: string;
  filters?: Record<string, string[]>;
  facets?: FacetRequest[];
  /** Hits expected in this range (checks that the word picked is what the case says). */
  hits?: [number, number];
}

const SORTS: Array<{ name: string; engine: SearchSort; ref: RefSort }> = [
  { name: 'id asc', engine: { kind: 'id', descending: false }, ref: { kind: 'id', descending: false } },
  { name: 'id desc', engine: { kind: 'id', descending: true }, ref: { kind: 'id', descending: true } },
  { name: 'title asc', engine: { kind: 'key', key: 'title', descending: false }, ref: { kind: 'key', key: 'title', descending: false } },
  { name: 'title desc', engine: { kind: 'key', key: 'title', descending: true }, ref: { kind: 'key', key: 'title', descending: true } },
  {
    name: 'begin_time asc',
    engine: { kind: 'key', key: 'begin_time', descending: false },
    ref: { kind: 'key', key: 'begin_time', descending: false },
  },
  {
    name: 'begin_time desc',
    engine: { kind: 'key', key: 'begin_time', descending: true },
    ref: { kind: 'key', key: 'begin_time', descending: true },
  },
  { name: 'relevance', engine: { kind: 'relevance' }, ref: { kind: 'relevance' } },
];
const RANDOM: SearchSort = { kind: 'random', seed: '4711' };

function request(c: Case, sort: SearchSort, page: { offset?: number; rows: number; cursor?: string }, facets = false): SearchRequest {
  return {
    query: Q(c.query),
    ...(c.filters ? { filters: c.filters } : {}),
    ...(facets && c.facets ? { facets: c.facets } : {}),
    sort,
    offset: page.offset ?? 0,
    rows: page.rows,
    ...(page.cursor !== undefined ? { cursor: page.cursor } : {}),
  };
}

/** Shard counts every search runs at (docs/search-engine.md "Shards"): the same answer, byte for byte. */
const SHARDS = [1, 2, 7];

/**
 * A search scattered as the pool scatters it over its threads (src/search/searchPool.ts):
 * each shard's part made on the index and cloned as it crosses to another thread, then merged.
 */
function scattered(on: SearchIndex, req: SearchRequest, n: number): SearchResult {
  const parts = Array.from({ length: n }, (_, i) => structuredClone(on.searchPart(req, FAR(), i, n)));
  return mergeParts(req, parts, fingerprintOf(req));
}

function engine(req: SearchRequest): SearchResult {
  const [first, ...rest] = SHARDS.map((n) => index.search(req, FAR(), undefined, n));
  const text = JSON.stringify(first);
  rest.forEach((r, i) => assert.equal(JSON.stringify(r), text, `${SHARDS[i + 1]} shards answer as one: ${JSON.stringify(req)}`));
  for (const n of SHARDS)
    assert.equal(
      JSON.stringify(scattered(index, req, n)),
      text,
      `${n} shards scattered over threads answer as one: ${JSON.stringify(req)}`,
    );
  return first!;
}

/** Every page with a cursor until nextCursor stays the same. */
function walk(c: Case, sort: SearchSort, rows = PAGE): string[] {
  const ids: string[] = [];
  let cursor = '*';
  for (let pages = 1; ; pages++) {
    const r = engine(request(c, sort, { rows, cursor }));
    ids.push(...r.ids);
    assert.ok(r.nextCursor !== undefined, 'a cursor search answers nextCursor');
    if (r.nextCursor === cursor) {
      assert.equal(r.ids.length, 0, 'the page that keeps the cursor is empty');
      return ids;
    }
    cursor = r.nextCursor;
    assert.ok(pages <= ITEMS / rows + 2, 'cursor paging ends');
  }
}

function firstDuplicate(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

function firstDifference(got: readonly string[], expected: readonly string[]): string {
  for (let i = 0; i < Math.max(got.length, expected.length); i++) {
    if (got[i] !== expected[i]) return `at ${i}: got ${got[i]}, expected ${expected[i]}`;
  }
  return 'none';
}

function sameList(got: readonly string[], expected: readonly string[], what: string): void {
  assert.equal(got.length, expected.length, `${what}: length`);
  assert.ok(got.join('\n') === expected.join('\n'), `${what}: first difference ${firstDifference(got, expected)}`);
}

function sameSet(got: readonly string[], expected: readonly string[], what: string): void {
  assert.equal(firstDuplicate(got), undefined, `${what}: an id twice`);
  const e = new Set(expected);
  const g = new Set(got);
  const missing = expected.filter((id) => !g.has(id));
  const extra = got.filter((id) => !e.has(id));
  assert.ok(
    missing.length === 0 && extra.length === 0,
    `${what}: ${missing.length} missing (${missing.slice(0, 3).join(' ')}), ${extra.length} extra (${extra.slice(0, 3).join(' ')})`,
  );
}

/**
 * Total and facets; the first page and a deep page under every order; random as a
 * permutation of its first pages; with `walkAll`, every page by cursor under every order.
 */
function check(c: Case, walkAll = false): number {
  const expected = ref.search({
    query: Q(c.query),
    ...(c.filters ? { filters: c.filters } : {}),
    ...(c.facets ? { facets: c.facets } : {}),
  });
  const got = engine(request(c, { kind: 'id', descending: false }, { rows: 0 }, true));
  assert.equal(got.total, expected.total, 'total');
  assert.deepEqual(
    got.facets.map((f) => f.field),
    (c.facets ?? []).map((f) => f.field),
    'the facets asked for',
  );
  for (const f of expected.facets) assert.deepEqual(got.facets.find((g) => g.field === f.field)!.values, f.values, `facet ${f.field}`);
  if (c.hits) assert.ok(got.total >= c.hits[0] && got.total <= c.hits[1], `${got.total} hits, expected ${c.hits[0]}–${c.hits[1]}`);

  const deep = Math.min(2_000, Math.max(0, expected.total - 25));
  for (const s of SORTS) {
    const order = ref.ordered(s.ref, Q(c.query));
    sameList(engine(request(c, s.engine, { rows: 50 })).ids, order.slice(0, 50), `${s.name}: first page`);
    sameList(engine(request(c, s.engine, { offset: deep, rows: 50 })).ids, order.slice(deep, deep + 50), `${s.name}: page at ${deep}`);
    if (walkAll) sameList(walk(c, s.engine), order, `${s.name}: every page by cursor`);
  }
  const hits = ref.ordered({ kind: 'id', descending: false }, Q(c.query));
  const random = engine(request(c, RANDOM, { rows: Math.min(hits.length, 3_000) })).ids;
  const sample = new Set(hits);
  assert.equal(firstDuplicate(random), undefined, 'random: an id twice');
  assert.ok(
    random.every((id) => sample.has(id)),
    'random: only hits',
  );
  assert.equal(random.length, Math.min(hits.length, 3_000), 'random: a full page');
  if (walkAll) {
    const all = walk(c, RANDOM);
    sameSet(all, hits, 'random: every page by cursor');
    sameList(
      engine(request(c, RANDOM, { offset: 1_000, rows: 1_000 })).ids,
      all.slice(1_000, 2_000),
      'random: offset and cursor pages agree',
    );
  }
  return got.total;
}

// ---------------------------------------------------------------------------
// Words and values, picked by counting in the reference.

const isWord = (w: string) => /^\p{L}{4,}$/u.test(w);
const words = ref.wordFrequencies().filter((f) => isWord(f.word));
const nearest = <T extends { items: number }>(list: readonly T[], target: number): T =>
  [...list].sort((a, b) => Math.abs(a.items - target) - Math.abs(b.items - target))[0]!;
const veryCommon = words[0]!;
const common = nearest(words, 5_000);
const medium = nearest(words, 1_500);
const rare = nearest(words, 40);
const titleWord = nearest(
  ref.wordFrequencies('title').filter((f) => isWord(f.word)),
  3_000,
);
const descriptionWord = nearest(
  ref.wordFrequencies('description').filter((f) => isWord(f.word)),
  2_000,
);
const keywordWord = nearest(
  ref.wordFrequencies('keywords').filter((f) => isWord(f.word)),
  4_000,
);
const affiliateWord = nearest(
  ref.wordFrequencies('affiliate').filter((f) => isWord(f.word)),
  300,
);
const top = (facet: string, n = 3) =>
  ref
    .facetValues(facet)
    .slice(0, n)
    .map((v) => v.value);
const places = top('place_fct', 3);
const types = top('type_fct', 2);
const sectors = top('sector_fct', 3);
const times = top('time_fct', 3);
const providers = top('provider_fct', 3);
const affiliate = nearest(ref.facetValues('affiliate_fct'), 50).value;
const keyword = ref.facetValues('keywords_fct')[2]!.value;
const begins = ref.beginTimes();
const [b1, b2] = [begins[Math.floor(begins.length * 0.3)]!, begins[Math.floor(begins.length * 0.6)]!];
const someId = ref.liveIds()[Math.floor(ITEMS / 2)]!;
// The most frequent first title of two or more words: its words as a query put the items
// with exactly that title first (the exact-title tier), the others after them.
const tierTitle = ref.titleWordFrequencies().find((t) => t.words.includes(' '))!;
// A phrase of two words from a description, as in the packages ("Vgl. dazu die Akten über …").
const phrase = 'Akten über';

const fc = (field: string, limit = 10, mincount = 1, sort: 'count' | 'index' = 'count'): FacetRequest => ({ field, limit, mincount, sort });
const MAIN_FACETS = [fc('type_fct'), fc('sector_fct'), fc('place_fct', 20), fc('time_fct', -1), fc('provider_fct', 5), fc('has_media_fct')];

const CASES: Case[] = [
  { name: '*:* with type, sector, place, time, provider and media facets', query: '*:*', facets: MAIN_FACETS, hits: [ITEMS, ITEMS] },
  {
    name: '*:* facets: place_fct all values with mincount 0, keywords_fct by index, affiliate_fct limit 7 mincount 40',
    query: '*:*',
    facets: [fc('place_fct', -1, 0), fc('keywords_fct', 25, 1, 'index'), fc('affiliate_fct', 7, 40)],
  },
  { name: `very common word '${veryCommon.word}' (${veryCommon.items})`, query: veryCommon.word, facets: MAIN_FACETS },
  {
    name: `common word '${common.word}' (${common.items}), facets with mincount 0 (values without hits)`,
    query: common.word,
    facets: [fc('sector_fct', -1, 0), fc('time_fct', -1, 0), fc('type_fct', 10, 0)],
  },
  { name: `medium word '${medium.word}' (${medium.items})`, query: medium.word, facets: [fc('place_fct', 15), fc('affiliate_fct', 10, 2)] },
  { name: `rare word '${rare.word.toUpperCase()}' in upper case`, query: rare.word.toUpperCase(), facets: MAIN_FACETS, hits: [1, 99] },
  { name: `title:${titleWord.word}`, query: `title:${titleWord.word}`, facets: [fc('keywords_fct', 5)] },
  { name: `description:${descriptionWord.word}`, query: `description:${descriptionWord.word}`, facets: [fc('sector_fct')] },
  { name: `keywords:${keywordWord.word}`, query: `keywords:${keywordWord.word}`, facets: [fc('keywords_fct', 5)] },
  {
    name: `affiliate:${affiliateWord.word}`,
    query: `affiliate:${affiliateWord.word}`,
    hits: [1, ITEMS - 1],
    facets: [fc('affiliate_fct', 5)],
  },
  { name: `phrase "${phrase}"`, query: `"${phrase}"`, hits: [1, ITEMS - 1], facets: [fc('sector_fct')] },
  { name: `description:"${phrase}" AND ${titleWord.word}`, query: `description:"${phrase}" AND ${titleWord.word}`, hits: [1, ITEMS - 1] },
  { name: `prefix ${medium.word.slice(0, 4)}*`, query: `${medium.word.slice(0, 4)}*`, hits: [1, ITEMS - 1], facets: [fc('type_fct')] },
  {
    name: `wildcard ${common.word.slice(0, 2)}?${common.word.slice(3)}`,
    query: `${common.word.slice(0, 2)}?${common.word.slice(3)}`,
    hits: [1, ITEMS - 1],
  },
  { name: `${common.word} OR ${rare.word}`, query: `${common.word} OR ${rare.word}`, facets: [fc('place_fct', 5)] },
  { name: `${veryCommon.word} AND ${medium.word}`, query: `${veryCommon.word} AND ${medium.word}` },
  { name: `${common.word} NOT ${veryCommon.word}`, query: `${common.word} NOT ${veryCommon.word}`, facets: [fc('type_fct')] },
  { name: `-${veryCommon.word} (only a negation)`, query: `-${veryCommon.word}`, facets: [fc('sector_fct')] },
  {
    name: `the words of a title, '${tierTitle.words}' (${tierTitle.items} items with just these): the exact-title tier`,
    query: tierTitle.words,
    facets: [fc('keywords_fct', 5)],
    hits: [tierTitle.items + 1, ITEMS],
  },
  { name: `place_fct:"${places[0]}"`, query: `place_fct:"${places[0]}"`, facets: [fc('place_fct', 3)] },
  { name: `affiliate_fct:"${affiliate}"`, query: `affiliate_fct:"${affiliate}"`, hits: [1, ITEMS - 1], facets: [fc('affiliate_fct', 3)] },
  {
    name: `keywords_fct:"${keyword}" OR type_fct:${types[1]}`,
    query: `keywords_fct:"${keyword}" OR type_fct:${types[1]}`,
    facets: [fc('type_fct')],
  },
  // a facet clause beside a word is applied as a filter of the word's hits (evaluate.ts 'and')
  {
    name: `${common.word} AND type_fct:${types[0]} AND place_fct:"${places[0]}"`,
    query: `${common.word} AND type_fct:${types[0]} AND place_fct:"${places[0]}"`,
    facets: [fc('sector_fct')],
  },
  {
    name: `${veryCommon.word} AND sector_fct:${sectors[0]} NOT type_fct:${types[1]}`,
    query: `${veryCommon.word} AND sector_fct:${sectors[0]} NOT type_fct:${types[1]}`,
    facets: [fc('type_fct')],
  },
  { name: `id:${someId}`, query: `id:${someId}`, hits: [1, 1] },
  { name: `begin_time:[${b1} TO ${b2}]`, query: `begin_time:[${b1} TO ${b2}]`, hits: [1, ITEMS - 1], facets: [fc('time_fct', -1)] },
  { name: `begin_time:{${b1} TO *] AND ${common.word}`, query: `begin_time:{${b1} TO *] AND ${common.word}` },
  { name: `end_time:[* TO ${b2}}`, query: `end_time:[* TO ${b2}}`, hits: [1, ITEMS - 1], facets: [fc('time_fct', 5)] },
  { name: 'begin_time:* and -end_time:*', query: 'begin_time:* AND -end_time:*', hits: [1, ITEMS - 1] },
  { name: `-begin_time:* (no time span)`, query: '-begin_time:*', facets: [fc('time_fct', 5)] },
  { name: `filter type_fct=${types[0]}`, query: '*:*', filters: { type_fct: [types[0]!] }, facets: MAIN_FACETS },
  {
    name: `filter place_fct = ${places[1]} or ${places[2]} (OR within a facet)`,
    query: '*:*',
    filters: { place_fct: [places[1]!, places[2]!] },
    facets: [fc('place_fct', 5), fc('sector_fct')],
  },
  {
    name: `${common.word} with filters sector_fct = ${sectors[0]} or ${sectors[2]}, and time_fct = ${times[0]} or ${times[1]}, and provider_fct = ${providers[0]} (AND across facets)`,
    query: common.word,
    filters: { sector_fct: [sectors[0]!, sectors[2]!], time_fct: [times[0]!, times[1]!], provider_fct: [providers[0]!] },
    facets: MAIN_FACETS,
  },
  {
    name: 'a filter on a value nobody has',
    query: '*:*',
    filters: { place_fct: ['Nirgendwo an der Nix'] },
    facets: [fc('type_fct', 10, 0)],
    hits: [0, 0],
  },
];

test('the words and values picked are what the cases say', async () => {
  assert.equal(index.size, ITEMS);
  assert.equal(await store.countItems(), ITEMS);
  assert.ok(veryCommon.items > ITEMS * 0.15, `the very common word is on > 15 % of the items (${veryCommon.items})`);
  assert.ok(rare.items < 100, 'the rare word is on < 100 items');
  assert.ok(begins.length > 20, 'begin_time has many values');
  assert.ok(tierTitle.items > 10, 'many items have the title of the exact-title tier');
  assert.ok(places.length === 3 && types.length === 2 && sectors.length === 3 && times.length === 3);
});

for (const c of CASES) test(c.name, () => void check(c));

// Every page by cursor under every order: everything, a common word, a filtered query.
// *:*, a word, a tier, a prefix (scores: few distinct), a facet value (scores all equal), a filter.
const walked = ['*:* with', 'common word', 'the words of a title', 'prefix', 'place_fct:', 'filter place_fct'].map((start) =>
  CASES.find((c) => c.name.startsWith(start))!,
);
for (const c of walked) {
  test(`cursor walks under every order: ${c.name}`, () => void check(c, true));
}

// ---------------------------------------------------------------------------
// Cursors while the collection changes: items added and blocked between pages.

test('cursor walks while items are added and blocked between pages: no repeats, no skips, in order', async () => {
  let next = ITEMS;
  const removed = new Set<string>();
  const rows = 2_500;
  // sort values of every item, old and new, to check the order of a walk
  const keys = new Map<string, { title: string | null; begin: number | null }>();
  const keyOf = (id: string) => {
    let k = keys.get(id);
    if (k === undefined) keys.set(id, (k = ref.keysOf(id)));
    return k;
  };
  const cmp = (x: string | number | null, y: string | number | null, descending: boolean): number =>
    x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y !== descending ? -1 : 1;
  const walks: Array<{ name: string; sort: SearchSort; before: (a: string, b: string) => boolean }> = [
    { name: 'id asc', sort: { kind: 'id', descending: false }, before: (a, b) => a < b },
    {
      name: 'title desc',
      sort: { kind: 'key', key: 'title', descending: true },
      before: (a, b) => (cmp(keyOf(a).title, keyOf(b).title, true) || (a < b ? -1 : 1)) < 0,
    },
    {
      name: 'begin_time asc',
      sort: { kind: 'key', key: 'begin_time', descending: false },
      before: (a, b) => (cmp(keyOf(a).begin, keyOf(b).begin, false) || (a < b ? -1 : 1)) < 0,
    },
    { name: 'random', sort: RANDOM, before: () => true },
  ];
  const c: Case = { name: 'all', query: '*:*' };
  for (const w of walks) {
    const live = ref.liveIds();
    const present = new Set(live);
    const seen: string[] = [];
    let cursor = '*';
    for (let pages = 0; ; pages++) {
      const r = engine(request(c, w.sort, { rows, cursor }));
      const gone = r.ids.find((id) => removed.has(id));
      assert.equal(gone, undefined, `${w.name}: a blocked item is still found`);
      seen.push(...r.ids);
      if (r.nextCursor === cursor) break;
      cursor = r.nextCursor!;
      // between pages: 25 new items, and 25 blocked (some already seen, some not yet)
      const added: PreparedItem[] = [];
      for (let k = 0; k < 25 && next < ITEMS + EXTRA; k++) added.push(gen.item(next++));
      await store.upsertItems(added);
      ref.add(added.map(docOf));
      for (let k = 0; k < 25; k++) {
        const id = live[(pages * 7_919 + k * 3_989) % live.length]!;
        if (removed.has(id)) continue;
        assert.equal(await store.blockItem(id, 'exactness test'), true);
        ref.remove(id);
        removed.add(id);
      }
      while (!(await host.refresh('item', 1_000)));
      assert.ok(pages < 200, 'the walk ends');
    }
    assert.equal(firstDuplicate(seen), undefined, `${w.name}: an id twice`);
    const got = new Set(seen);
    const skipped = [...present].filter((id) => !removed.has(id) && !got.has(id));
    assert.deepEqual(skipped.slice(0, 5), [], `${w.name}: items present throughout the walk that it skipped (${skipped.length})`);
    for (let k = 1; k < seen.length; k++) {
      if (!w.before(seen[k - 1]!, seen[k]!)) assert.fail(`${w.name}: ${seen[k - 1]} before ${seen[k]} is out of order (at ${k})`);
    }
  }
  // And the engine still agrees with the reference after the changes.
  assert.equal(removed.size > 100 && next > ITEMS, true);
  check({ name: 'after changes', query: '*:*', facets: MAIN_FACETS });
});
