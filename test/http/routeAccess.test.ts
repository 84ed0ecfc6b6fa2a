/**
 * Secure by default (src/http/routeAccess.ts; docs/api.md "Operations without a key"): every
 * operation of /openapi.json asked without a key is the 401 of the catalog unless the server
 * registered it as public, the description says the same of each, the public routes are the
 * ones docs/api.md lists, and a route registered as neither keyed nor public stops the server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { ConfigOverrides } from '../../src/config.js';
import { createRouteAccess } from '../../src/http/routeAccess.js';
import { publicRoutesOf } from '../../src/http/server.js';
import { startTestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { describedOperations } from '../helpers/operations.js';

const NO_KEY_SENT =
  'No API key was sent. Send \'Authorization: OAuth oauth_consumer_key="<API key>"\' or the query parameter oauth_consumer_key=<API key>.';
const MISSING_KEY = JSON.stringify({ status: 401, name: 'NotAuthorizedException', message: NO_KEY_SENT });
/** The same 401 in Solr's error shape, on the Solr-native route (docs/search.md). */
const SOLR_MISSING_KEY = JSON.stringify({
  responseHeader: { status: 401, QTime: 0, params: {} },
  error: {
    metadata: ['error-class', 'org.apache.solr.common.SolrException', 'root-error-class', 'org.apache.solr.common.SolrException'],
    msg: NO_KEY_SENT,
    code: 401,
  },
});

/** A route pattern as OpenAPI and docs/api.md write it: `:id` as `{id}`, a trailing `*` as `{path}`. */
const described = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');

/** The rows of docs/api.md "Operations without a key": the paths of each row's first cell, and whether it is for a browser only. */
function documentedPublicRoutes(): Array<{ path: string; browser: boolean }> {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const start = doc.indexOf('### Operations without a key');
  assert.ok(start >= 0, 'docs/api.md has the section');
  const section = doc.slice(start, doc.indexOf('\n#', start + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `GET '))
    .flatMap((line) => {
      const cell = line.split('|')[1]!;
      return [...cell.matchAll(/`GET ([^`]+)`/g)].map((m) => ({ path: m[1]!, browser: cell.includes('for a browser') }));
    });
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  for (const [label, flags, keyedToo] of [
    ['by default', {}, []],
    [
      'with media.requireKey and metrics.requireKey',
      { media: { requireKey: true }, metrics: { requireKey: true } },
      ['/binary/*', '/metrics'],
    ],
  ] as Array<[string, ConfigOverrides, string[]]>) {
    test(`${b} ${label}: every operation of /openapi.json without a key is 401 (and under /2), unless the server declared it public`, async () => {
      const t = await startTestApp(backend, { flags });
      try {
        const open = publicRoutesOf(t.app).map(described);
        for (const route of keyedToo) assert.ok(!open.includes(described(route)), `${route} needs a key now`);
        const operations = await describedOperations(t.app);
        assert.ok(operations.length >= 45, `the description lists the operations (${operations.length})`);
        for (const { path, open: describedOpen } of operations) {
          const declared = open.includes(path);
          assert.equal(describedOpen, declared, `${path}: /openapi.json says what the server does`);
          const url = path.replace(/\{[^}]+\}/g, 'x');
          for (const prefix of ['', '/2']) {
            const res = await t.app.inject({ url: `${prefix}${url}`, headers: { accept: 'application/json' } });
            if (declared) {
              assert.notEqual(res.statusCode, 401, `${prefix}${url} is public`);
              continue;
            }
            assert.equal(res.statusCode, 401, `${prefix}${url}`);
            assert.equal(res.headers['www-authenticate'], 'OAuth realm="heritage-api"', `${prefix}${url}`);
            assert.equal(res.body, path.startsWith('/search/index/') ? SOLR_MISSING_KEY : MISSING_KEY, `${prefix}${url}`);
          }
        }
        // What the server keeps hidden from the description but answers with a key only.
        if (keyedToo.length > 0) {
          const metrics = await t.app.inject({ url: '/metrics', headers: { accept: 'application/json' } });
          assert.deepEqual([metrics.statusCode, metrics.body], [401, MISSING_KEY]);
        }
      } finally {
        await t.close();
      }
    });
  }

  test(`${b} the public routes are exactly those docs/api.md "Operations without a key" lists`, async () => {
    const t = await startTestApp(backend);
    try {
      const routes = publicRoutesOf(t.app);
      const documented = documentedPublicRoutes();
      const listed = (route: string) =>
        documented.some((d) => d.path === route || (d.path.endsWith('/…') && route.startsWith(d.path.slice(0, -1))));
      for (const route of routes) {
        const [path, constraint] = described(route).split(' (');
        assert.ok(listed(path!), `${route} is public: docs/api.md lists it`);
        // A page that shares its path with a keyed operation of the API is public for a browser only.
        if (constraint !== undefined && !routes.includes(route.split(' (')[0]!))
          assert.ok(
            documented.some((d) => d.path === path && d.browser),
            `${route}: docs/api.md says it is for a browser`,
          );
      }
      for (const d of documented) {
        const some = routes.some((r) => {
          const path = described(r).split(' (')[0]!;
          return path === d.path || (d.path.endsWith('/…') && path.startsWith(d.path.slice(0, -1)));
        });
        assert.ok(some, `docs/api.md lists ${d.path}: the server answers it without a key`);
      }
    } finally {
      await t.close();
    }
  });
}

test('a GET route registered as neither keyed nor public stops the server at its start', async () => {
  const app = Fastify();
  const order: string[] = [];
  app.addHook('onRoute', (route) => void (route.method === 'GET' && order.push(route.url)));
  const access = await createRouteAccess(app, async (_request, reply) => {
    await reply.code(401).send('no key');
  });
  // Added in turns to the two contexts, they keep the order they were added in.
  access.keyed.get('/keyed', async () => 'k');
  access.open.get('/open', async () => 'o');
  access.keyed.get('/keyed/:id', async () => 'k2');
  await access.openPlugin(async (scope) => void scope.get('/plugin', async () => 'p'));
  assert.deepEqual(order, ['/keyed', '/open', '/keyed/:id', '/plugin']);
  assert.throws(() => app.get('/forgotten', async () => 'f'), {
    message:
      'The route GET /forgotten is neither keyed nor public: add it to access.keyed or, by decision, to access.open (src/http/routeAccess.ts; CONTRIBUTING.md "A route").',
  });
  // A hook of the app added afterwards still runs before the key check, as on the app's own routes.
  const seen: string[] = [];
  app.addHook('onRequest', (request, _reply, done) => {
    seen.push(request.url);
    done();
  });
  await app.ready();
  assert.deepEqual(access.publicRoutes(), ['/open', '/plugin']);
  const urls = ['/keyed', '/keyed/x', '/open', '/plugin'];
  assert.deepEqual(await Promise.all(urls.map(async (url) => (await app.inject({ url })).body)), ['no key', 'no key', 'o', 'p']);
  assert.deepEqual((await app.inject({ method: 'HEAD', url: '/keyed/x' })).statusCode, 401);
  assert.deepEqual(seen.sort(), [...urls, '/keyed/x'].sort());
  await app.close();
});
