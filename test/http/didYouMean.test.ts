/**
 * "Did you mean" over HTTP (docs/search-engine.md "Spellcheck"): /entities, /search/person, /search and the
 * Solr-native select's spellcheck block, on the real fixtures. The hits stay those of the
 * query as sent, so a misspelt query's body is the body of a query that finds nothing,
 * with its correction; a right query gets no correction. The corrections themselves are
 * tabled in test/search/spellcheck.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

async function get(t: TestApp, url: string): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ url, headers: t.json });
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** Solr's QTime is measured: checked, then set to 0. */
async function solr(t: TestApp, url: string): Promise<Record<string, unknown>> {
  const body = (await get(t, url)) as { responseHeader: { QTime: number } };
  assert.ok(Number.isInteger(body.responseHeader.QTime));
  body.responseHeader.QTime = 0;
  return body;
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () =>
    (shared ??= startTestApp(backend, {
      load: [CORTEX_DIR],
      loadEntities: [`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`],
    }));

  for (const path of ['/entities', '/search/person']) {
    test(`${b} ${path}: a misspelt word gets correctedQuery, the hits stay those of the query as sent`, async () => {
      const a = await app();
      const none = await get(a, `${path}?query=Qqqqxxxx&facet=person_gender_fct`);
      assert.equal(none.numberOfResults, 0);
      assert.equal(none.correctedQuery, '');
      assert.deepEqual(await get(a, `${path}?query=Schriftsteler&facet=person_gender_fct`), { ...none, correctedQuery: 'Schriftsteller' });
      // A field query keeps its field, as written.
      assert.deepEqual(await get(a, `${path}?query=professionOrOccupation:Schriftstelerin&facet=person_gender_fct`), {
        ...none,
        correctedQuery: 'professionOrOccupation:Schriftstellerin',
      });
      // Rare but right: found, not corrected.
      const right = await get(a, `${path}?query=Wagner`);
      assert.ok((right.numberOfResults as number) > 0);
      assert.equal(right.correctedQuery, '');
    });
  }

  test(`${b} /search: a misspelt title word gets correctedQuery`, async () => {
    const a = await app();
    const none = await get(a, '/search?query=Qqqqxxxx&facet=type_fct');
    assert.equal(none.numberOfResults, 0);
    assert.deepEqual(await get(a, '/search?query=Goehte&facet=type_fct'), { ...none, correctedQuery: 'Goethe' });
    const right = await get(a, '/search?query=Goethe');
    assert.ok((right.numberOfResults as number) > 0);
    assert.equal(right.correctedQuery, '');
  });

  test(`${b} select: spellcheck=true adds Solr's spellcheck block with the collation`, async () => {
    const a = await app();
    const base = '/search/index/search/select?wt=json&rows=0&spellcheck=true&q=';
    const sent = await solr(a, `${base}Goehte`);
    assert.deepEqual(sent, {
      responseHeader: { status: 0, QTime: 0, params: { wt: 'json', rows: '0', spellcheck: 'true', q: 'Goehte' } },
      response: { numFound: 0, start: 0, numFoundExact: true, docs: [] },
      spellcheck: { suggestions: [], correctlySpelled: false, collations: ['collation', 'Goethe'] },
    });
    const right = (await solr(a, `${base}Goethe`)) as { response: { numFound: number }; spellcheck: unknown };
    assert.ok(right.response.numFound > 0);
    assert.deepEqual(right.spellcheck, { suggestions: [], correctlySpelled: true, collations: [] });
    // Without spellcheck=true there is no block.
    assert.equal('spellcheck' in (await solr(a, '/search/index/search/select?wt=json&rows=0&q=Goehte')), false);
    const bad = await a.app.inject({ url: `${base}Goehte&spellcheck.minHits=-1`, headers: a.json });
    assert.equal(bad.statusCode, 400);
    assert.match(JSON.parse(bad.body).error.msg, /spellcheck\.minHits must be a whole number ≥ 0/);
  });
}
