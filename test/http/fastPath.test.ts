/**
 * The fast path in front of Fastify (src/http/fastPath.ts; docs/configuration.md "The fast path for
 * packages and `parents`"): over a
 * real socket it must answer `parents` exactly as the Fastify route does
 * (compared with inject, which never goes through it), and leave every other
 * request to Fastify.
 */
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';
import { rawRequest } from '../helpers/raw.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Headers that differ from one answer to the next, or between a socket and inject. */
const PER_CONNECTION = ['date', 'connection', 'keep-alive', 'transfer-encoding'];

function comparable(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !PER_CONNECTION.includes(k)));
}

/** Marks the requests made over the socket, so that those of inject are not counted. */
const SOCKET_MARK = 'x-test-socket';

/** One GET over a socket, with exactly the headers given (fetch would add Accept-Encoding). */
function get(port: number, path: string, headers: OutgoingHttpHeaders, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { ...headers, [SOCKET_MARK]: '1' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: comparable(res.headers), body: Buffer.concat(chunks).toString('latin1') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function injected(t: TestApp, path: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET'): Promise<Answer> {
  const res = await t.app.inject({ method, url: path, headers });
  return { status: res.statusCode, headers: comparable(res.headers), body: res.rawPayload.toString('latin1') };
}

/** Starts the app on a port, counting the socket requests that reach Fastify. */
async function listening(t: TestApp): Promise<{ port: number; reachedFastify: () => number }> {
  let reached = 0;
  t.app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers[SOCKET_MARK]) reached++;
    done();
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (t.app.server.address() as { port: number }).port, reachedFastify: () => reached };
}

const TREE = [
  { id: 'ROOTITEM', title: 'Root & <Co>', htype: 'htype_020', aggregationEntity: true },
  { id: 'VOLITEM', title: 'Volume 1', htype: 'htype_007', position: '1', parent: 'ROOTITEM' },
  // Long enough (> 1 KB) that @fastify/compress would compress it for a client that asks.
  { id: 'CHAPITEM', title: `Chapter "XI" ${'long title '.repeat(120)}`, htype: 'htype_018', position: '11', parent: 'VOLITEM' },
];

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} the fast path answers parents and packages as the routes do, byte for byte`, async () => {
    const t = await startTestApp(backend, { load: [writePackages(TREE)] });
    try {
      const { port, reachedFastify } = await listening(t);
      const accepts = [
        'application/json',
        'application/xml',
        'text/xml',
        'application/xml;q=0.9, application/json;q=0.5',
        '*/*',
        'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      ];
      // Under /2 too: the newer API generation's paths (docs/decisions.md "The `/2` prefix").
      for (const id of ['CHAPITEM', 'VOLITEM', 'ROOTITEM']) {
        for (const accept of accepts) {
          for (const prefix of ['', '/2']) {
            const headers = { accept, authorization: t.json.authorization! };
            const fast = await get(port, `${prefix}/items/${id}/parents`, { ...headers, host: 'localhost' });
            const route = await injected(t, `${prefix}/items/${id}/parents`, headers);
            assert.equal(fast.status, 200, `${prefix} ${id} ${accept}`);
            assert.deepEqual(fast, route, `${prefix} ${id} ${accept}`);
            assert.deepEqual(route, await injected(t, `/items/${id}/parents`, headers), `${prefix} ${id} ${accept}`);
          }
        }
      }
      // Packages: both paths, every Accept, and each encoding (the route compresses and caches them itself).
      const encodings = [undefined, 'gzip', 'br', 'gzip, deflate, br', 'br;q=0, gzip', 'identity'];
      for (const path of ['/items/VOLITEM/aip', '/items/VOLITEM', '/2/items/VOLITEM/aip', '/2/items/VOLITEM']) {
        for (const accept of accepts) {
          for (const encoding of encodings) {
            const headers: Record<string, string> = { accept, authorization: t.json.authorization! };
            if (encoding !== undefined) headers['accept-encoding'] = encoding;
            const fast = await get(port, path, { ...headers, host: 'localhost' });
            const route = await injected(t, path, headers);
            assert.equal(fast.status, 200, `${path} ${accept} ${encoding}`);
            assert.deepEqual(fast, route, `${path} ${accept} ${encoding}`);
          }
        }
      }
      assert.equal(reachedFastify(), 0, 'every socket request above was answered before Fastify');
      // The headers themselves, once, so that a change in both paths is seen too.
      const one = await get(port, '/items/VOLITEM/parents', { ...t.xml, host: 'localhost' });
      assert.deepEqual(one.headers, {
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'ETag, Last-Modified, Retry-After, WWW-Authenticate, Content-Encoding',
        'content-type': 'application/xml; charset=utf-8',
        vary: 'Accept, Accept-Encoding',
        // The validators of parents, a digest of the body (docs/decisions.md "Validators and caching").
        'cache-control': 'public, max-age=300',
        etag: `W/"${createHash('sha256').update(one.body, 'latin1').digest('base64url').slice(0, 27)}"`,
        'content-length': String(Buffer.byteLength(one.body)),
      });
    } finally {
      await t.close();
    }
  });

  test(`${b} every other request goes to Fastify and gets the route's answer or error`, async () => {
    const t = await startTestApp(backend, { load: [writePackages(TREE)] });
    try {
      assert.equal(await t.store.blockItem('ROOTITEM', 'rights unclear'), true);
      const { port, reachedFastify } = await listening(t);
      const auth = t.json.authorization!;
      const etag = (await injected(t, '/items/VOLITEM/aip', t.json)).headers.etag as string;
      const parentsTag = (await injected(t, '/items/VOLITEM/parents', t.json)).headers.etag as string;
      const cases: Array<{ what: string; path: string; headers: Record<string, string>; method?: 'GET' | 'HEAD' }> = [
        {
          what: 'key in the query string',
          path: `/items/VOLITEM/parents?oauth_consumer_key=${t.key}`,
          headers: { accept: 'application/json' },
        },
        {
          what: 'Accept-Encoding (compression is the plugin’s)',
          path: '/items/CHAPITEM/parents',
          headers: { ...t.json, 'accept-encoding': 'gzip' },
        },
        { what: 'HEAD', path: '/items/VOLITEM/parents', headers: t.json, method: 'HEAD' },
        { what: 'no Accept', path: '/items/VOLITEM/parents', headers: { authorization: auth } },
        { what: 'Accept nobody offers', path: '/items/VOLITEM/parents', headers: { authorization: auth, accept: 'text/csv' } },
        { what: 'no key', path: '/items/VOLITEM/parents', headers: { accept: 'application/json' } },
        {
          what: 'unknown key',
          path: '/items/VOLITEM/parents',
          headers: { accept: 'application/json', authorization: 'OAuth oauth_consumer_key="nope"' },
        },
        {
          what: 'malformed Authorization',
          path: '/items/VOLITEM/parents',
          headers: { accept: 'application/json', authorization: 'OAuth oauth_consumer_key=nope' },
        },
        { what: 'unknown item', path: '/items/NOSUCHITEM/parents', headers: t.json },
        { what: 'percent-encoded id', path: '/items/VOL%49TEM/parents', headers: t.json },
        { what: 'invalid id', path: '/items/.hidden/parents', headers: t.json },
        { what: 'trailing slash', path: '/items/VOLITEM/parents/', headers: t.json },
        {
          what: 'parents, If-None-Match that matches (304)',
          path: '/items/VOLITEM/parents',
          headers: { ...t.json, 'if-none-match': parentsTag },
        },
        {
          what: 'parents, If-None-Match that does not match',
          path: '/items/VOLITEM/parents',
          headers: { ...t.json, 'if-none-match': 'W/"other"' },
        },
        { what: 'package, If-None-Match that matches (304)', path: '/items/VOLITEM/aip', headers: { ...t.json, 'if-none-match': etag } },
        {
          what: 'package, If-Modified-Since (304)',
          path: '/items/VOLITEM/aip',
          headers: { ...t.json, 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' },
        },
        { what: 'package, blocked item', path: '/items/ROOTITEM', headers: t.xml },
        { what: 'package, unknown item', path: '/items/NOSUCHITEM/aip', headers: t.json },
        { what: 'package, no key', path: '/items/VOLITEM/aip', headers: { accept: 'application/json' } },
        { what: 'another path under the item', path: '/items/VOLITEM/binaries', headers: t.json },
        { what: 'no key, under /2', path: '/2/items/VOLITEM/parents', headers: { accept: 'application/json' } },
        { what: 'a prefix that is not /2', path: '/20/items/VOLITEM/parents', headers: t.json },
        { what: 'the prefix twice', path: '/2/2/items/VOLITEM/aip', headers: t.json },
      ];
      for (const [n, c] of cases.entries()) {
        const fast = await get(port, c.path, { ...c.headers, host: 'localhost' }, c.method);
        assert.equal(reachedFastify(), n + 1, `${c.what}: reached Fastify`);
        const route = await injected(t, c.path, c.headers, c.method);
        assert.deepEqual(fast, route, c.what);
      }
      // An empty Host (node's client and inject both fill one in): Fastify's 400. (Its Host check is
      // a hook before the counting one, so the count cannot see it; the fast path writes no errors.)
      const noHost = await rawRequest(
        port,
        `GET /items/VOLITEM/parents HTTP/1.1\r\nHost: \r\nAccept: application/json\r\nAuthorization: ${auth}\r\n${SOCKET_MARK}: 1\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(noHost.status, 400);
      assert.match(noHost.body, /"name":"MissingHostException"/);
    } finally {
      await t.close();
    }
  });

  test(`${b} the fast path sees a revoked key and new data from the next request`, async () => {
    const t = await startTestApp(backend, {
      load: [
        writePackages([
          { id: 'P1', title: 'Parent' },
          { id: 'C1', title: 'Child', parent: 'P1' },
        ]),
      ],
    });
    try {
      const { port, reachedFastify } = await listening(t);
      const headers = { ...t.json, host: 'localhost' };
      const leafOfC1 = async () => JSON.parse((await get(port, '/items/C1/parents', headers)).body).hierarchy[0].leaf;
      assert.equal(await leafOfC1(), true);
      // Another connection, as `heritage-api ingest` in another process, loads a child of C1.
      const other = await backend.connect(t.location);
      try {
        await ingestItems(other, [writePackages([{ id: 'G1', title: 'Grandchild', parent: 'C1' }])], { batchSize: 10 });
        // The store reads another process's commits at most 1 ms late (COMMIT_CHECK_MS).
        await new Promise((resolve) => setTimeout(resolve, 5));
        assert.equal(await leafOfC1(), false);
        assert.equal(reachedFastify(), 0);
        assert.equal(await other.revokeKey('test'), true);
      } finally {
        await other.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      const revoked = await get(port, '/items/C1/parents', headers);
      assert.equal(revoked.status, 403);
      assert.equal(reachedFastify(), 1);
      assert.deepEqual(revoked, await injected(t, '/items/C1/parents', t.json));
    } finally {
      await t.close();
    }
  });

  // Request logging no longer switches it off: it writes Fastify's lines itself
  // (test/http/requestLog.test.ts).
  test(`${b} the fast path is off with rate limiting or a list of CORS origins`, async () => {
    const setups = [
      { what: 'rate limiting', options: { flags: { http: { rateLimitMax: 1000 } } } },
      { what: 'CORS origins', options: { flags: { http: { corsOrigin: 'https://a.example, https://b.example' } } } },
    ];
    for (const setup of setups) {
      const t = await startTestApp(backend, { load: [writePackages(TREE)], ...setup.options });
      try {
        const { port, reachedFastify } = await listening(t);
        const res = await get(port, '/items/VOLITEM/parents', { ...t.json, host: 'localhost' });
        assert.equal(res.status, 200, setup.what);
        assert.equal(reachedFastify(), 1, setup.what);
      } finally {
        await t.close();
      }
    }
  });
}
