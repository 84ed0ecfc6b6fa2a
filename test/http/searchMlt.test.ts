/**
 * GET /search/mlt ("more like this") over the real server on the real fixtures: the hits
 * and the whole body computed here by brute force from the store's own bodies (the
 * source item's words and values, every other item that shares one), errors included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { tokens } from '../../src/search/engine/fold.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const SOURCE = '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22';

async function storedItems(t: TestApp): Promise<ItemDocuments[]> {
  const out: ItemDocuments[] = [];
  let position: string | null = null;
  for (;;) {
    const batch = await t.store.readSearchChanges('item', position, 10_000);
    if ('rescan' in batch) throw new Error('rescan');
    for (const c of batch.changes) if (c.body !== null) out.push(itemDocumentsFromJson(c.body, c.id));
    position = batch.position;
    if (batch.done) return out;
  }
}

/** Where each text field's words come from in the source item (itemDocument.ts). */
const SOURCE_OF: Record<string, (d: ItemDocuments) => string[]> = {
  title: (d) => (d.result.title === '' ? [] : [d.result.title]),
  subtitle: (d) => (d.result.subtitle === '' ? [] : [d.result.subtitle]),
  keywords: (d) => [...(d.search.facets.keywords_fct ?? [])],
  affiliate: (d) => [...(d.search.facets.affiliate_fct ?? [])],
  place: (d) => [...(d.search.facets.place_fct ?? [])],
  provider: (d) => [...(d.search.facets.provider_fct ?? [])],
};

type Clause = { field: string; text: string; facet: boolean };

/** The item's words in any of its text fields. */
const wordsOf = (d: ItemDocuments) => new Set(Object.values(d.search.text).flatMap((vs) => vs.flatMap((v) => tokens(v))));

/**
 * The first 25 words and values of the fields, without the words of more than 5 % of the items
 * and more than 10,000 (docs/search.md "More like this"): none here, the fixtures are fewer.
 */
function clausesOf(source: ItemDocuments, fields: string[], all: ItemDocuments[]): Clause[] {
  const out: Clause[] = [];
  for (const field of fields) {
    const facet = SOURCE_OF[field] === undefined;
    const terms = facet ? [...(source.search.facets[field] ?? [])] : SOURCE_OF[field]!(source).flatMap((v) => tokens(v));
    for (const text of terms) if (!out.some((c) => c.field === field && c.text === text)) out.push({ field, text, facet });
  }
  const words = all.map(wordsOf);
  const common = (text: string) => words.filter((w) => w.has(text)).length > Math.max(0.05 * all.length, 10_000);
  return out.slice(0, 25).filter((c) => c.facet || !common(c.text));
}

const matches = (d: ItemDocuments, c: Clause) =>
  c.facet ? (d.search.facets[c.field] ?? []).includes(c.text) : (d.search.text[c.field] ?? []).some((v) => tokens(v).includes(c.text));

/** The body with its docs in id order (the order of relevance is the engine's, tested in test/search). */
function byId<T extends { results: Array<{ docs: Array<{ id: string }> }> }>(body: T): T {
  body.results[0]!.docs.sort((a, b) => compareCodePoints(a.id, b.id));
  return body;
}

function expected(all: ItemDocuments[], fields: string[], keep: (d: ItemDocuments) => boolean = () => true) {
  const source = all.find((d) => d.search.id === SOURCE)!;
  const clauses = clausesOf(source, fields, all);
  const hits = all.filter((d) => d.search.id !== SOURCE && keep(d) && clauses.some((c) => matches(d, c)));
  const terms: string[] = [];
  for (const c of clauses) if (hits.some((d) => matches(d, c)) && !terms.includes(c.text)) terms.push(c.text);
  return {
    hits,
    body: byId({
      numberOfResults: hits.length,
      results: [{ name: 'single', docs: hits.map((d) => ({ ...d.result })), numberOfDocs: hits.length }],
      facets: [],
      entities: [],
      correctedQuery: '',
      highlightedTerms: terms,
      randomSeed: '',
    }),
  };
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR, `${FIXTURES}items/edm/`] }));

  test(`${b} /search/mlt: the items that share a word or a value of the fields asked, without the item`, async () => {
    const t = await app();
    const all = await storedItems(t);
    for (const [url, fields] of [
      [`/search/mlt?facet=id&id=${SOURCE}&fields=place,title&rows=1000`, ['place', 'title']],
      [`/search/mlt?id=${SOURCE}&rows=1000`, ['title', 'place', 'affiliate', 'keywords']],
      [`/2/search/mlt?id=${SOURCE}&fields=place_fct&fields=subtitle&rows=1000`, ['place_fct', 'subtitle']],
    ] as const) {
      const want = expected(all, [...fields]);
      assert.ok(want.hits.length >= 3, `${url}: the fixtures have several similar items`);
      const res = await t.app.inject({ url, headers: t.json });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(byId(JSON.parse(res.body)), want.body, url);
    }
    // query narrows the similar items; offset and rows page them.
    const narrowed = expected(all, ['place', 'title'], (d) => (d.search.facets.type_fct ?? []).includes('mediatype_002'));
    const res = await t.app.inject({
      url: `/search/mlt?id=${SOURCE}&fields=place,title&query=type_fct:mediatype_002&rows=1000`,
      headers: t.json,
    });
    // highlightedTerms: the terms of query first, then the item's that matched.
    narrowed.body.highlightedTerms.unshift('mediatype_002');
    assert.deepEqual(byId(JSON.parse(res.body)), narrowed.body);
    const whole = JSON.parse((await t.app.inject({ url: `/search/mlt?id=${SOURCE}&fields=place,title&rows=1000`, headers: t.json })).body);
    const page = JSON.parse(
      (await t.app.inject({ url: `/search/mlt?id=${SOURCE}&fields=place,title&offset=1&rows=2`, headers: t.json })).body,
    );
    assert.deepEqual(page.results[0].docs, whole.results[0].docs.slice(1, 3));
    assert.equal(page.numberOfResults, whole.numberOfResults);
    // Default rows: 10.
    const first = JSON.parse((await t.app.inject({ url: `/search/mlt?id=${SOURCE}`, headers: t.json })).body);
    assert.equal(first.results[0].docs.length, Math.min(10, first.numberOfResults));
  });

  test(`${b} /search/mlt: bad input is a 4xx that says what to fix`, async () => {
    const t = await app();
    const cases: Array<[string, number, string, string]> = [
      [
        '/search/mlt',
        400,
        'InvalidSearchException',
        'id is missing: give the item to compare with, e.g. /search/mlt?id=<item id>&fields=place,title.',
      ],
      ['/search/mlt?id=NOPE', 404, 'ItemNotFoundException', "Item 'NOPE' not found."],
      [
        `/search/mlt?id=${SOURCE}&facet=place_fct`,
        400,
        'InvalidSearchException',
        'facet=place_fct is not offered here: give the item as facet=id&id=<item id> (or id=<item id> alone).',
      ],
      [
        `/search/mlt?id=${SOURCE}&fields=description`,
        400,
        'InvalidSearchException',
        "fields names 'description', which items are not compared by. Text fields: title, subtitle, keywords, affiliate, place, provider; facets: time_fct, place_fct, place_fct_normdata, affiliate_fct, affiliate_fct_normdata, affiliate_fct_role, affiliate_fct_role_normdata, affiliate_fct_involved, affiliate_fct_subject, keywords_fct, keywords_fct_normdata, topic_fct, objecttype_fct, objecttype_fct_normdata, apd_keywords_fct, language_fct, type_fct, sector_fct, provider_fct, provider_fct_normdata, dataprovider_fct, dataprovider_fct_normdata, has_media_fct, license, license_group, geocode.",
      ],
      [
        `/search/mlt?id=${SOURCE}&id=${SOURCE}`,
        400,
        'BadRequestException',
        'Bad request: querystring/id must be string. See /openapi.json for the parameters of this operation.',
      ],
      [`/search/mlt?id=${SOURCE}&query=title:(`, 400, 'QuerySyntaxException', ''],
      [
        `/search/mlt?id=${SOURCE}&sort=RELEVANCE`,
        400,
        'UnknownParameterException',
        "The query parameter 'sort' is not one this operation takes, so it would be ignored. Its parameters: id, facet, fields, query, offset, rows (and oauth_consumer_key). Check the spelling (names are case-sensitive), or see /openapi.json.",
      ],
      [
        `/search/mlt?id=${SOURCE}&rows=1001`,
        400,
        'InvalidParameterException',
        'The parameter rows must be given once, as a whole number from 0 to 1000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex).',
      ],
    ];
    for (const [url, status, name, message] of cases) {
      const res = await t.app.inject({ url, headers: t.json });
      assert.equal(res.statusCode, status, url);
      const got = JSON.parse(res.body);
      if (message === '') {
        assert.equal(got.name, name, url);
        assert.match(got.message, /^Query syntax error at position \d+: .+ See the query syntax in docs\/api\.md/, url);
      } else assert.deepEqual(got, { status, name, message }, url);
    }
  });

  test(`${b} mlt: close`, async () => {
    if (shared) await (await shared).close();
  });
}
