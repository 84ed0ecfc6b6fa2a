/**
 * auth.anonymousRead (docs/decisions.md "Anonymous reads"): every read without a key, limited
 * per client address; a key still works and has a limit of its own; an
 * unknown key is still a 403. Off by default (spec section 5).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateApiKey } from '../../src/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR, GOETHE_ID } from '../helpers/paths.js';

const PUBLIC = { auth: { anonymousRead: true } };

/** Every keyed operation, with an Accept it answers. */
const READS: Array<[string, string]> = [
  ['/entities', 'application/json'],
  [`/items/${CHAPTER_ID}`, 'application/json'],
  [`/items/${CHAPTER_ID}/aip`, 'application/xml'],
  [`/items/${CHAPTER_ID}/parents`, 'application/json'],
  [`/items/${CHAPTER_ID}/children`, 'application/json'],
  [`/items/${CHAPTER_ID}/view`, 'application/json'],
  [`/items/${CHAPTER_ID}/edm`, 'application/rdf+xml'],
  [`/items/${CHAPTER_ID}/indexing-profile`, 'application/json'],
  [`/items/${CHAPTER_ID}/binaries`, 'application/json'],
  [`/items/${GOETHE_ID}/source`, 'application/json'],
  [`/items/${GOETHE_ID}/source/description`, 'application/json'],
  [`/items/${CHAPTER_ID}/source/record`, 'application/xml'],
  [`/items/${CHAPTER_ID}/iiif`, 'application/json'],
  ['/status', 'application/json'],
];

const errorBody = (status: number, name: string, message: string) => JSON.stringify({ status, name, message });
const INVALID_KEY = errorBody(
  403,
  'NotAuthorizedException',
  'Your security level does not allow access to this method: the API key is unknown or revoked. Ask the operator of this service for a valid key.',
);

async function get(t: TestApp, url: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') {
  return t.app.inject({ url, headers, remoteAddress });
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} anonymous reads: every read answers without a key, exactly as with one`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags: PUBLIC });
    try {
      for (const [url, accept] of READS) {
        for (const prefix of ['', '/2']) {
          const anonymous = await get(t, prefix + url, { accept });
          const keyed = await get(t, prefix + url, { accept, authorization: t.json.authorization! });
          assert.equal(anonymous.statusCode, 200, `${prefix}${url}: ${anonymous.body.slice(0, 200)}`);
          // /status is fresh on every call; its body may only differ in nothing here (no loads between).
          assert.equal(anonymous.body, keyed.body, prefix + url);
          assert.equal(anonymous.headers['content-type'], keyed.headers['content-type'], prefix + url);
        }
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} anonymous reads: a key that is sent is checked, as always`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags: PUBLIC });
    try {
      const url = `/items/${CHAPTER_ID}/parents`;
      const unknown = await get(t, url, { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${generateApiKey()}"` });
      assert.equal(unknown.statusCode, 403);
      assert.equal(unknown.body, INVALID_KEY);
      const inQuery = await get(t, `${url}?oauth_consumer_key=${generateApiKey()}`, { accept: 'application/json' });
      assert.equal(inQuery.statusCode, 403);
      assert.equal(inQuery.body, INVALID_KEY);
      assert.equal(await t.store.revokeKey('test'), true);
      const revoked = await get(t, url, t.json);
      assert.equal(revoked.statusCode, 403);
      assert.equal(revoked.body, INVALID_KEY);
      // A malformed Authorization header is still a 400 that says what is wrong.
      const malformed = await get(t, url, { accept: 'application/json', authorization: 'OAuth oauth_consumer_key=unquoted' });
      assert.equal(malformed.statusCode, 400);
      assert.match(JSON.parse(malformed.body).message, /Authorization/);
    } finally {
      await t.close();
    }
  });

  test(`${b} anonymous reads: limited per address; a key has a limit of its own`, async () => {
    const t = await startTestApp(backend, {
      load: [CORTEX_DIR],
      flags: { ...PUBLIC, http: { rateLimitMax: 2, rateLimitWindowSeconds: 60 } },
    });
    try {
      const url = `/items/${CHAPTER_ID}/parents`;
      const anon = { accept: 'application/json' };
      assert.equal((await get(t, url, anon, '10.0.0.1')).statusCode, 200);
      assert.equal((await get(t, `/2${url}`, anon, '10.0.0.1')).statusCode, 200);
      const limited = await get(t, url, anon, '10.0.0.1');
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.headers['retry-after'], '60');
      // Another address has its own budget; so does the key, from the limited address.
      assert.equal((await get(t, url, anon, '10.0.0.2')).statusCode, 200);
      assert.equal((await get(t, url, t.json, '10.0.0.1')).statusCode, 200);
      assert.equal((await get(t, url, t.json, '10.0.0.1')).statusCode, 200);
      assert.equal((await get(t, url, t.json, '10.0.0.3')).statusCode, 429);
    } finally {
      await t.close();
    }
  });

  test(`${b} anonymous reads are off by default: 401 without a key`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const res = await get(t, `/2/items/${CHAPTER_ID}/parents`, { accept: 'application/json' });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'OAuth realm="heritage-api"');
      const doc = (await get(t, '/openapi.json', { accept: 'application/json' })).json();
      assert.deepEqual(doc.security, [{ oauthHeader: [] }, { oauthQuery: [] }]);
    } finally {
      await t.close();
    }
  });

  test(`${b} anonymous reads: /openapi.json makes the key optional`, async () => {
    const t = await startTestApp(backend, { flags: PUBLIC });
    try {
      const doc = (await get(t, '/openapi.json', { accept: 'application/json' })).json();
      assert.deepEqual(doc.security, [{}, { oauthHeader: [] }, { oauthQuery: [] }]);
      assert.match(doc.info.description, /No API key is needed/);
    } finally {
      await t.close();
    }
  });
}

test('HERITAGE_API_AUTH_ANONYMOUS_READ switches it on; the default is off', () => {
  assert.equal(loadConfig().auth.anonymousRead, false);
  assert.equal(loadConfig({ env: { HERITAGE_API_AUTH_ANONYMOUS_READ: 'true' } }).auth.anonymousRead, true);
  assert.throws(
    () => loadConfig({ env: { HERITAGE_API_AUTH_ANONYMOUS_READ: 'maybe' } }),
    /HERITAGE_API_AUTH_ANONYMOUS_READ: expected true or false/,
  );
});
