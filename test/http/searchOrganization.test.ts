/**
 * GET /search/organization and its family over the real server on the real fixtures:
 * whole bodies, computed here from the store's own list of institutions (the one
 * /institutions shows), errors included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { fold, tokens } from '../../src/search/engine/fold.js';
import type { ProviderSummary } from '../../src/domain/institution.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const num = (text: string, limit: number) => (/^-?\d+(\.\d+)?$/.test(text) && Math.abs(Number(text)) <= limit ? Number(text) : null);

const doc = (p: ProviderSummary) => ({
  id: p.ddbId || p.providerId || p.key,
  ddb_organization_id: p.ddbId,
  preferredName: p.name,
  sector_fct: p.sectors,
  state: p.state,
  parent_id: p.parentId,
  latitude: num(p.latitude, 90),
  longitude: num(p.longitude, 180),
  uri: p.uri,
  count: p.itemCount,
});
type Doc = ReturnType<typeof doc>;

const byName = (a: Doc, b: Doc) => compareCodePoints(fold(a.preferredName), fold(b.preferredName)) || compareCodePoints(a.id, b.id);

function facetOf(docs: Doc[], field: 'sector_fct' | 'state_fct') {
  const counts = new Map<string, number>();
  for (const d of docs)
    for (const v of field === 'sector_fct' ? d.sector_fct : d.state === '' ? [] : [d.state]) counts.set(v, (counts.get(v) ?? 0) + 1);
  const values = [...counts].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0])).map(([value, count]) => ({ count, value }));
  return { field, numberOfFacets: values.length, facetValues: values };
}

const body = (hits: Doc[], page: Doc[], facets: unknown[] = [], highlightedTerms: string[] = [], randomSeed = '') => ({
  numberOfResults: hits.length,
  results: [{ name: 'single', docs: page, numberOfDocs: hits.length }],
  facets,
  correctedQuery: '',
  highlightedTerms,
  randomSeed,
});

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR, `${FIXTURES}items/edm/`] }));
  const get = async (t: TestApp, url: string) => {
    const res = await t.app.inject({ url, headers: t.json });
    return { status: res.statusCode, type: res.headers['content-type'], body: JSON.parse(res.body) as unknown };
  };

  test(`${b} /search/organization: the institutions of the stored packages, searched, sorted, counted`, async () => {
    const t = await app();
    const all = (await t.store.listProviders()).map(doc);
    assert.ok(all.length >= 5, 'the fixtures name several institutions');
    const alpha = [...all].sort(byName);
    const res = await get(t, '/search/organization?sort=ALPHA_ASC&rows=1000&facet=sector_fct&facet=state_fct');
    assert.equal(res.status, 200);
    assert.equal(res.type, 'application/json; charset=utf-8');
    assert.deepEqual(res.body, body(all, alpha, [facetOf(all, 'sector_fct'), facetOf(all, 'state_fct')]));
    assert.deepEqual(
      (await get(t, '/2/search/organization?sort=alpha_desc&rows=2&offset=1')).body,
      body(all, [...alpha].reverse().slice(1, 3)),
    );

    // A word of the name; a sector; institutions that delivered items, by their number.
    const leipzig = all.filter((d) => tokens(d.preferredName).includes('leipzig'));
    assert.ok(leipzig.length >= 1);
    assert.deepEqual(
      (await get(t, '/search/organization?query=Leipzig&sort=ALPHA_ASC')).body,
      body(leipzig, leipzig.sort(byName), [], ['Leipzig']),
    );
    const sector = all.filter((d) => d.sector_fct.includes('sec_02')).sort(byName);
    assert.ok(sector.length >= 1);
    assert.deepEqual((await get(t, '/search/organization?sector_fct=sec_02&sort=ALPHA_ASC')).body, body(sector, sector));
    const delivered = all.filter((d) => d.count >= 1).sort((x, y) => y.count - x.count || compareCodePoints(x.id, y.id));
    assert.ok(delivered.length >= 2 && delivered.length < all.length, 'some institutions delivered items, some are only parents');
    assert.deepEqual((await get(t, '/search/organization?hasItems=true&sort=COUNT_DESC&rows=1000')).body, body(delivered, delivered));
    assert.deepEqual(
      (await get(t, '/search/organization?query=count:[1%20TO%20*]&sort=COUNT_DESC&rows=1000')).body,
      body(delivered, delivered),
    );
    const first = delivered[0]!;
    assert.deepEqual(
      (await get(t, `/search/organization?id=${encodeURIComponent(first.id)}`)).body,
      body([first], [first], [], [first.id]),
    );

    // Cursors page through every institution once.
    const seen: string[] = [];
    let cursor = '*';
    for (let i = 0; i < 50; i++) {
      const page = (await get(t, `/search/organization?rows=3&sort=RANDOM_7&cursorMark=${encodeURIComponent(cursor)}`)).body as {
        results: Array<{ docs: Doc[] }>;
        nextCursorMark: string;
        randomSeed: string;
      };
      assert.equal(page.randomSeed, '7');
      seen.push(...page.results[0]!.docs.map((d) => d.id));
      if (page.nextCursorMark === cursor) break;
      cursor = page.nextCursorMark;
    }
    assert.deepEqual([...seen].sort(compareCodePoints), all.map((d) => d.id).sort(compareCodePoints));
  });

  test(`${b} /search/organization/facets, facets/{facetName}, maxpages, sortcriteria, suggest`, async () => {
    const t = await app();
    const all = (await t.store.listProviders()).map(doc);
    const facets = [
      { name: 'sector_fct', type: 'SEARCH' },
      { name: 'state_fct', type: 'SEARCH' },
    ];
    assert.deepEqual((await get(t, '/search/organization/facets')).body, facets);
    assert.deepEqual((await get(t, '/search/organization/facets?type=search')).body, facets);
    assert.deepEqual((await get(t, '/search/organization/facets?type=technical')).body, []);
    const delivered = all.filter((d) => d.count >= 1);
    assert.deepEqual((await get(t, '/search/organization/facets/sector_fct?hasItems=true')).body, facetOf(delivered, 'sector_fct'));
    assert.deepEqual((await get(t, '/search/organization/facets/state_fct')).body, facetOf(all, 'state_fct'));
    assert.deepEqual((await get(t, '/search/organization/facets/maxpages')).body, { maxPages: 50001, rows: 20, maxOffset: 1_000_000 });
    assert.deepEqual((await get(t, '/search/organization/sortcriteria')).body, {
      sortCriteria: ['RELEVANCE', 'ALPHA_ASC', 'ALPHA_DESC', 'COUNT_DESC', 'RANDOM_<seed>'],
      defaultSortCriterion: 'RELEVANCE',
    });
    const name = all[0]!.preferredName;
    const prefix = name.slice(0, 3).toUpperCase();
    const names = [
      ...new Map(
        all.filter((d) => fold(d.preferredName).startsWith(fold(prefix))).map((d) => [fold(d.preferredName), d.preferredName]),
      ).entries(),
    ]
      .sort((a, b) => compareCodePoints(a[0], b[0]))
      .map(([, n]) => n);
    assert.ok(names.includes(name));
    assert.deepEqual((await get(t, `/search/organization/suggest?query=${encodeURIComponent(prefix)}`)).body, names);
  });

  test(`${b} /search/organization: bad input is a 400 that says what to fix`, async () => {
    const t = await app();
    const cases: Array<[string, string, string]> = [
      [
        '/search/organization/facets/city_fct',
        'InvalidSearchException',
        "'city_fct' is not a facet of the organization search. Facets: sector_fct, state_fct.",
      ],
      [
        '/search/organization?facet=topic_fct',
        'InvalidSearchException',
        "'topic_fct' is not a facet of the organization search. Facets: sector_fct, state_fct.",
      ],
      [
        '/search/organization?city=Berlin',
        'UnsupportedParameterException',
        'The query parameter \'city\' of the DDB API is not supported here, so it would be ignored. The packages do not describe institutions by this: search preferredName, state, sector_fct, state_fct, count or id (docs/search.md "Organizations").',
      ],
      [
        '/search/organization?sort=NEWEST',
        'InvalidSearchException',
        "sort 'NEWEST' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC, RANDOM_<seed>.",
      ],
      [
        '/search/organization?offset=2&cursorMark=*',
        'InvalidSearchException',
        'offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).',
      ],
      [
        '/search/organization?count=many',
        'InvalidSearchException',
        'count must be a whole number in the digits 0-9, e.g. count=3; for a range use query=count:[1 TO *].',
      ],
      ['/search/organization?query=city:Berlin', 'QuerySyntaxException', ''],
      ['/search/organization/suggest?query=%20', 'InvalidSearchException', 'query is empty: give the first letters of a name to complete.'],
      [
        '/search/organization/sortcriteria?rows=1',
        'UnknownParameterException',
        "The query parameter 'rows' is not one this operation takes, so it would be ignored. Its parameters: none (oauth_consumer_key aside). Check the spelling (names are case-sensitive), or see /openapi.json.",
      ],
      [
        '/search/organization?bogus=1',
        'UnknownParameterException',
        "The query parameter 'bogus' is not one this operation takes, so it would be ignored. Its parameters: query, defaultOperator, facet.limit, minDocs, sector_fct, state_fct, id, preferredName, state, count, hasItems, facet, offset, rows, sort, cursorMark (and oauth_consumer_key). Check the spelling (names are case-sensitive), or see /openapi.json.",
      ],
    ];
    for (const [url, name, message] of cases) {
      const res = await get(t, url);
      assert.equal(res.status, 400, url);
      const got = res.body as { name: string; message: string };
      if (message === '') {
        assert.equal(got.name, name, url);
        assert.match(got.message, /city/, url);
      } else assert.deepEqual(got, { status: 400, name, message }, url);
    }
  });

  test(`${b} organizations: close`, async () => {
    if (shared) await (await shared).close();
  });
}
