/**
 * The entity search is exact at scale: counts and facet values compared with a
 * straightforward SQL evaluation on a 100,000-person generated set.
 *
 * 100,000 persons from the benchmark's generator (bench/synth, fixed seed) are
 * loaded through the store API in batches, as `ingest entities` does, and
 * 30,000 small items referring to them (skewed) give the persons their
 * `count`. The same persons and references go into the plain SQL model of
 * referenceSearch.ts, which shares no code with the production search
 * (the engine, src/search/engine/, as src/http/searchRequest/personSearch.ts
 * maps the person search onto it); both sides use the query parser and the folding of
 * src/search/engine/fold.ts.
 *
 * Requests are built by the /entities route's own parameter handling
 * (toPersonSearch), so facet.limit, minDocs, filters and cursors are read as
 * the API reads them. Each case compares numberOfResults, every requested
 * facet (values, counts, order: descending count, ties by value), and the
 * order of the hits: the first page for ALPHA_ASC, ALPHA_DESC and
 * COUNT_DESC, and for relevance every page (cursor paging, 1,000 a page):
 * each id once, the same set as the reference, in the documented order.
 * The documented keys (name; tier, count, name) leave ties between persons
 * of the same name; the reference breaks them by id ascending, as the
 * implementation says it does (src/search/engine/types.ts SearchSort).
 *
 * Words are picked by counting in the reference database, so a change of the
 * generator moves the words, not the meaning of the cases.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadVocab } from '../../bench/synth/vocab.js';
import { PersonGenerator } from '../../bench/synth/persons.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import type { Person } from '../../src/domain/person.js';
import { parseQuery } from '../../src/query/parse.js';
import type { EntitiesResult } from '../../src/http/bodies/entities.js';
import { fold, tokens } from '../../src/search/engine/fold.js';
import type { PreparedItem, Store } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { ReferenceSearch, REF_FACETS, type RefFacet, type RefRequest, type RefSort } from './referenceSearch.js';
import { searchPersons } from '../helpers/personSearch.js';

const PERSONS = 100_000;
const ITEMS = 30_000;
const SEED = 20_250_505;
/** Records per upsertPersons / upsertItems call: the ingest's default (config ingest.batchSize). */
const BATCH = 500;
const PAGE = 1_000;

type Params = Record<string, string | string[]>;

// ---------------------------------------------------------------------------
// Data: the same persons and references into the store and into the reference.

const opened = await BACKENDS[0]!.open();
const store: Store = opened.store;
const ref = new ReferenceSearch();
const persons: Person[] = [];

{
  const generator = new PersonGenerator(loadVocab(), SEED);
  for (let i = 0; i < PERSONS; i += BATCH) {
    const batch: Person[] = [];
    for (let k = i; k < Math.min(PERSONS, i + BATCH); k++) batch.push(generator.person(k));
    const result = await store.upsertPersons(batch.map(preparePerson));
    assert.equal(result.inserted, batch.length);
    ref.addPersons(batch);
    persons.push(...batch);
  }

  // Items refer to 1–3 persons each, skewed towards low indexes (some persons get
  // hundreds, most none), plus a URI that is no person. Mulberry32, fixed seed.
  let state = SEED >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const items: PreparedItem[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const refs = new Set<string>();
    const n = 1 + Math.floor(random() * 3);
    for (let k = 0; k < n; k++) refs.add(persons[Math.floor(PERSONS * random() ** 4)]!.id);
    if (i % 1000 === 0) refs.add('http://d-nb.info/gnd/4000000-0');
    const id = `exactness-item-${i}`;
    // Not an object literal typed as PreparedItem: the item shape may be extended,
    // and fields this version does not know are ignored.
    const item = {
      id,
      choUri: `http://example.org/cho/${id}`,
      parentRef: null,
      previousRef: null,
      label: id,
      hierarchyType: null,
      position: null,
      aggregationEntity: false,
      xml: `<cortex id="${id}"/>`,
      json: `{"id":"${id}"}`,
      etag: `"${id}"`,
      refs: [...refs],
    };
    items.push(item);
    ref.addItemRefs(id, item.refs);
  }
  for (let i = 0; i < items.length; i += BATCH) await store.upsertItems(items.slice(i, i + BATCH));
  ref.finish();
}

after(() => opened.dispose());

// ---------------------------------------------------------------------------
// Running a request on both sides.

interface Prod {
  total: number;
  ids: string[];
  counts: number[];
  facets: EntitiesResult['facets'];
}

function docsOf(result: EntitiesResult): { ids: string[]; counts: number[] } {
  const docs = result.docs.map((d) => JSON.parse(d) as { id: string; count: number });
  return { ids: docs.map((d) => d.id), counts: docs.map((d) => d.count) };
}

async function production(params: Params): Promise<Prod> {
  const result = await searchPersons(store, params);
  return { total: result.total, facets: result.facets, ...docsOf(result) };
}

/** Every page with cursorMark (PAGE a page) until nextCursorMark stays the same. */
async function productionAllPages(params: Params): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let mark = '*';
  let pages = 0;
  for (;;) {
    const result = await searchPersons(store, { ...params, rows: String(PAGE), cursorMark: mark });
    pages++;
    ids.push(...docsOf(result).ids);
    assert.ok(result.nextCursorMark !== undefined, 'a cursor request answers nextCursorMark');
    if (result.nextCursorMark === mark) return { ids, pages };
    assert.ok(result.docs.length > 0, 'a page that moves the cursor has docs');
    mark = result.nextCursorMark;
    assert.ok(pages <= PERSONS / PAGE + 2, 'cursor paging ends');
  }
}

const SORTS: Record<string, RefSort> = {
  RELEVANCE: 'relevance',
  ALPHA_ASC: 'alpha_asc',
  ALPHA_DESC: 'alpha_desc',
  COUNT_DESC: 'count_desc',
};

/** The same request for the reference, read from the parameters directly. */
function reference(params: Params, limit?: number) {
  const one = (name: string) => {
    const v = params[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const many = (name: string) => {
    const v = params[name];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  };
  const req: RefRequest = {
    query: parseQuery(one('query') ?? '*:*'),
    filters: REF_FACETS.filter((f) => params[f] !== undefined).map((f) => [f, many(f)] as const),
    facets: [...new Set(many('facet'))] as RefFacet[],
    facetLimit: Number(one('facet.limit') ?? 100),
    minDocs: Number(one('minDocs') ?? 0),
    sort: SORTS[(one('sort') ?? 'RELEVANCE').toUpperCase()]!,
    ...(limit === undefined ? {} : { limit }),
  };
  return ref.search(req);
}

function firstDuplicate(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

function sameSet(got: readonly string[], expected: readonly string[], what: string): void {
  const g = new Set(got);
  const e = new Set(expected);
  const missing = expected.filter((id) => !g.has(id));
  const extra = got.filter((id) => !e.has(id));
  assert.ok(
    missing.length === 0 && extra.length === 0,
    `${what}: ${missing.length} missing (${missing.slice(0, 5).join(' ')}), ${extra.length} extra (${extra.slice(0, 5).join(' ')})`,
  );
}

/** The first position where two id lists differ, for a readable failure. */
function firstDifference(got: readonly string[], expected: readonly string[]): string {
  const n = Math.max(got.length, expected.length);
  for (let i = 0; i < n; i++) {
    if (got[i] !== expected[i]) return `at ${i}: got ${got[i]}, expected ${expected[i]}`;
  }
  return 'none';
}

/**
 * Compares one request: total, facets, and the order of hits (first page, or
 * all pages for relevance). Returns the total, for cases that check it is in range.
 */
async function check(params: Params, part: 'all' | 'counts' | 'order' = 'all'): Promise<number> {
  const sort = SORTS[(typeof params.sort === 'string' ? params.sort : 'RELEVANCE').toUpperCase()]!;
  const rows = Number(params.rows ?? 50);
  const prod = await production({ rows: String(rows), ...params });
  const expected = reference(params, sort === 'relevance' ? undefined : rows);
  assert.equal(prod.total, expected.total, 'numberOfResults');
  if (part !== 'order') checkFacets(params, prod, expected);
  if (part !== 'counts') await checkOrder(params, sort, rows, prod, expected);
  return prod.total;
}

function checkFacets(params: Params, prod: Prod, expected: ReturnType<typeof reference>): void {
  const requested = [...new Set(Array.isArray(params.facet) ? params.facet : params.facet === undefined ? [] : [params.facet])];
  assert.deepEqual(
    prod.facets.map((f) => f.field),
    requested,
    'the requested facets',
  );
  for (const facet of expected.facets) {
    const got = prod.facets.find((f) => f.field === facet.field)!.values.map((v) => ({ value: v.value, count: v.count }));
    assert.deepEqual(got, facet.values, `facet ${facet.field}`);
  }
}

async function checkOrder(params: Params, sort: RefSort, rows: number, prod: Prod, expected: ReturnType<typeof reference>): Promise<void> {
  // The page asked for (offset paging), in order, with each person's count.
  const firstPage = expected.ids.slice(0, rows);
  assert.equal(prod.ids.length, firstPage.length, 'docs on the first page');
  assert.ok(prod.ids.join('\n') === firstPage.join('\n'), `first page (${sort}): first difference ${firstDifference(prod.ids, firstPage)}`);
  prod.ids.forEach((id, i) => assert.equal(prod.counts[i], ref.countOf(id), `count of ${id}`));

  if (sort === 'relevance') {
    const all = await productionAllPages(params);
    assert.equal(firstDuplicate(all.ids), undefined, 'no id twice over all pages');
    assert.equal(all.ids.length, expected.total, 'ids over all pages');
    sameSet(all.ids, expected.ids, 'ids over all pages');
    assert.ok(
      all.ids.join('\n') === expected.ids.join('\n'),
      `relevance order over all pages: first difference ${firstDifference(all.ids, expected.ids)}`,
    );
  }
}

// ---------------------------------------------------------------------------
// Words, picked by counting in the reference.

const frequencies = ref.wordFrequencies();
const isWord = (w: string) => /^\p{L}{3,}$/u.test(w);
const words = frequencies.filter((f) => isWord(f.word));
const nearest = (list: typeof frequencies, target: number) =>
  [...list].sort((a, b) => Math.abs(a.persons - target) - Math.abs(b.persons - target) || (a.word < b.word ? -1 : 1))[0]!;

const veryCommon = words[0]!; // the most frequent word (about half of all persons)
const second = words[1]!;
const common = frequencies[4]!; // the 5th most frequent token of all
const rare = nearest(words, 50);
const rare2 = nearest(
  words.filter((w) => w.word !== rare.word),
  80,
);
const byField = (field: Parameters<ReferenceSearch['fieldWordFrequencies']>[0]) =>
  ref.fieldWordFrequencies(field).filter((f) => isWord(f.word));
const nameWord = byField('preferredName')[0]!;
const nameWord2 = byField('preferredName')[3]!;
const variantWord = nearest(byField('variantName'), 1_000);
const occupation = byField('professionOrOccupation')[2]!;
const birthPlace = byField('placeOfBirth')[1]!;
const deathPlace = nearest(byField('placeOfDeath'), 300);
const gender = byField('gender').at(-1)!; // the rarer gender label
const year = ref.fieldWordFrequencies('dateOfBirth').find((f) => /^\d{4}$/.test(f.word))!;

// The most frequent preferred name of two words: an exact-name tier for relevance.
const topNames = reference({ query: '*:*', facet: 'person_name_fct', 'facet.limit': '200' }, 0).facets[0]!.values;
const twoWordName = topNames.find((v) => tokens(v.value).length === 2)!.value;
const [forename, surname] = twoWordName.split(' ') as [string, string];
// A variant name of three words, as a phrase.
const variantPhrase = persons.flatMap((p) => p.variantName).find((v) => tokens(v).length === 3 && !v.includes(','))!;

// Two occupations one after the other in one person's list, each of one word:
// a phrase of the two must not run from one value into the next.
const occupationPair = (() => {
  const pairs = new Map<string, number>();
  for (const p of persons) {
    const occ = p.professionOrOccupation ?? [];
    for (let k = 0; k + 1 < occ.length; k++) {
      if (tokens(occ[k]!).length === 1 && tokens(occ[k + 1]!).length === 1) {
        const key = `${occ[k]} ${occ[k + 1]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
  }
  return [...pairs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
})();

const prefix = second.word.slice(0, 5);
const longNameWord = byField('preferredName').find((f) => f.word.length >= 6)!.word;
const namePrefix = longNameWord.slice(0, 3);
// One letter of a name word replaced by ?, and a * inside a word: few enough words to expand.
const wildcard = `${nameWord2.word.slice(0, 1)}?${nameWord2.word.slice(2)}`;
const innerStar = `${longNameWord.slice(0, 2)}*${longNameWord.slice(-3)}`;
const someone = persons[12_345]!;
// A word on more than 10,000 persons, for deep paging.
const deep = words.find((w) => w.persons > 10_000 && w.persons < 30_000)!;
// A place written with a diacritic or a letter such as ß, ł: found as written and folded.
const accentedPlace = reference({ query: '*:*', facet: 'person_place_fct', 'facet.limit': '1000' }, 0)
  .facets[0]!.values.map((v) => v.value)
  .find((v) => tokens(v).length === 1 && /[^\x00-\x7f]/.test(v) && !/[^\p{L}]/u.test(v))!;

const F = {
  name: 'person_name_fct',
  place: 'person_place_fct',
  gender: 'person_gender_fct',
  occupation: 'person_occupation_fct',
} as const;
const allFacets = [F.name, F.place, F.gender, F.occupation];
const topPlaces = reference({ query: '*:*', facet: F.place, 'facet.limit': '3' }, 0).facets[0]!.values.map((v) => v.value);
const topOccupations = reference({ query: '*:*', facet: F.occupation, 'facet.limit': '3' }, 0).facets[0]!.values.map((v) => v.value);
const genders = reference({ query: '*:*', facet: F.gender }, 0).facets[0]!.values.map((v) => v.value);

// ---------------------------------------------------------------------------
// The table. Two cases here found production bugs that are now fixed: the
// relevance tier "all words in the preferred name" (an FTS5 column filter bound
// to the first word only) and phrases running from one value of a field into the next.

interface Case {
  name: string;
  params: Params;
  /** Hits expected in this range (checks that the word picked is what the case says). */
  hits?: [number, number];
  /** A query this one must match exactly like (same numberOfResults). */
  sameTotalAs?: string;
}

const CASES: Case[] = [
  // match all, every facet
  {
    name: '*:* with all four facets (facet.limit 20)',
    params: { query: '*:*', facet: allFacets, 'facet.limit': '20' },
    hits: [PERSONS, PERSONS],
  },
  { name: '*:* ALPHA_ASC', params: { query: '*:*', sort: 'ALPHA_ASC', rows: '100' } },
  { name: '*:* ALPHA_DESC', params: { query: '*:*', sort: 'ALPHA_DESC', rows: '100' } },
  { name: '*:* COUNT_DESC', params: { query: '*:*', sort: 'COUNT_DESC', rows: '100' } },
  { name: 'type:person', params: { query: 'type:person', sort: 'COUNT_DESC', facet: F.gender }, hits: [PERSONS, PERSONS] },
  { name: `id: https form of a GND URI (${someone.id})`, params: { query: `id:"${someone.id.replace('http:', 'https:')}"` }, hits: [1, 1] },

  // single terms of every frequency
  {
    name: `very common term '${veryCommon.word}' (${veryCommon.persons}), occupation facet`,
    params: { query: veryCommon.word, facet: F.occupation },
    hits: [15_000, PERSONS],
  },
  { name: `very common term '${second.word}', place facet, minDocs 100`, params: { query: second.word, facet: F.place, minDocs: '100' } },
  {
    name: `common term '${common.word}' (5th most frequent token), all facets, facet.limit 7`,
    params: { query: common.word, facet: allFacets, 'facet.limit': '7' },
  },
  { name: `common term '${common.word}' ALPHA_ASC`, params: { query: common.word, sort: 'ALPHA_ASC' } },
  { name: `common term '${common.word}' ALPHA_DESC`, params: { query: common.word, sort: 'ALPHA_DESC' } },
  { name: `rare term '${rare.word}' (< 100 hits), all facets`, params: { query: rare.word, facet: allFacets }, hits: [1, 99] },
  {
    name: `rare term in upper case: '${rare2.word.toUpperCase()}'`,
    params: { query: rare2.word.toUpperCase(), facet: F.name },
    hits: [1, 99],
  },

  { name: `a word with a diacritic, as written: ${accentedPlace}`, params: { query: accentedPlace, facet: F.place, 'facet.limit': '3' } },
  {
    name: `the same word folded and upper case: ${fold(accentedPlace).toUpperCase()}`,
    params: { query: fold(accentedPlace).toUpperCase(), facet: F.place, 'facet.limit': '3' },
  },

  // field-qualified terms
  { name: `preferredName:${nameWord.word}`, params: { query: `preferredName:${nameWord.word}`, facet: F.name, 'facet.limit': '10' } },
  { name: `variantName:${variantWord.word}`, params: { query: `variantName:${variantWord.word}`, facet: F.name } },
  {
    name: `professionOrOccupation:${occupation.word}`,
    params: { query: `professionOrOccupation:${occupation.word}`, facet: F.occupation },
  },
  { name: `placeOfBirth:${birthPlace.word}`, params: { query: `placeOfBirth:${birthPlace.word}`, facet: F.place } },
  { name: `placeOfDeath:${deathPlace.word}`, params: { query: `placeOfDeath:${deathPlace.word}`, facet: F.place, 'facet.limit': '5' } },
  { name: `dateOfBirth:${year.word}`, params: { query: `dateOfBirth:${year.word}`, facet: F.gender } },
  { name: `gender:${gender.word}`, params: { query: `gender:${gender.word}`, facet: F.occupation, 'facet.limit': '15' } },

  // boolean combinations
  { name: `${second.word} AND ${common.word}`, params: { query: `${second.word} AND ${common.word}`, facet: F.place } },
  { name: `${second.word} OR ${rare.word}`, params: { query: `${second.word} OR ${rare.word}`, facet: F.occupation } },
  {
    name: `${second.word} NOT ${common.word}`,
    params: { query: `${second.word} NOT ${common.word}`, facet: F.place, 'facet.limit': '10' },
  },
  { name: `-${veryCommon.word} (only a negation)`, params: { query: `-${veryCommon.word}`, facet: F.gender } },
  {
    name: `(${nameWord.word} OR ${nameWord2.word}) AND NOT placeOfBirth:${birthPlace.word}`,
    params: { query: `(${nameWord.word} OR ${nameWord2.word}) AND NOT placeOfBirth:${birthPlace.word}`, facet: F.name },
  },
  {
    name: `mixed operators: ${rare.word} OR ${rare2.word} ${common.word} (matches like '${common.word}')`,
    params: { query: `${rare.word} OR ${rare2.word} ${common.word}` },
    sameTotalAs: common.word,
  },

  // phrases, prefixes, wildcards
  { name: `phrase "${twoWordName}" (relevance: exact name first)`, params: { query: `"${twoWordName}"`, facet: F.name } },
  {
    name: `two words ${surname} ${forename} (relevance tiers)`,
    params: { query: `${surname} ${forename}`, facet: F.name, 'facet.limit': '5' },
  },
  { name: `variantName:"${variantPhrase}"`, params: { query: `variantName:"${variantPhrase}"` } },
  {
    name: `phrase over two values: professionOrOccupation:"${occupationPair}"`,
    params: { query: `professionOrOccupation:"${occupationPair}"`, facet: F.occupation },
  },
  { name: `prefix ${prefix}*`, params: { query: `${prefix}*`, facet: F.occupation, 'facet.limit': '10' } },
  { name: `prefix preferredName:${namePrefix}*`, params: { query: `preferredName:${namePrefix}*`, facet: F.name, 'facet.limit': '10' } },
  { name: `wildcard ${wildcard}`, params: { query: wildcard, facet: F.name } },
  { name: `wildcard preferredName:${innerStar}`, params: { query: `preferredName:${innerStar}`, facet: F.name, 'facet.limit': '10' } },

  // ranges and field:*
  { name: 'dateOfBirth:[1800 TO 1850]', params: { query: 'dateOfBirth:[1800 TO 1850]', facet: F.occupation, 'facet.limit': '5' } },
  { name: 'dateOfDeath:{1900 TO *]', params: { query: 'dateOfDeath:{1900 TO *]', sort: 'ALPHA_ASC' } },
  { name: 'dateOfBirth:[* TO 1500}', params: { query: 'dateOfBirth:[* TO 1500}', facet: F.place } },
  { name: 'count:[5 TO *]', params: { query: 'count:[5 TO *]', sort: 'COUNT_DESC' } },
  { name: `${common.word} AND count:{0 TO 3]`, params: { query: `${common.word} AND count:{0 TO 3]`, facet: F.gender } },
  { name: 'preferredName:[m TO n}', params: { query: 'preferredName:[m TO n}', sort: 'ALPHA_DESC', facet: F.name, 'facet.limit': '10' } },
  { name: 'placeOfDeath:*', params: { query: 'placeOfDeath:*', facet: F.place, 'facet.limit': '10' } },
  { name: '-variantName:*', params: { query: '-variantName:*', facet: F.gender } },

  // facets with facet.limit and minDocs, and filters
  // (ALPHA_ASC: the relevance order of *:* over all pages is checked once, above)
  {
    name: '*:* person_name_fct, facet.limit 50, minDocs 20',
    params: { query: '*:*', sort: 'ALPHA_ASC', facet: F.name, 'facet.limit': '50', minDocs: '20' },
  },
  {
    name: '*:* person_place_fct, facet.limit 1000, minDocs 3',
    params: { query: '*:*', sort: 'ALPHA_ASC', facet: F.place, 'facet.limit': '1000', minDocs: '3' },
  },
  {
    name: '*:* person_occupation_fct, facet.limit 1000',
    params: { query: '*:*', sort: 'ALPHA_ASC', facet: F.occupation, 'facet.limit': '1000' },
  },
  {
    name: `*:* person_gender_fct, minDocs 0, filter ${F.occupation}=${topOccupations[0]}`,
    params: { query: '*:*', facet: F.gender, [F.occupation]: topOccupations[0]! },
  },
  {
    name: `${second.word} with one filter ${F.place}=${topPlaces[0]}`,
    params: { query: second.word, facet: [F.place, F.occupation], [F.place]: topPlaces[0]! },
  },
  {
    name: `${veryCommon.word} with two filters: ${F.place} = ${topPlaces[1]} or ${topPlaces[2]}, and ${F.gender}=${genders[0]}`,
    params: {
      query: veryCommon.word,
      facet: [F.place, F.gender, F.occupation],
      [F.place]: [topPlaces[1]!, topPlaces[2]!],
      [F.gender]: genders[0]!,
    },
  },
  {
    name: `*:* with two filters, ALPHA_ASC: ${F.occupation}=${topOccupations[1]} and ${F.place}=${topPlaces[0]}`,
    params: { query: '*:*', sort: 'ALPHA_ASC', facet: F.name, [F.occupation]: topOccupations[1]!, [F.place]: topPlaces[0]! },
  },
  { name: 'a filter on a value nobody has', params: { query: '*:*', facet: F.gender, [F.place]: 'Nirgendwo an der Nix' }, hits: [0, 0] },
];

test('the words picked are what the cases say', async () => {
  assert.ok(rare.persons < 100 && rare2.persons < 100, 'rare words have < 100 hits');
  assert.ok(veryCommon.persons > PERSONS * 0.15, 'the very common word is on > 15 % of persons');
  assert.ok(deep.persons > 10_000, 'deep paging goes through > 10,000 hits');
  assert.notEqual(fold(forename), fold(surname));
  assert.equal(await store.countPersons(), PERSONS);
});

for (const c of CASES) {
  test(c.name, async () => {
    const total = await check(c.params, 'all');
    if (c.hits) assert.ok(total >= c.hits[0] && total <= c.hits[1], `${total} hits, expected ${c.hits[0]}–${c.hits[1]}`);
    if (c.sameTotalAs !== undefined)
      assert.equal(total, (await production({ query: c.sameTotalAs, rows: '0' })).total, `as many hits as ${c.sameTotalAs}`);
  });
}

// ---------------------------------------------------------------------------
// Deep paging: cursor and offset through more than 10,000 hits.

for (const sort of ['ALPHA_ASC', 'COUNT_DESC', 'RELEVANCE'] as const) {
  test(`cursor paging through '${deep.word}' (${deep.persons} hits > 10,000), ${sort}: every id exactly once, in order`, async () => {
    const params = { query: deep.word, sort };
    const expected = reference(params).ids;
    assert.ok(expected.length > 10_000);
    const all = await productionAllPages(params);
    assert.equal(all.pages, Math.ceil(expected.length / PAGE) + 1, 'pages, and one more that returns the same mark');
    assert.equal(firstDuplicate(all.ids), undefined, 'no id twice');
    sameSet(all.ids, expected, 'the hits');
    assert.ok(all.ids.join('\n') === expected.join('\n'), `order: first difference ${firstDifference(all.ids, expected)}`);
  });
}

test(`cursor paging through '${deep.word}' RANDOM_7: every id exactly once`, async () => {
  const all = await productionAllPages({ query: deep.word, sort: 'RANDOM_7' });
  assert.equal(firstDuplicate(all.ids), undefined, 'no id twice');
  sameSet(all.ids, reference({ query: deep.word }).ids, 'the hits');
});

test(`offset paging through '${deep.word}' ALPHA_DESC, 1,000 a page: the same as the reference`, async () => {
  const params = { query: deep.word, sort: 'ALPHA_DESC' };
  const expected = reference(params).ids;
  const ids: string[] = [];
  for (let offset = 0; offset < expected.length; offset += PAGE) {
    ids.push(...(await production({ ...params, rows: String(PAGE), offset: String(offset) })).ids);
  }
  assert.equal(firstDuplicate(ids), undefined, 'no id twice');
  assert.ok(ids.join('\n') === expected.join('\n'), `order: first difference ${firstDifference(ids, expected)}`);
});
