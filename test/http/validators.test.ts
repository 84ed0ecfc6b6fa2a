/**
 * docs/decisions.md "Validators and caching": parents, children and /entities answer with an ETag (a
 * weak digest of the body, src/http/validators.ts), Cache-Control, and 304
 * when If-None-Match names it; the ETag follows the data.
 */
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FIXTURES } from '../helpers/paths.js';
import { writePackages } from '../helpers/packages.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;
const TREE = [
  { id: 'ROOT', title: 'Fonds', htype: 'htype_001' },
  { id: 'VOL1', title: 'Band 1', htype: 'htype_007', position: '1', parent: 'ROOT' },
  { id: 'VOL2', title: 'Band 2', htype: 'htype_007', position: '2', parent: 'ROOT' },
];

const digestTag = (body: Buffer | string) => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (run: (t: TestApp) => Promise<void>) => {
    const t = await startTestApp(backend, { load: [writePackages(TREE)], loadEntities: [EF] });
    try {
      await run(t);
    } finally {
      await t.close();
    }
  };

  for (const path of ['/items/VOL1/parents', '/items/ROOT/children', '/items/ROOT/children?offset=1&rows=1']) {
    test(`${b} ${path}: ETag of the body, Cache-Control, 304 on If-None-Match, in JSON and XML`, () =>
      withApp(async (t) => {
        for (const headers of [t.json, t.xml]) {
          const res = await t.app.inject({ url: path, headers });
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers.etag, digestTag(res.rawPayload));
          assert.equal(res.headers['cache-control'], 'public, max-age=300');
          assert.equal(res.headers['last-modified'], undefined, 'no one time says when such an answer changed');
          const etag = res.headers.etag;
          for (const inm of [etag, etag.slice(2), `"x", ${etag}`, '*']) {
            const again = await t.app.inject({ url: path, headers: { ...headers, 'if-none-match': inm } });
            assert.equal(again.statusCode, 304, inm);
            assert.equal(again.body, '');
            assert.deepEqual(
              [
                again.headers.etag,
                again.headers['cache-control'],
                again.headers.vary,
                again.headers['content-type'],
                again.headers['content-length'],
              ],
              [etag, 'public, max-age=300', 'Accept, Accept-Encoding', undefined, undefined],
            );
          }
          const other = await t.app.inject({ url: path, headers: { ...headers, 'if-none-match': 'W/"something-else"' } });
          assert.equal(other.statusCode, 200);
          assert.equal(other.body, res.body);
          // Without Last-Modified, If-Modified-Since cannot say "not modified".
          const since = await t.app.inject({ url: path, headers: { ...headers, 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' } });
          assert.equal(since.statusCode, 200);
        }
        // JSON and XML are different representations, with different tags.
        const json = await t.app.inject({ url: path, headers: t.json });
        const xml = await t.app.inject({ url: path, headers: t.xml });
        assert.notEqual(json.headers.etag, xml.headers.etag);
      }));
  }

  test(`${b} the validators of parents and children follow the data`, () =>
    withApp(async (t) => {
      const parents = await t.app.inject({ url: '/items/VOL1/parents', headers: t.json });
      const children = await t.app.inject({ url: '/items/ROOT/children', headers: t.json });
      // A new child of VOL1 changes its leaf flag in parents and ROOT's childCount of VOL1.
      const { ingestItems } = await import('../../src/ingest/ingestItems.js');
      await ingestItems(t.store, [writePackages([{ id: 'CHAP', title: 'Kapitel', parent: 'VOL1' }])], { batchSize: 10 });
      const parents2 = await t.app.inject({
        url: '/items/VOL1/parents',
        headers: { ...t.json, 'if-none-match': parents.headers.etag as string },
      });
      assert.equal(parents2.statusCode, 200);
      assert.notEqual(parents2.headers.etag, parents.headers.etag);
      assert.match(parents2.body, /"leaf":false/);
      const children2 = await t.app.inject({
        url: '/items/ROOT/children',
        headers: { ...t.json, 'if-none-match': children.headers.etag as string },
      });
      assert.equal(children2.statusCode, 200);
      assert.notEqual(children2.headers.etag, children.headers.etag);
    }));

  test(`${b} /entities: ETag of the body, compressed or not, 304 on If-None-Match`, () =>
    withApp(async (t) => {
      const url = '/entities?query=Berlin&rows=50&facet=person_place_fct';
      const plain = await t.app.inject({ url, headers: t.json });
      assert.equal(plain.statusCode, 200);
      assert.equal(plain.headers.etag, digestTag(plain.rawPayload));
      assert.equal(plain.headers['cache-control'], 'public, max-age=300');
      assert.equal(plain.headers.vary, 'accept-encoding');
      const gzip = await t.app.inject({ url, headers: { ...t.json, 'accept-encoding': 'gzip' } });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.equal(gzip.headers.etag, plain.headers.etag, 'one weak tag for the content in any coding');
      assert.equal(gzip.headers.vary, 'accept-encoding');
      assert.equal(gunzipSync(gzip.rawPayload).toString(), plain.body);
      const etag = String(plain.headers.etag);
      for (const extra of [{}, { 'accept-encoding': 'gzip' }] as Array<Record<string, string>>) {
        const headers: Record<string, string> = { ...t.json, ...extra, 'if-none-match': etag };
        const again = await t.app.inject({ url, headers });
        assert.equal(again.statusCode, 304);
        assert.equal(again.body, '');
        assert.deepEqual(
          [
            again.headers.etag,
            again.headers['cache-control'],
            again.headers['content-type'],
            again.headers['content-length'],
            again.headers['content-encoding'],
          ],
          [plain.headers.etag, 'public, max-age=300', undefined, undefined, undefined],
        );
      }
      // Another search, another body, another tag; errors carry none.
      const other = await t.app.inject({
        url: '/entities?query=Wien',
        headers: { ...t.json, 'if-none-match': plain.headers.etag },
      });
      assert.equal(other.statusCode, 200);
      assert.notEqual(other.headers.etag, plain.headers.etag);
      const bad = await t.app.inject({ url: '/entities?sort=nonsense', headers: { ...t.json, 'if-none-match': '*' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.headers.etag, undefined);
    }));
}
