/**
 * docs/decisions.md "Beyond the spec": ETag + 304, Last-Modified, Cache-Control,
 * gzip/brotli, CORS with preflight, per-key rate limits, OpenAPI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { writePackages } from '../helpers/packages.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';

const aip = `/items/${CHAPTER_ID}/aip`;

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} ETag, Last-Modified and Cache-Control; If-None-Match and If-Modified-Since give 304`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const first = await t.app.inject({ url: aip, headers: t.json });
      const etag = first.headers.etag as string;
      assert.match(etag, /^"[A-Za-z0-9_-]{27}-json"$/);
      assert.equal(first.headers['cache-control'], 'public, max-age=300');
      assert.equal(first.headers.vary, 'Accept, Accept-Encoding');
      const lastModified = first.headers['last-modified'] as string;
      assert.ok(Number.isFinite(Date.parse(lastModified)));
      const xml = await t.app.inject({ url: aip, headers: t.xml });
      assert.notEqual(xml.headers.etag, etag, 'JSON and XML are different representations');

      const again = await t.app.inject({ url: aip, headers: { ...t.json, 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      const weak = await t.app.inject({ url: aip, headers: { ...t.json, 'if-none-match': `"other", W/${etag}` } });
      assert.equal(weak.statusCode, 304);
      const changed = await t.app.inject({ url: aip, headers: { ...t.json, 'if-none-match': '"other"' } });
      assert.equal(changed.statusCode, 200);
      const since = await t.app.inject({ url: aip, headers: { ...t.json, 'if-modified-since': lastModified } });
      assert.equal(since.statusCode, 304);
      const before = await t.app.inject({ url: aip, headers: { ...t.json, 'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
      assert.equal(before.statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test(`${b} a re-load of the same package keeps its ETag and Last-Modified`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const first = await t.app.inject({ url: aip, headers: t.json });
      await new Promise((r) => setTimeout(r, 1100));
      const { ingestItems } = await import('../../src/ingest/ingestItems.js');
      const summary = await ingestItems(t.store, [CORTEX_DIR], { batchSize: 10 });
      assert.equal(summary.inserted + summary.updated, 0);
      const second = await t.app.inject({ url: aip, headers: t.json });
      assert.equal(second.headers.etag, first.headers.etag);
      assert.equal(second.headers['last-modified'], first.headers['last-modified']);
    } finally {
      await t.close();
    }
  });

  test(`${b} gzip and brotli: the package comes compressed and decompresses to the same bytes`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const expected = readFileSync(`${CORTEX_DIR}${CHAPTER_ID}.xml`);
      for (const [accept, encoding, decode] of [
        ['gzip', 'gzip', gunzipSync],
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['br;q=0.5, gzip', 'gzip', gunzipSync],
      ] as const) {
        for (let i = 0; i < 2; i++) {
          // the second round comes from the compressed cache
          const res = await t.app.inject({ url: aip, headers: { ...t.xml, 'accept-encoding': accept } });
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers['content-encoding'], encoding, accept);
          assert.match(res.headers.etag as string, new RegExp(`-xml-${encoding}"$`));
          assert.ok(res.rawPayload.length < expected.length / 3, 'compressed');
          assert.deepEqual(decode(res.rawPayload), expected);
        }
      }
      const identity = await t.app.inject({ url: aip, headers: { ...t.xml, 'accept-encoding': 'identity' } });
      assert.equal(identity.headers['content-encoding'], undefined);
      assert.deepEqual(identity.rawPayload, expected);
      // A large parents or error body is compressed by the generic plugin.
      const parents = await t.app.inject({ url: `/items/${CHAPTER_ID}/parents`, headers: { ...t.json, 'accept-encoding': 'gzip' } });
      assert.equal(parents.statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test(`${b} a compressed package follows changes: a new version comes with its new ETag, a blocked one is refused`, async () => {
    const first = writePackages([{ id: 'GZIPCHANGE', title: 'first version' }]);
    const t = await startTestApp(backend, { load: [first] });
    try {
      const url = '/items/GZIPCHANGE/aip';
      const headers = { ...t.xml, 'accept-encoding': 'gzip' };
      const before = await t.app.inject({ url, headers });
      assert.match(gunzipSync(before.rawPayload).toString(), /<dc:title>first version<\/dc:title>/);
      await ingestItems(t.store, [writePackages([{ id: 'GZIPCHANGE', title: 'second version' }])], { batchSize: 10 });
      const after = await t.app.inject({ url, headers });
      assert.equal(after.statusCode, 200);
      assert.match(gunzipSync(after.rawPayload).toString(), /<dc:title>second version<\/dc:title>/);
      assert.notEqual(after.headers.etag, before.headers.etag);
      const revalidated = await t.app.inject({ url, headers: { ...headers, 'if-none-match': after.headers.etag as string } });
      assert.equal(revalidated.statusCode, 304);
      assert.equal(revalidated.headers.etag, (after.headers.etag as string).replace(/-gzip"$/, '"'));
      await t.store.blockItem('GZIPCHANGE', 'Withdrawn by the provider.');
      const blocked = await t.app.inject({ url, headers });
      assert.equal(blocked.statusCode, 403);
      assert.equal(blocked.headers['content-encoding'], undefined);
      assert.equal(
        blocked.body,
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>403</status><name>ItemBlockedException</name>' +
          "<message>Item 'GZIPCHANGE' is not available through this interface: Withdrawn by the provider.</message></error>",
      );
    } finally {
      await t.close();
    }
  });

  test(`${b} CORS: preflight without a key, and Access-Control-Allow-Origin on answers`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const pre = await t.app.inject({
        method: 'OPTIONS',
        url: aip,
        headers: {
          origin: 'https://portal.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization, accept',
        },
      });
      assert.equal(pre.statusCode, 204);
      assert.equal(pre.headers['access-control-allow-origin'], '*');
      assert.equal(pre.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
      assert.match(String(pre.headers['access-control-allow-headers']), /Authorization/);
      const res = await t.app.inject({ url: aip, headers: { ...t.json, origin: 'https://portal.example' } });
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.match(String(res.headers['access-control-expose-headers']), /ETag/);
    } finally {
      await t.close();
    }
  });

  test(`${b} per-key rate limit: 429 with Retry-After once the key has used its requests`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags: { http: { rateLimitMax: 2, rateLimitWindowSeconds: 60 } } });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ url: aip, headers: t.json })).statusCode, 200);
      const limited = await t.app.inject({ url: aip, headers: t.json });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.headers['retry-after'], '60');
      assert.equal(
        limited.body,
        JSON.stringify({
          status: 429,
          name: 'TooManyRequestsException',
          message:
            'Too many requests for this API key (or, without a valid key, from this address). Wait 60 seconds (see the Retry-After header) and try again.',
        }),
      );
      // The query form of the same key shares its budget (docs/decisions.md "Rate limits";
      // test/http/rateLimit.test.ts has more).
      const query = await t.app.inject({ url: `${aip}?oauth_consumer_key=${t.key}`, headers: { accept: 'application/json' } });
      assert.equal(query.statusCode, 429);
    } finally {
      await t.close();
    }
  });

  test(`${b} /openapi.json: OpenAPI 3.1 generated from the route schemas`, async () => {
    const t = await startTestApp(backend);
    try {
      const res = await t.app.inject({ url: '/openapi.json' });
      assert.equal(res.statusCode, 200);
      const doc = res.json();
      assert.equal(doc.openapi, '3.1.0');
      assert.deepEqual(Object.keys(doc.paths).sort(), [
        '/',
        '/binary/{path}',
        '/entities',
        '/entities/facets',
        '/entities/facets/maxpages',
        '/entities/facets/{facetName}',
        '/entities/sortcriteria',
        '/entities/suggest',
        '/entities/{gnd}',
        '/institutions',
        '/institutions/map',
        '/institutions/sectors',
        '/items/{id}',
        '/items/{id}/aip',
        '/items/{id}/binaries',
        '/items/{id}/children',
        '/items/{id}/edm',
        '/items/{id}/iiif',
        '/items/{id}/indexing-profile',
        '/items/{id}/parents',
        '/items/{id}/source',
        '/items/{id}/source/description',
        '/items/{id}/source/record',
        '/items/{id}/view',
        '/openapi.json',
        '/search',
        '/search/facets',
        '/search/facets/maxpages',
        '/search/facets/{facetName}',
        '/search/index/{index}/{handler}',
        '/search/mlt',
        '/search/organization',
        '/search/organization/facets',
        '/search/organization/facets/maxpages',
        '/search/organization/facets/{facetName}',
        '/search/organization/sortcriteria',
        '/search/organization/suggest',
        '/search/person',
        '/search/person/facets',
        '/search/person/facets/maxpages',
        '/search/person/facets/{facetName}',
        '/search/person/sortcriteria',
        '/search/person/suggest',
        '/search/sortcriteria',
        '/search/suggest',
        '/status',
        '/version',
      ]);
      // The same operations under /2 (docs/decisions.md "The `/2` prefix"): a second server.
      assert.deepEqual(
        doc.servers.map((s: { url: string }) => s.url),
        ['/', '/2'],
      );
      assert.deepEqual(doc.security, [{ oauthHeader: [] }, { oauthQuery: [] }]);
      // /version is public (ddb-openapi-6.8 getVersion has no security); everything else needs the key.
      assert.deepEqual(doc.paths['/version'].get.security, []);
      assert.equal(doc.paths['/status'].get.security, undefined);
      assert.deepEqual(Object.keys(doc.paths['/items/{id}/edm'].get.responses['200'].content).sort(), [
        'application/json',
        'application/ld+json',
        'application/n-triples',
        'application/rdf+xml',
        'application/xml',
        'text/turtle',
      ]);
      // The item's EDM graph as linked data at its own path too (docs/linked-data.md).
      assert.deepEqual(Object.keys(doc.paths['/items/{id}'].get.responses['200'].content).sort(), [
        'application/json',
        'application/ld+json',
        'application/n-triples',
        'application/rdf+xml',
        'application/xml',
        'text/turtle',
      ]);
      assert.deepEqual(
        doc.paths['/items/{id}/children'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort(),
        ['path:id', 'query:offset', 'query:rows'],
      );
      const op = doc.paths['/items/{id}/parents'].get;
      assert.deepEqual(
        op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
        ['path:id'],
      );
      // The key parameter is described once, as the security schemes of spec section 5.
      assert.deepEqual(doc.components.securitySchemes.oauthQuery, { type: 'apiKey', in: 'query', name: 'oauth_consumer_key' });
      assert.equal(doc.components.securitySchemes.oauthHeader.name, 'Authorization');
      assert.deepEqual(Object.keys(op.responses).sort(), [
        '200',
        '304',
        '400',
        '401',
        '403',
        '404',
        '405',
        '406',
        '414',
        '429',
        '431',
        '500',
      ]);
      // Every operation has the answers any request may get before it reaches one (docs/errors.md
      // "Order of checks").
      for (const [path, methods] of Object.entries(doc.paths as Record<string, { get: { responses: object } }>)) {
        for (const status of ['405', '414', '431']) assert.ok(status in methods.get.responses, `${path} ${status}`);
      }
      assert.deepEqual(Object.keys(op.responses['200'].content).sort(), ['application/json', 'application/xml']);
    } finally {
      await t.close();
    }
  });
}
