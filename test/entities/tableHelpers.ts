/**
 * Shared pieces of table.test.ts: the row type, the expected data files (worked out by
 * the scripts in expected/README.md), the request helper and the checks every
 * response of GET /entities must pass (spec 2.1, 2.2; docs/decisions.md "Entity search").
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestApp } from '../helpers/app.js';

export type Params = Record<string, string | string[]>;
/** [value, count] pairs in the expected order. */
export type FacetExpectation = Record<string, Array<[string, number]>>;

export interface Row {
  /** The construct the row checks. */
  name: string;
  /** The `query` parameter. */
  q: string;
  /** Further parameters (sort, rows, offset, facet, facet.limit, minDocs, filters). */
  params?: Params;
  /** numberOfResults. */
  total: number;
  /** All hits (at most 20), GND numbers sorted as strings; order not asserted. */
  ids?: string[];
  /** The page's GND numbers in order (the row has a sort that fixes the order). */
  page?: string[];
  /** The full set of hits is expected/ids.json[name]; checked with rows=1000. */
  set?: true;
  /** RELEVANCE: the exact preferred-name match is the first doc. */
  firstDoc?: string;
  /** The single doc, exactly, keys in order. */
  doc?: Doc;
  /** Requested facets with their values; unrequested facets must be empty. */
  facets?: FacetExpectation;
  /** The facet values are expected/facets.json[name]. */
  facetsFile?: true;
  /** Set for a row that fails because of a verified implementation bug. */
  todo?: string;
}

export interface Doc {
  id: string;
  type: string;
  preferredName: string;
  variantName: string[];
  dateOfBirth?: string;
  dateOfDeath?: string;
  placeOfBirth?: string[];
  placeOfDeath?: string[];
  professionOrOccupation?: string[];
  count: number;
}

export interface FacetOut {
  field: string;
  numberOfFacets: number;
  facetValues: Array<{ count: number; value: string }>;
}

export interface SearchBody {
  numberOfResults: number;
  results: Array<{ name: string; docs: Doc[]; numberOfDocs: number }>;
  facets: FacetOut[];
  correctedQuery: string;
  highlightedTerms: unknown[];
  randomSeed: string;
  nextCursorMark?: string;
}

export const FACET_NAMES = ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'];
const GND_PREFIX = 'http://d-nb.info/gnd/';
const BODY_KEYS = ['numberOfResults', 'results', 'facets', 'correctedQuery', 'highlightedTerms', 'randomSeed'];

function readExpected<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./expected/${name}`, import.meta.url), 'utf8')) as T;
}

/** Every person as a doc, in ALPHA_ASC order (folded preferredName, then id). */
export const DOCS_ALPHA_ASC = readExpected<Doc[]>('docs-alpha-asc.json');
export const DOC_BY_ID = new Map(DOCS_ALPHA_ASC.map((d) => [d.id, d]));
/** Row name -> all hits (GND numbers sorted as strings), for rows with more than 20. */
export const EXPECTED_IDS = readExpected<Record<string, string[]>>('ids.json');
/** Row name -> facet values, for rows whose facets are too long to read inline. */
export const EXPECTED_FACETS = readExpected<Record<string, FacetExpectation>>('facets.json');
/** The 363 hits of the term Schriftsteller. */
export const SCHRIFTSTELLER_IDS = readExpected<string[]>('schriftsteller.json');

/** The GND number of an entity id. */
export function gnd(id: string): string {
  assert.ok(id.startsWith(GND_PREFIX), `an http GND id: ${id}`);
  return id.slice(GND_PREFIX.length);
}

/** The URL of a search: every value percent-encoded ("+" stays an operator, not a space). */
export function searchUrl(q: string, params: Params): string {
  const parts = [`query=${encodeURIComponent(q)}`];
  for (const [k, v] of Object.entries(params)) {
    for (const x of Array.isArray(v) ? v : [v]) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(x)}`);
  }
  return `/entities?${parts.join('&')}`;
}

export async function search(t: TestApp, q: string, params: Params = {}): Promise<SearchBody> {
  const url = searchUrl(q, params);
  const res = await t.app.inject({ url, headers: t.json });
  assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 500)}`);
  return res.json<SearchBody>();
}

export function docsOf(body: SearchBody): Doc[] {
  const group = body.results[0];
  assert.ok(group, 'one result group');
  return group.docs;
}

/** A returned doc is exactly the expected doc of that person, keys in spec 2.1 order. */
export function checkDoc(doc: Doc): void {
  const want = DOC_BY_ID.get(doc.id);
  assert.ok(want, `a known person: ${doc.id}`);
  assert.deepEqual(Object.keys(doc), Object.keys(want), `${doc.id}: keys in spec order, empty ones omitted`);
  assert.deepEqual(doc, want, `${doc.id}: the mapped EntityFacts record`);
}

/** Spec 2.1 / 2.2 shape, for any successful search; `params` are the ones sent. */
export function checkShape(body: SearchBody, params: Params): void {
  const expectedKeys = 'cursorMark' in params ? [...BODY_KEYS, 'nextCursorMark'] : BODY_KEYS;
  assert.deepEqual(Object.keys(body), expectedKeys, 'response keys (spec 2.1)');
  assert.equal(body.results.length, 1, 'one result group');
  const group = body.results[0];
  assert.ok(group);
  assert.deepEqual(Object.keys(group).sort(), ['docs', 'name', 'numberOfDocs'], 'result group fields (spec 2.1)');
  assert.equal(group.name, 'single');
  assert.equal(group.numberOfDocs, body.numberOfResults, 'numberOfDocs equals numberOfResults');
  for (const doc of group.docs) checkDoc(doc);
  assert.deepEqual(
    body.facets.map((f) => f.field),
    FACET_NAMES,
    'all four facets, in spec order',
  );
  const asked = new Set([params['facet'] ?? []].flat());
  for (const f of body.facets) {
    assert.deepEqual(Object.keys(f).sort(), ['facetValues', 'field', 'numberOfFacets'], 'facet fields (spec 2.2)');
    assert.equal(f.numberOfFacets, f.facetValues.length, `${f.field}: numberOfFacets is the number of values`);
    if (!asked.has(f.field)) assert.equal(f.facetValues.length, 0, `${f.field} was not asked for`);
    for (const v of f.facetValues) assert.deepEqual(Object.keys(v).sort(), ['count', 'value'], 'facet value fields (spec 2.2)');
  }
  assert.equal(body.correctedQuery, '');
  assert.ok(Array.isArray(body.highlightedTerms), 'highlightedTerms is an array');
  const sort = params['sort'];
  const random = typeof sort === 'string' && sort.toUpperCase().startsWith('RANDOM');
  if (!random) assert.equal(body.randomSeed, '', 'randomSeed is empty without a random sort');
}
