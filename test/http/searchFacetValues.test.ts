/**
 * GET /search/facets/{facetName}, /search/person/facets/{facetName} (and /entities/…),
 * the facets/maxpages forms and the /entities aliases of facets, sortcriteria and suggest,
 * over the real server on the real fixtures: whole bodies, the item facets computed here by
 * brute force from the store's own bodies, the person facets compared with /entities.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { tokens } from '../../src/search/engine/fold.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;

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

const error = (status: number, name: string, message: string) => ({ status, name, message });

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR, `${FIXTURES}items/edm/`], loadEntities: [EF] }));

  test(`${b} /search/facets/{facetName}: the values of one facet over the hits, as the stored documents say`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const goethe = all.filter((d) => hasWord(d, 'goethe'));
    assert.ok(goethe.length >= 3);
    const res = await t.app.inject({ url: '/search/facets/place_fct?query=goethe&facet.limit=3', headers: t.json });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const expected = facetOf(goethe, 'place_fct', 3);
    assert.equal(expected.numberOfFacets, 3);
    assert.deepEqual(JSON.parse(res.body), expected);

    // Filters, minDocs and the per-field parameters narrow the hits as on /search; /2 answers the same.
    const media = all.filter((d) => d.search.facets.has_media_fct?.includes('false'));
    const filtered = await t.app.inject({ url: '/2/search/facets/sector_fct?has_media_fct=false&minDocs=1', headers: t.json });
    assert.deepEqual(JSON.parse(filtered.body), facetOf(media, 'sector_fct', 100, 2));
    const titled = all.filter((d) => (d.search.text.title ?? []).some((v) => tokens(v).includes('goethe')));
    const byTitle = await t.app.inject({ url: '/search/facets/type_fct?title=goethe', headers: t.json });
    assert.deepEqual(JSON.parse(byTitle.body), facetOf(titled, 'type_fct', 100));
    // Every item, no query: every value of the facet.
    const everything = await t.app.inject({ url: '/search/facets/has_media_fct', headers: t.json });
    assert.deepEqual(JSON.parse(everything.body), facetOf(all, 'has_media_fct', 100));
    // No hit: an empty facet.
    const none = await t.app.inject({ url: '/search/facets/place_fct?query=zzzqqqxxx', headers: t.json });
    assert.deepEqual(JSON.parse(none.body), { field: 'place_fct', numberOfFacets: 0, facetValues: [] });
  });

  test(`${b} /search/person/facets/{facetName} and /entities/facets/{facetName}: the facet of /entities?facet=…`, async () => {
    const t = await app();
    for (const [facet, query] of [
      ['person_gender_fct', 'friedell'],
      ['person_occupation_fct', '*:*'],
      ['person_place_fct', 'preferredName:egon'],
    ] as const) {
      const entities = await t.app.inject({ url: `/entities?query=${encodeURIComponent(query)}&facet=${facet}&rows=0`, headers: t.json });
      const entry = JSON.parse(entities.body).facets.find((f: { field: string }) => f.field === facet);
      assert.ok(entry.numberOfFacets > 0, `${facet} has values for ${query}`);
      for (const prefix of ['/search/person', '/entities', '/2/search/person']) {
        const res = await t.app.inject({ url: `${prefix}/facets/${facet}?query=${encodeURIComponent(query)}`, headers: t.json });
        assert.equal(res.statusCode, 200, prefix);
        assert.deepEqual(JSON.parse(res.body), entry, `${prefix} ${facet}`);
      }
    }
    // A filter and facet.limit as on /entities.
    const entities = await t.app.inject({
      url: '/entities?facet=person_occupation_fct&person_gender_fct=Frau&facet.limit=2&rows=0',
      headers: t.json,
    });
    const entry = JSON.parse(entities.body).facets.find((f: { field: string }) => f.field === 'person_occupation_fct');
    assert.equal(entry.numberOfFacets, 2);
    const res = await t.app.inject({
      url: '/search/person/facets/person_occupation_fct?person_gender_fct=Frau&facet.limit=2',
      headers: t.json,
    });
    assert.deepEqual(JSON.parse(res.body), entry);
  });

  test(`${b} facets/maxpages, and the /entities aliases of facets, sortcriteria and suggest`, async () => {
    const t = await app();
    for (const url of [
      '/search/facets/maxpages',
      '/search/person/facets/maxpages',
      '/entities/facets/maxpages',
      '/2/search/facets/maxpages',
    ]) {
      const res = await t.app.inject({ url, headers: t.json });
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(JSON.parse(res.body), { maxPages: 50001, rows: 20, maxOffset: 1_000_000 }, url);
    }
    // The last page maxpages names is one /search serves, and the one after it is refused.
    const last = await t.app.inject({ url: '/search?offset=1000000&rows=20', headers: t.json });
    assert.equal(last.statusCode, 200);
    const beyond = await t.app.inject({ url: '/search?offset=1000001&rows=20', headers: t.json });
    assert.equal(beyond.statusCode, 400);

    for (const path of ['/facets', '/facets?type=search', '/sortcriteria', '/suggest?query=egon%20fr']) {
      const person = await t.app.inject({ url: `/search/person${path}`, headers: t.json });
      const entities = await t.app.inject({ url: `/entities${path}`, headers: t.json });
      assert.equal(entities.statusCode, 200, path);
      assert.ok(person.body.length > 2, path);
      assert.equal(entities.body, person.body, path);
    }
  });

  test(`${b} facet values and maxpages: bad input is a 400 that says what to fix`, async () => {
    const t = await app();
    const cases: Array<[string, ReturnType<typeof error>]> = [
      [
        '/search/facets/nope_fct',
        error(
          400,
          'InvalidSearchException',
          "'nope_fct' is not a facet of the item search. Facets: time_fct, place_fct, place_fct_normdata, affiliate_fct, affiliate_fct_normdata, affiliate_fct_role, affiliate_fct_role_normdata, affiliate_fct_involved, affiliate_fct_subject, keywords_fct, keywords_fct_normdata, topic_fct, objecttype_fct, objecttype_fct_normdata, apd_keywords_fct, language_fct, type_fct, sector_fct, provider_fct, provider_fct_normdata, dataprovider_fct, dataprovider_fct_normdata, has_media_fct, license, license_group, geocode.",
        ),
      ],
      [
        '/search/person/facets/place_fct',
        error(
          400,
          'InvalidSearchException',
          "'place_fct' is not a facet of the person search. Facets: person_name_fct, person_place_fct, person_gender_fct, person_occupation_fct.",
        ),
      ],
      [
        '/search/facets/place_fct?rows=5',
        error(
          400,
          'UnsupportedParameterException',
          "The query parameter 'rows' of the DDB API is not supported here, so it would be ignored. A facet lists its values, not hits: limit them with facet.limit and minDocs (GET /search returns the hits).",
        ),
      ],
      [
        '/entities/facets/person_gender_fct?sort=ALPHA_ASC',
        error(
          400,
          'UnsupportedParameterException',
          "The query parameter 'sort' of the DDB API is not supported here, so it would be ignored. Facet values come by count descending, ties by value; GET /search sorts the hits.",
        ),
      ],
      [
        '/search/facets/place_fct?facet=type_fct',
        error(
          400,
          'UnsupportedParameterException',
          "The query parameter 'facet' of the DDB API is not supported here, so it would be ignored. The facet is the one the path names (/search/facets/<name>): ask once per facet, or GET /search?facet=<a>&facet=<b>&rows=0 for several at once.",
        ),
      ],
      [
        '/search/facets/place_fct?language=ger',
        error(
          400,
          'UnsupportedParameterException',
          "The query parameter 'language' of the DDB API is not supported here, so it would be ignored. Filter with language_fct=<value> (facet=language_fct lists the values).",
        ),
      ],
      [
        '/entities/facets/person_gender_fct?query=((',
        error(
          400,
          'QuerySyntaxException',
          "Query syntax error at position 2: expected a term after '('. See the query syntax in docs/api.md (Lucene standard syntax).",
        ),
      ],
      [
        '/search/facets/place_fct?facet.limit=-1',
        error(
          400,
          'InvalidParameterException',
          'The parameter facet.limit must be given once, as a whole number from 0 to 1000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex).',
        ),
      ],
      [
        '/search/facets/maxpages?rows=2',
        error(
          400,
          'UnknownParameterException',
          "The query parameter 'rows' is not one this operation takes, so it would be ignored. Its parameters: none (oauth_consumer_key aside). Check the spelling (names are case-sensitive), or see /openapi.json.",
        ),
      ],
    ];
    for (const [url, expected] of cases) {
      const res = await t.app.inject({ url, headers: t.json });
      assert.equal(res.statusCode, 400, url);
      assert.deepEqual(JSON.parse(res.body), expected, url);
    }
    const unknown = await t.app.inject({ url: '/search/person/facets/person_gender_fct?bogus=1', headers: t.json });
    assert.deepEqual(
      JSON.parse(unknown.body),
      error(
        400,
        'UnknownParameterException',
        "The query parameter 'bogus' is not one this operation takes, so it would be ignored. Its parameters: query, facet.limit, minDocs, person_name_fct, person_place_fct, person_gender_fct, person_occupation_fct, id, preferredName, variantName, professionOrOccupation, placeOfBirth, placeOfDeath, type, count, dateOfBirth_de, dateOfDeath_de (and oauth_consumer_key). Check the spelling (names are case-sensitive), or see /openapi.json.",
      ),
    );
    // JSON only: an Accept without JSON is a 406.
    const xml = await t.app.inject({ url: '/search/facets/place_fct', headers: t.xml });
    assert.equal(xml.statusCode, 406);
  });

  test(`${b} facet values: close`, async () => {
    if (shared) await (await shared).close();
  });
}
