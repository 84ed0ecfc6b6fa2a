/**
 * The licence facets `license` and `license_group` (docs/search.md "Licences") on v1 /search,
 * /2/search and the Solr-native select, over the real server on the real fixtures: whole
 * bodies, computed here by brute force from the store's own bodies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

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

function byTitle(a: ItemDocuments, b: ItemDocuments): number {
  const x = a.search.sort.title as string | null;
  const y = b.search.sort.title as string | null;
  if (x !== y) {
    if (x === null) return 1;
    if (y === null) return -1;
    return compareCodePoints(x, y);
  }
  return compareCodePoints(a.search.id, b.search.id);
}

function counted(hits: ItemDocuments[], field: string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const h of hits) for (const v of new Set(h.search.facets[field] ?? [])) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]));
}

const facetOf = (hits: ItemDocuments[], field: string) => {
  const values = counted(hits, field).map(([value, count]) => ({ count, value }));
  return { field, numberOfFacets: values.length, facetValues: values };
};

const PDM = 'http://creativecommons.org/publicdomain/mark/1.0/';

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR, `${FIXTURES}items/edm/`] }));

  test(`${b} /search and /2/search: the reusable items by licence group, with both licence facets`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const reusable = all.filter((d) => ['rights_001', 'rights_002'].some((g) => d.search.facets.license_group?.includes(g))).sort(byTitle);
    assert.ok(reusable.length > 200 && reusable.length < all.length, `${reusable.length} of ${all.length}`);
    const expected = {
      numberOfResults: reusable.length,
      results: [{ name: 'single', docs: reusable.slice(0, 4).map((d) => d.result), numberOfDocs: reusable.length }],
      facets: [facetOf(reusable, 'license_group'), facetOf(reusable, 'license')],
      entities: [],
      correctedQuery: '',
      highlightedTerms: [],
      randomSeed: '',
    };
    for (const base of ['/search', '/2/search']) {
      const res = await t.app.inject({
        url: `${base}?license_group=rights_001&license_group=rights_002&facet=license_group&facet=license&sort=ALPHA_ASC&rows=4`,
        headers: t.json,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(JSON.parse(res.body), expected, base);
    }

    // A licence URI in another spelling (https, the German deed) finds the items of its facet value.
    const marked = all.filter((d) => d.search.facets.license?.includes(PDM)).sort(byTitle);
    assert.equal(marked.length, 2);
    const res = await t.app.inject({
      url: `/search?license=${encodeURIComponent('https://creativecommons.org/publicdomain/mark/1.0/deed.de')}&sort=ALPHA_ASC`,
      headers: t.json,
    });
    assert.deepEqual(
      JSON.parse(res.body).results[0].docs,
      marked.map((d) => d.result),
    );

    // /search/facets lists them; an empty filter says what to give.
    const facets = JSON.parse((await t.app.inject({ url: '/search/facets?type=search', headers: t.json })).body) as Array<{ name: string }>;
    assert.ok(facets.some((f) => f.name === 'license_group'));
    const empty = await t.app.inject({ url: '/search?license_group=', headers: t.json });
    assert.equal(empty.statusCode, 400);
    assert.equal(
      empty.body,
      JSON.stringify({
        status: 400,
        name: 'InvalidSearchException',
        message: 'license_group is empty: give a value to keep (facet=license_group lists them), or leave the parameter out.',
      }),
    );
  });

  test(`${b} select: fq=license:… and facet.field=license_group in Solr's JSON`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const marked = all.filter((d) => d.search.facets.license?.includes(PDM)).sort((x, y) => compareCodePoints(x.search.id, y.search.id));
    const fq = `license:"${PDM}"`;
    const res = await t.app.inject({
      url: `/search/index/search/select?q=*:*&fq=${encodeURIComponent(fq)}&fl=id,license,license_group&sort=id%20asc&facet=true&facet.field=license_group`,
      headers: t.json,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = JSON.parse(res.body);
    assert.ok(Number.isInteger(body.responseHeader.QTime));
    body.responseHeader.QTime = 0;
    assert.deepEqual(body, {
      responseHeader: {
        status: 0,
        QTime: 0,
        params: { q: '*:*', fq, fl: 'id,license,license_group', sort: 'id asc', facet: 'true', 'facet.field': 'license_group' },
      },
      response: {
        numFound: marked.length,
        start: 0,
        numFoundExact: true,
        docs: marked.map((d) => ({ id: d.search.id, license: [PDM], license_group: ['rights_001'] })),
      },
      facet_counts: {
        facet_queries: {},
        // facet.mincount 0 (Solr's default): the groups without a hit are listed too
        facet_fields: { license_group: ['rights_001', 2, 'rights_002', 0, 'rights_003', 0] },
        facet_ranges: {},
        facet_intervals: {},
        facet_heatmaps: {},
      },
    });
  });

  test(`${b} licence search app closes`, async () => {
    if (shared) await (await shared).close();
  });
}
