/**
 * Describing the API (docs/api.md "GET /, GET /docs, GET /openapi.json"): `/` links to the description, the
 * interactive page and every operation (JSON for clients, a page for
 * browsers); `/docs` is Swagger UI over /openapi.json, served entirely by
 * this server; the 404 message names every operation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../../src/version.js';

type Doc = { paths: Record<string, { get: { summary: string } }> };

async function withApp(run: (t: TestApp) => Promise<void>, flags: Parameters<typeof startTestApp>[1] = {}) {
  const t = await startTestApp(BACKENDS[0]!, flags);
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const openapi = async (t: TestApp): Promise<Doc> =>
  (await t.app.inject({ url: '/openapi.json', headers: { accept: 'application/json' } })).json();

/** The operations `/` lists: every path of the description but `/` and the description itself. */
const OPERATIONS = [
  '/items/{id}/aip',
  '/items/{id}',
  '/items/{id}/parents',
  '/entities',
  '/search/person',
  '/search',
  '/search/facets',
  '/search/sortcriteria',
  '/search/suggest',
  '/search/person/facets',
  '/search/person/sortcriteria',
  '/search/person/suggest',
  '/entities/facets',
  '/entities/sortcriteria',
  '/entities/suggest',
  '/search/index/{index}/{handler}',
  '/search/facets/{facetName}',
  '/search/person/facets/{facetName}',
  '/search/person/facets/maxpages',
  '/entities/facets/{facetName}',
  '/entities/facets/maxpages',
  '/search/facets/maxpages',
  '/search/mlt',
  '/search/organization',
  '/search/organization/facets',
  '/search/organization/facets/{facetName}',
  '/search/organization/facets/maxpages',
  '/search/organization/sortcriteria',
  '/search/organization/suggest',
  '/items/{id}/children',
  '/items/{id}/view',
  '/items/{id}/edm',
  '/items/{id}/indexing-profile',
  '/items/{id}/binaries',
  '/items/{id}/source',
  '/items/{id}/source/description',
  '/items/{id}/source/record',
  '/entities/{gnd}',
  '/version',
  '/status',
  '/institutions',
  '/institutions/sectors',
  '/institutions/map',
  '/binary/{path}',
  '/items/{id}/iiif',
];

test('/ answers an API client with JSON: links to the description, the page and every operation', () =>
  withApp(async (t) => {
    const doc = await openapi(t);
    for (const accept of ['application/json', '*/*', 'application/*']) {
      const res = await t.app.inject({ url: '/', headers: { accept } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers.vary, 'Accept, Accept-Encoding');
      assert.equal(
        res.body,
        JSON.stringify({
          name: 'heritage-api',
          version: VERSION,
          openapi: '/openapi.json',
          docs: '/docs',
          operations: OPERATIONS.map((path) => ({ method: 'GET', path, summary: doc.paths[path]!.get.summary })),
        }),
      );
    }
    // No key needed, and none asked for.
    assert.deepEqual((doc.paths['/'] as unknown as { get: { security: unknown } }).get.security, []);
  }));

test('/ answers a browser with a page of the same links, every text escaped (pages for people switched off)', () =>
  withApp(
    async (t) => {
      const doc = await openapi(t);
      const res = await t.app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      const html = res.body;
      assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
      assert.ok(html.includes('<li><a href="/docs">Interactive documentation</a></li>'));
      assert.ok(html.includes('<li><a href="/openapi.json">OpenAPI description</a> (JSON)</li>'));
      const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
      for (const path of OPERATIONS) {
        assert.ok(html.includes(`<li><code>GET ${escape(path)}</code>: ${escape(doc.paths[path]!.get.summary)}</li>`), path);
      }
      assert.equal((html.match(/<li><code>/g) ?? []).length, OPERATIONS.length);
    },
    { flags: { web: { enabled: false } } },
  ));

test('/ refuses an Accept it cannot answer, and a missing one as the other operations do', () =>
  withApp(async (t) => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/csv' } });
    assert.equal(res.statusCode, 406);
    assert.equal(
      res.body,
      JSON.stringify({
        status: 406,
        name: 'NotAcceptableException',
        message: 'The requested type is not acceptable. Send an Accept header that allows application/json or text/html.',
      }),
    );
    const none = await t.app.inject({ url: '/' });
    assert.equal(none.statusCode, 406);
  }));

test('/docs: Swagger UI over /openapi.json, every asset served by this server (works offline)', () =>
  withApp(async (t) => {
    const page = await t.app.inject({ url: '/docs/', headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.body, /<div id="swagger-ui"><\/div>/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length >= 4, 'scripts and styles');
    for (const asset of assets) {
      assert.ok(!/^[a-z]+:|^\/\//i.test(asset), `${asset} is on this server`);
      const res = await t.app.inject({ url: new URL(asset, 'http://x/docs/').pathname });
      assert.equal(res.statusCode, 200, asset);
      assert.ok(res.rawPayload.length > 0, asset);
    }
    // The page reads the description from ./json: the same document as /openapi.json.
    const init = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
    assert.match(init.body, /url: resolveUrl\('\.\/json'\)/);
    assert.match(init.body, /validatorUrl: null/);
    const json = await t.app.inject({ url: '/docs/json' });
    assert.deepEqual(json.json(), await openapi(t));
    // Without the trailing slash too, and under /2.
    for (const url of ['/docs', '/2/docs', '/2/docs/']) assert.equal((await t.app.inject({ url })).statusCode, 200, url);
  }));

test('the 404 for an unknown path names every operation of the description', () =>
  withApp(async (t) => {
    const doc = await openapi(t);
    const res = await t.app.inject({ url: '/nothing/here', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 404);
    const message: string = res.json().message;
    for (const path of Object.keys(doc.paths)) {
      // /items/{id}/<part> is named by its part; other paths as they are.
      const named = path.startsWith('/items/{id}/') ? path.slice('/items/{id}/'.length) : path;
      assert.ok(message.includes(named), `${path} (${named}) in: ${message}`);
    }
    assert.ok(message.includes('/2'));
  }));

test("the README's tables of served operations agree with /openapi.json", () =>
  withApp(async (t) => {
    const doc = await openapi(t);
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const served = new Set<string>();
    for (const row of readme.split('\n')) {
      const cells = row.split('|').map((c) => c.trim());
      // | operation | `GET /path` | yes… |
      const path = /^`GET (\/[^`]*)`$/.exec(cells[2] ?? '')?.[1];
      if (path === undefined || !(cells[3] ?? '').startsWith('yes')) continue;
      const expanded =
        path === '/binary/{uuid}'
          ? ['/binary/{path}']
          : /\/source\/\{[a-z]+\}$/.test(path)
            ? ['/items/{id}/source/description', '/items/{id}/source/record']
            : [path];
      for (const p of expanded) {
        assert.ok(p in doc.paths, `${p} is served as the README says`);
        served.add(p);
      }
    }
    // Named in the README as served, or as beyond both descriptions: every path of ours.
    const beyond = /Beyond both: (.*)\n/.exec(readme)?.[1] ?? '';
    for (const path of Object.keys(doc.paths)) {
      const named =
        served.has(path) || beyond.includes(`\`GET ${path}\``) || (path === '/entities' && readme.includes('| `GET /entities` | yes |'));
      assert.ok(named, `${path} is in the README's tables`);
    }
  }));
