/**
 * v1 GET /search and the rest of the search family over the real server on the real
 * fixtures (docs/search.md): whole bodies, each computed here by brute force
 * from the store's own bodies (every package's search document and result doc), errors
 * included. /search/person is compared with /entities, which it serves unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { fold, tokens } from '../../src/search/engine/fold.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;

/** Every item as the store holds it now, read through its change feed (not through the index). */
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

const hasWord = (d: ItemDocuments, word: string) => Object.values(d.search.text).some((vs) => vs.some((v) => tokens(v).includes(word)));

function byTitle(a: ItemDocuments, b: ItemDocuments, descending = false): number {
  const x = a.search.sort.title as string | null;
  const y = b.search.sort.title as string | null;
  if (x !== y) {
    if (x === null) return 1;
    if (y === null) return -1;
    return descending ? compareCodePoints(y, x) : compareCodePoints(x, y);
  }
  return compareCodePoints(a.search.id, b.search.id);
}

function facetOf(hits: ItemDocuments[], field: string, limit: number, mincount = 1) {
  const counts = new Map<string, number>();
  for (const h of hits) for (const v of new Set(h.search.facets[field] ?? [])) counts.set(v, (counts.get(v) ?? 0) + 1);
  const values = [...counts]
    .filter(([, n]) => n >= mincount)
    .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
    .slice(0, limit)
    .map(([value, count]) => ({ count, value }));
  return { field, numberOfFacets: values.length, facetValues: values };
}

function body(
  hits: ItemDocuments[],
  page: ItemDocuments[],
  facets: unknown[],
  highlightedTerms: string[],
  extra: Record<string, unknown> = {},
  entities: unknown[] = [],
) {
  return {
    numberOfResults: hits.length,
    results: [{ name: 'single', docs: page.map((p) => p.result), numberOfDocs: hits.length }],
    facets,
    entities,
    correctedQuery: '',
    highlightedTerms,
    randomSeed: '',
    ...extra,
  };
}

const error = (status: number, name: string, message: string) => JSON.stringify({ status, name, message });

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR, `${FIXTURES}items/edm/`], loadEntities: [EF] }));

  test(`${b} /search: a word, a filter, facets, alphabetical paging, as the stored documents say`, async () => {
    const t = await app();
    const all = await storedItems(t);
    assert.ok(all.length > 1000);
    const hits = all.filter((d) => hasWord(d, 'goethe')).sort((x, y) => byTitle(x, y));
    assert.ok(hits.length >= 3, 'the fixtures have several Goethe items');
    const res = await t.app.inject({
      url: '/search?query=goethe&sort=ALPHA_ASC&rows=2&offset=1&facet=place_fct&facet=type_fct&facet.limit=3',
      headers: t.json,
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(
      JSON.parse(res.body),
      body(hits, hits.slice(1, 3), [facetOf(hits, 'place_fct', 3), facetOf(hits, 'type_fct', 3)], ['goethe']),
    );

    // A facet value filters (values of one facet OR-ed, facets AND-ed); minDocs drops the rare values.
    const media = all.filter((d) => d.search.facets.has_media_fct?.includes('false'));
    const mediaSorted = [...media].sort((x, y) => byTitle(x, y, true));
    const filtered = await t.app.inject({
      url: '/search?has_media_fct=false&sort=ALPHA_DESC&rows=3&facet=sector_fct&minDocs=1',
      headers: t.json,
    });
    assert.deepEqual(JSON.parse(filtered.body), body(media, mediaSorted.slice(0, 3), [facetOf(media, 'sector_fct', 100, 2)], []));
    const both = all.filter(
      (d) => d.search.facets.has_media_fct?.includes('false') && ['sec_02', 'sec_06'].some((s) => d.search.facets.sector_fct?.includes(s)),
    );
    const res2 = await t.app.inject({ url: '/search?has_media_fct=false&sector_fct=sec_02&sector_fct=sec_06&rows=0', headers: t.json });
    assert.deepEqual(JSON.parse(res2.body), body(both, [], [], []));

    // A field query and a per-field parameter.
    const titled = all.filter((d) => (d.search.text.title ?? []).some((v) => tokens(v).includes('goethe'))).sort((x, y) => byTitle(x, y));
    for (const url of ['/search?query=title:goethe&sort=ALPHA_ASC&rows=50', '/search?title=goethe&sort=ALPHA_ASC&rows=50']) {
      const r = await t.app.inject({ url, headers: t.json });
      assert.deepEqual(JSON.parse(r.body), body(titled, titled, [], ['goethe']), url);
    }
  });

  test(`${b} /search: relevance puts the exact title first; cursors page through every hit once`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const exact = all.filter((d) => fold(d.result.title) === 'goethe');
    assert.equal(exact.length, 1);
    const res = await t.app.inject({ url: '/search?query=Goethe&rows=1', headers: t.json });
    assert.equal(JSON.parse(res.body).results[0].docs[0].id, exact[0]!.search.id);

    const seen: string[] = [];
    let cursor = '*';
    for (let page = 0; page < 200; page++) {
      const r = await t.app.inject({
        url: `/search?query=*:*&rows=97&sort=RANDOM_42&cursorMark=${encodeURIComponent(cursor)}`,
        headers: t.json,
      });
      assert.equal(r.statusCode, 200);
      const b2 = JSON.parse(r.body);
      assert.equal(b2.randomSeed, '42');
      for (const d of b2.results[0].docs) seen.push(d.id);
      if (b2.nextCursorMark === cursor) break;
      cursor = b2.nextCursorMark;
    }
    assert.deepEqual([...seen].sort(), all.map((d) => d.search.id).sort());
  });

  test(`${b} /search: entities beside the items are the persons /entities finds by name`, async () => {
    const t = await app();
    const persons = await t.app.inject({ url: '/entities?query=preferredName:friedell OR variantName:friedell', headers: t.json });
    const expected = JSON.parse(persons.body).results[0].docs;
    assert.ok(expected.length >= 1);
    const res = await t.app.inject({ url: '/search?query=friedell', headers: t.json });
    assert.deepEqual(JSON.parse(res.body).entities, expected);
    const none = await t.app.inject({ url: '/search?query=title:friedell', headers: t.json });
    assert.deepEqual(JSON.parse(none.body).entities, []);
  });

  test(`${b} /search: bad parameters are 400s that say what to fix`, async () => {
    const t = await app();
    const cases: Array<[string, number, string, string]> = [
      [
        '/search?facet=nope_fct',
        400,
        'InvalidSearchException',
        "facet 'nope_fct' is not a facet of this index. Facets: time_fct, place_fct, place_fct_normdata, affiliate_fct, affiliate_fct_normdata, affiliate_fct_role, affiliate_fct_role_normdata, affiliate_fct_involved, affiliate_fct_subject, keywords_fct, keywords_fct_normdata, topic_fct, objecttype_fct, objecttype_fct_normdata, apd_keywords_fct, language_fct, type_fct, sector_fct, provider_fct, provider_fct_normdata, dataprovider_fct, dataprovider_fct_normdata, has_media_fct, license, license_group, geocode.",
      ],
      [
        '/search?sort=NEWEST',
        400,
        'InvalidSearchException',
        "sort 'NEWEST' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC or RANDOM_<seed>.",
      ],
      [
        '/search?rows=1001',
        400,
        'InvalidParameterException',
        'The parameter rows must be given once, as a whole number from 0 to 1000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex).',
      ],
      [
        '/search?offset=5&cursorMark=*',
        400,
        'InvalidSearchException',
        'offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).',
      ],
      [
        '/search?query=titel:goethe',
        400,
        'QuerySyntaxException',
        "Query syntax error at position 0: unknown field 'titel'; expected one of the fields id, title, subtitle, keywords, affiliate, description, place, ranking, provider, time_fct, place_fct, place_fct_normdata, affiliate_fct, affiliate_fct_normdata, affiliate_fct_role, affiliate_fct_role_normdata, affiliate_fct_involved, affiliate_fct_subject, keywords_fct, keywords_fct_normdata, topic_fct, objecttype_fct, objecttype_fct_normdata, apd_keywords_fct, language_fct, type_fct, sector_fct, provider_fct, provider_fct_normdata, dataprovider_fct, dataprovider_fct_normdata, has_media_fct, license, license_group, geocode, begin_time, end_time, geocode_0_coordinate, geocode_1_coordinate. See the query syntax in docs/api.md (Lucene standard syntax).",
      ],
      [
        '/search?language=ger',
        400,
        'UnsupportedParameterException',
        "The query parameter 'language' of the DDB API is not supported here, so it would be ignored. Filter with language_fct=<value> (facet=language_fct lists the values).",
      ],
      [
        '/search?defaultOperator=XOR',
        400,
        'BadRequestException',
        'Bad request: querystring/defaultOperator must be equal to one of the allowed values. See /openapi.json for the parameters of this operation.',
      ],
      [
        '/search?type_fct=',
        400,
        'InvalidSearchException',
        'type_fct is empty: give a value to keep (facet=type_fct lists them), or leave the parameter out.',
      ],
      ['/search?cursorMark=nonsense', 400, 'InvalidSearchException', ''],
      [
        '/search/suggest?query=%20',
        400,
        'InvalidSearchException',
        'query is empty: give the first letters of a title (of a name) to complete.',
      ],
    ];
    for (const [url, status, name, message] of cases) {
      const res = await t.app.inject({ url, headers: t.json });
      assert.equal(res.statusCode, status, `${url}: ${res.body}`);
      if (message === '') assert.equal(JSON.parse(res.body).name, name, url);
      else assert.equal(res.body, error(status, name, message), url);
    }
    const xml = await t.app.inject({ url: '/search', headers: t.xml });
    assert.equal(xml.statusCode, 406);
  });

  test(`${b} /2/search, /search/person, facets, sortcriteria and suggest`, async () => {
    const t = await app();
    const v1 = await t.app.inject({ url: '/search?query=goethe&facet=type_fct', headers: t.json });
    const v2 = await t.app.inject({ url: '/2/search?query=goethe&facet=type_fct', headers: t.json });
    assert.equal(v2.body, v1.body);
    const entities = await t.app.inject({ url: '/entities?query=friedell&facet=person_gender_fct', headers: t.json });
    const person = await t.app.inject({ url: '/search/person?query=friedell&facet=person_gender_fct', headers: t.json });
    assert.equal(person.statusCode, 200);
    assert.equal(person.body, entities.body);

    const facets = await t.app.inject({ url: '/search/facets?type=technical', headers: t.json });
    assert.equal(
      facets.body,
      JSON.stringify(
        [
          'place_fct_normdata',
          'affiliate_fct_normdata',
          'affiliate_fct_role_normdata',
          'keywords_fct_normdata',
          'objecttype_fct_normdata',
          'provider_fct_normdata',
          'dataprovider_fct_normdata',
        ].map((name) => ({ name, type: 'TECHNICAL' })),
      ),
    );
    const personFacets = await t.app.inject({ url: '/search/person/facets', headers: t.json });
    assert.equal(
      personFacets.body,
      JSON.stringify(
        ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'].map((name) => ({ name, type: 'SEARCH' })),
      ),
    );
    const sorts = await t.app.inject({ url: '/search/sortcriteria', headers: t.json });
    assert.equal(sorts.body, '{"sortCriteria":["RELEVANCE","ALPHA_ASC","ALPHA_DESC","RANDOM_<seed>"],"defaultSortCriterion":"RELEVANCE"}');
    const personSorts = await t.app.inject({ url: '/search/person/sortcriteria', headers: t.json });
    assert.equal(
      personSorts.body,
      '{"sortCriteria":["RELEVANCE","ALPHA_ASC","ALPHA_DESC","COUNT_DESC","RANDOM_<seed>"],"defaultSortCriterion":"RELEVANCE"}',
    );

    // Suggestions: per folded title, the first stored title as written, alphabetically.
    const all = await storedItems(t);
    const byKey = new Map<string, string>();
    for (const d of all) {
      const title = d.search.text.title?.[0];
      if (title !== undefined && fold(title).startsWith('goe') && !byKey.has(fold(title))) byKey.set(fold(title), title);
    }
    const suggest = await t.app.inject({ url: '/search/suggest?query=GOE&rows=5', headers: t.json });
    assert.deepEqual(
      JSON.parse(suggest.body),
      [...byKey]
        .sort((x, y) => compareCodePoints(x[0], y[0]))
        .slice(0, 5)
        .map(([, v]) => v),
    );
    assert.ok(byKey.size > 0);
    const names = await t.app.inject({ url: '/search/person/suggest?query=egon%20fr', headers: t.json });
    assert.deepEqual(JSON.parse(names.body), ['Egon Friedell']);
  });

  test(`${b} search app closes`, async () => {
    await (await app()).close();
  });
}
