/**
 * API keys (spec section 5, docs/decisions.md "API keys"): header and query forms,
 * OAuth 1.0 parameter lists, missing / unknown / revoked / malformed keys, and
 * keys never written to the log.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';

const url = `/items/${CHAPTER_ID}/parents`;
const FORBIDDEN = JSON.stringify({
  status: 403,
  name: 'NotAuthorizedException',
  message:
    'Your security level does not allow access to this method: the API key is unknown or revoked. Ask the operator of this service for a valid key.',
});
const MALFORMED = (detail: string) =>
  JSON.stringify({
    status: 400,
    name: 'MalformedAuthorizationException',
    message: `The Authorization header could not be read: ${detail}. Send 'Authorization: OAuth oauth_consumer_key="<API key>"' or the query parameter oauth_consumer_key.`,
  });

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} spec 5: the key is accepted in the Authorization header and in the query parameter`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const header = await t.app.inject({
        url,
        headers: { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${t.key}"` },
      });
      assert.equal(header.statusCode, 200);
      const query = await t.app.inject({ url: `${url}?oauth_consumer_key=${t.key}`, headers: { accept: 'application/json' } });
      assert.equal(query.statusCode, 200);
      assert.equal(query.body, header.body);
    } finally {
      await t.close();
    }
  });

  test(`${b} RFC 5849 3.5.1: a full OAuth 1.0 parameter list with realm, spaces and percent-encoding is read`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const headers = [
        `OAuth realm="Example", oauth_consumer_key="${t.key}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="137131200", oauth_nonce="wIjqoS", oauth_signature="74KNZJeDHnMBp0EMJ9ZHt%2FXKycU%3D", oauth_version="1.0"`,
        `OAuth oauth_nonce="x",oauth_consumer_key="${encodeURIComponent(t.key)}"`,
        `oauth   oauth_consumer_key = "${t.key}"`,
      ];
      // What a 2014 v1 client reads with such a header: parents, aip, entities.
      for (const path of [
        url,
        `/items/${CHAPTER_ID}/aip`,
        `/entities?query=${encodeURIComponent('id:"http://d-nb.info/gnd/118540238"')}`,
      ]) {
        for (const authorization of headers) {
          const res = await t.app.inject({ url: path, headers: { accept: 'application/json', authorization } });
          assert.equal(res.statusCode, 200, `${path} ${authorization}`);
        }
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} decisions "API key": a missing key is 401 with WWW-Authenticate`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      for (const headers of [{ accept: 'application/json' }, { accept: 'application/json', authorization: 'OAuth oauth_nonce="abc"' }]) {
        const res = await t.app.inject({ url, headers });
        assert.equal(res.statusCode, 401);
        assert.equal(res.headers['www-authenticate'], 'OAuth realm="heritage-api"');
        assert.equal(
          res.body,
          JSON.stringify({
            status: 401,
            name: 'NotAuthorizedException',
            message:
              'No API key was sent. Send \'Authorization: OAuth oauth_consumer_key="<API key>"\' or the query parameter oauth_consumer_key=<API key>.',
          }),
        );
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} a key revoked by another process (heritage-api keys revoke) is refused from the next request`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      assert.equal((await t.app.inject({ url, headers: t.json })).statusCode, 200);
      const other = await backend.connect(t.location);
      try {
        assert.equal(await other.revokeKey('test'), true);
      } finally {
        await other.close();
      }
      const revoked = await t.app.inject({ url, headers: t.json });
      assert.equal(revoked.statusCode, 403);
      assert.equal(revoked.body, FORBIDDEN);
    } finally {
      await t.close();
    }
  });

  test(`${b} a keep-alive connection's key is checked again when its header changes or the key is revoked`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      let connections = 0;
      t.app.server.on('connection', () => connections++);
      const port = (t.app.server.address() as { port: number }).port;
      // Over one socket, as a DDB client with keep-alive sends them (the fast path and Fastify both).
      const get = (path: string, authorization: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port, path, agent, headers: { accept: 'application/json', authorization } },
            (res) => {
              let body = '';
              res.setEncoding('utf8').on('data', (c: string) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
            },
          );
          req.on('error', reject).end();
        });
      const valid = t.json.authorization!;
      const unknown = `OAuth oauth_consumer_key="${t.key}x"`;
      const entities = '/entities?query=*:*';
      const good = await get(url, valid);
      assert.equal(good.status, 200);
      assert.equal((await get(entities, valid)).status, 200);
      assert.deepEqual(await get(url, unknown), { status: 403, body: FORBIDDEN });
      assert.deepEqual(await get(entities, unknown), { status: 403, body: FORBIDDEN });
      assert.deepEqual(await get(url, valid), good);
      // A header without a key leaves the query string to decide, each time.
      const noKey = 'OAuth realm="archive"';
      assert.equal((await get(`${url}?oauth_consumer_key=${t.key}`, noKey)).status, 200);
      assert.deepEqual(await get(`${url}?oauth_consumer_key=${t.key}x`, noKey), { status: 403, body: FORBIDDEN });
      const other = await backend.connect(t.location);
      try {
        assert.equal(await other.revokeKey('test'), true);
      } finally {
        await other.close();
      }
      // The store reads another process's commits at most 1 ms late (COMMIT_CHECK_MS).
      await new Promise((resolve) => setTimeout(resolve, 5));
      assert.deepEqual(await get(url, valid), { status: 403, body: FORBIDDEN });
      assert.deepEqual(await get(entities, valid), { status: 403, body: FORBIDDEN });
      assert.equal(connections, 1);
    } finally {
      agent.destroy();
      await t.close();
    }
  });

  test(`${b} decisions "API key": unknown and revoked keys are 403, on every operation`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      for (const path of [url, `/items/${CHAPTER_ID}/aip`, `/items/${CHAPTER_ID}`]) {
        const res = await t.app.inject({ url: `${path}?oauth_consumer_key=not-a-key`, headers: { accept: 'application/json' } });
        assert.equal(res.statusCode, 403, path);
        assert.equal(res.body, FORBIDDEN);
      }
      // Used first, so that the server has looked the key up before it is revoked.
      assert.equal((await t.app.inject({ url, headers: t.json })).statusCode, 200);
      assert.equal(await t.store.revokeKey('test'), true);
      const revoked = await t.app.inject({ url, headers: t.json });
      assert.equal(revoked.statusCode, 403);
      assert.equal(revoked.body, FORBIDDEN);
    } finally {
      await t.close();
    }
  });

  test(`${b} a malformed OAuth header is a 400 that says what is wrong`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const cases: Array<[string, string]> = [
        ['OAuth oauth_consumer_key=abc', "the value of 'oauth_consumer_key' must be in double quotes"],
        ['OAuth oauth_consumer_key="abc', "the value of 'oauth_consumer_key' has no closing quote"],
        ['OAuth oauth_consumer_key="a%zz"', "the value of 'oauth_consumer_key' is not valid percent-encoding"],
        ['OAuth oauth_consumer_key="a" oauth_nonce="b"', "expected ',' between parameters at character 30"],
        ['OAuth oauth_consumer_key="a", oauth_consumer_key="b"', "'oauth_consumer_key' is given twice"],
        ['OAuth oauth_consumer_key=""', 'oauth_consumer_key is empty'],
        ['OAuth ="x"', 'expected a parameter name at character 7'],
        ['Bearer abc', "the scheme is not 'OAuth'"],
      ];
      for (const [authorization, detail] of cases) {
        const res = await t.app.inject({ url, headers: { accept: 'application/json', authorization } });
        assert.equal(res.statusCode, 400, authorization);
        assert.equal(res.body, MALFORMED(detail), authorization);
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} security: API keys never appear in the log, from the query or the header`, async () => {
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (d) => (log += d.toString()));
    const t = await startTestApp(backend, {
      load: [CORTEX_DIR],
      flags: { server: { logLevel: 'info' } },
      server: { logging: true, logStream: stream },
    });
    try {
      await t.app.inject({ url: `${url}?oauth_consumer_key=${t.key}`, headers: { accept: 'application/json' } });
      await t.app.inject({ url, headers: t.json });
      await t.app.inject({ url: `${url}?oauth_consumer_key=wrong-key-123`, headers: { accept: 'application/json' } });
      assert.ok(log.length > 0, 'requests were logged');
      assert.ok(log.includes('oauth_consumer_key=[redacted]'), 'the query parameter is shown redacted');
      assert.equal(log.includes(t.key), false);
      assert.equal(log.includes('wrong-key-123'), false);
    } finally {
      await t.close();
    }
  });

  test(`${b} keys list records when a key was last used`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      assert.equal((await t.store.listKeys())[0]!.lastUsedAt, null);
      await t.app.inject({ url, headers: t.json });
      const used = (await t.store.listKeys())[0]!.lastUsedAt;
      assert.ok(used instanceof Date && Date.now() - used.getTime() < 60_000);
    } finally {
      await t.close();
    }
  });
}
