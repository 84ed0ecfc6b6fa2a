/**
 * Every hit as JSON Lines over HTTP (docs/export.md): `Accept: application/x-ndjson` on
 * /search, /search/person and /entities streams each hit's doc, one per line, in id order,
 * the same docs the JSON answers hold; `afterId` resumes; a bad query is still a 400.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const NDJSON = { accept: 'application/x-ndjson' };

async function docsOf(t: TestApp, url: string): Promise<Array<{ id: string }>> {
  const docs: Array<{ id: string }> = [];
  for (let total = Infinity; docs.length < total;) {
    const res = await t.app.inject({ url: `${url}&rows=1000&offset=${docs.length}`, headers: t.json });
    assert.equal(res.statusCode, 200, res.body);
    const body = JSON.parse(res.body) as { numberOfResults: number; results: Array<{ docs: Array<{ id: string }> }> };
    total = body.numberOfResults;
    if (body.results[0]!.docs.length === 0) break;
    docs.push(...body.results[0]!.docs);
  }
  return docs.sort((a, b) => compareCodePoints(a.id, b.id));
}

async function lines(t: TestApp, url: string): Promise<unknown[]> {
  const res = await t.app.inject({ url, headers: { ...t.json, ...NDJSON } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/x-ndjson; charset=utf-8');
  assert.ok(res.body === '' || res.body.endsWith('\n'));
  return res.body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () =>
    (shared ??= startTestApp(backend, {
      load: [CORTEX_DIR, `${FIXTURES}items/edm/`],
      loadEntities: [`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`],
    }));

  test(`${b} /search as JSON Lines: every hit's doc once, in id order, with filters; afterId resumes`, async () => {
    const t = await app();
    const all = await docsOf(t, '/search?query=*:*');
    assert.ok(all.length > 100);
    assert.deepEqual(await lines(t, '/search?query=*:*'), all);
    const filtered = await docsOf(t, '/search?query=*:*&type_fct=mediatype_002');
    assert.ok(filtered.length > 0 && filtered.length < all.length);
    assert.deepEqual(await lines(t, '/search?query=*:*&type_fct=mediatype_002'), filtered);
    assert.deepEqual(await lines(t, `/search?query=*:*&afterId=${all[9]!.id}`), all.slice(10));
    assert.deepEqual(await lines(t, '/search?query=Qqqqxxxx'), []);
  });

  for (const path of ['/search/person', '/entities']) {
    test(`${b} ${path} as JSON Lines: the entity docs of every hit`, async () => {
      const t = await app();
      const hits = await docsOf(t, `${path}?query=Berlin`);
      assert.ok(hits.length > 10);
      assert.deepEqual(await lines(t, `${path}?query=Berlin`), hits);
    });
  }

  test(`${b} JSON Lines of a query that cannot be parsed: the catalog's 400`, async () => {
    const t = await app();
    const json = await t.app.inject({ url: '/search?query=title:(', headers: t.json });
    const ndjson = await t.app.inject({ url: '/search?query=title:(', headers: { ...t.json, ...NDJSON } });
    assert.equal(json.statusCode, 400);
    assert.deepEqual({ status: ndjson.statusCode, body: JSON.parse(ndjson.body) }, { status: 400, body: JSON.parse(json.body) });
    const empty = await t.app.inject({ url: '/search?query=*:*&afterId=', headers: { ...t.json, ...NDJSON } });
    assert.equal(empty.statusCode, 400);
    assert.match(JSON.parse(empty.body).message ?? empty.body, /afterId must be given once/);
  });

  test(`${b} ndjson app closes`, async () => {
    await (await app()).close();
  });
}
