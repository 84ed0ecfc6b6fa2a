/**
 * docs/decisions.md "Keys never leak": an API key never appears in a log line or an answer,
 * however the request is written. Every request goes over a real socket to
 * a server logging at `trace` (everything Fastify logs), and the key is
 * looked for in the whole log and in every answer, head and body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { rawRequest } from '../helpers/raw.js';
import { redactUrl } from '../../src/http/redact.js';

/** Each character as %XX, in upper or lower case hex. */
const percentAll = (text: string, lower = false) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')[lower ? 'toLowerCase' : 'toUpperCase']()}`).join('');

/** Request targets that carry `key` in every way we could think of. */
function targets(key: string): string[] {
  const item = `/items/${CHAPTER_ID}`;
  const names = [
    'oauth_consumer_key',
    'OAUTH_CONSUMER_KEY',
    'oauth%5Fconsumer%5Fkey',
    'oauth%5fconsumer%5fkey',
    '%6Fauth_consumer_key',
    '%6fAuth_Consumer_Key',
    percentAll('oauth_consumer_key'),
    percentAll('oauth_consumer_key', true),
    'oauth%255Fconsumer%255Fkey',
    'oauth%25255Fconsumer%25255Fkey',
    'oauth_consumer_key[]',
    'oauth_consumer_key%5B%5D',
    'oauth_consumer_key[0]',
    'oauth_consumer_key%20',
    '+oauth_consumer_key',
    'oauth+consumer+key',
    'oauth_token',
    'api_key',
  ];
  const list: string[] = [];
  for (const name of names) {
    for (const path of [`${item}/parents`, `${item}/aip`, '/entities', '/nowhere']) list.push(`${path}?${name}=${key}`);
  }
  list.push(
    `${item}/parents?oauth_consumer_key=${key}&oauth_consumer_key=${key}`,
    `${item}/parents?rows=1&oauth_consumer_key=${key}&x=%zz`,
    `${item}/parents?x=1%26oauth_consumer_key%3D${key}`,
    `${item}/parents?oauth_consumer_key%3D${key}`,
    `${item}/parents?oauth_consumer_key=${key}#frag`,
    `/entities?rows=Infinity&oauth_consumer_key=${key}`,
    `/entities?query=%zz&oauth_consumer_key=${key}`,
    // A client that writes '&' or ';' instead of '?', or puts the key in the path.
    `${item}/parents&oauth_consumer_key=${key}`,
    `${item}/parents;oauth_consumer_key=${key}`,
    `${item}/parents/oauth_consumer_key=${key}`,
    `${item}/parents/oauth_consumer_key/${key}`,
    `/items/oauth_consumer_key=${key}/parents`,
    `/items/oauth_consumer_key:${key}/parents`,
    `/items/oauth_consumer_key%3D${key}/aip`,
    `/oauth_consumer_key=${key}`,
    // Errors raised before routing, which once echoed the whole URL.
    `/items/%zz/aip?oauth_consumer_key=${key}`,
    `/items/%zz/aip?oauth%5Fconsumer%5Fkey=${key}`,
    `/items/a%2Fb/aip?oauth_consumer_key=${key}`,
    `/items/${'A'.repeat(17_000)}/aip?oauth_consumer_key=${key}`,
  );
  return list;
}

/** Authorization headers with the key, well and badly written. */
function authorizations(key: string): string[] {
  return [
    `OAuth oauth_consumer_key="${key}"`,
    `OAuth ${key}`,
    `OAuth  ${key} `,
    `${key}`,
    `Bearer ${key}`,
    `Basic ${Buffer.from(`user:${key}`).toString('base64')}`,
    `OAuth oauth_consumer_key=${key}`,
    `OAuth oauth_consumer_key="${key}`,
    `OAuth oauth_consumer_key='${key}'`,
    `OAuth ${key}="x"`,
    `OAuth oauth_consumer_key="x", ${key}`,
    `OAuth oauth_consumer_key="x" ${key}`,
    `OAuth oauth_consumer_key="${key}", oauth_consumer_key="${key}"`,
    `OAuth oauth_consumer_key="${key}%zz"`,
    `OAuth realm="${key}"`,
    `OAuth ${key}, oauth_consumer_key="${key}"`,
  ];
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} no encoding of the query, path or Authorization header gets a key into the log or an answer`, async () => {
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (d) => (log += d.toString()));
    const t = await startTestApp(backend, {
      load: [CORTEX_DIR],
      flags: { server: { logLevel: 'trace' }, http: { rateLimitMax: 100_000 } },
      server: { logging: true, logStream: stream },
    });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      const exchanges: string[] = [];
      const send = async (head: string) => {
        const res = await rawRequest(port, `${head}Host: localhost\r\nConnection: close\r\n\r\n`);
        assert.ok(res.status >= 200 && res.status < 500, `${res.status} for ${head.slice(0, 80)}`);
        exchanges.push(`${res.head}\r\n\r\n${res.body}`);
      };
      for (const key of [t.key, 'wrong-key-with-no-match-0123456789']) {
        for (const target of targets(key)) await send(`GET ${target} HTTP/1.1\r\nAccept: application/json\r\n`);
        for (const target of targets(key).slice(0, 8)) await send(`GET ${target} HTTP/1.2\r\nAccept: application/json\r\n`);
        for (const authorization of authorizations(key)) {
          for (const path of [`/items/${CHAPTER_ID}/parents`, `/items/${CHAPTER_ID}/aip`, '/entities']) {
            await send(`GET ${path} HTTP/1.1\r\nAccept: application/json\r\nAuthorization: ${authorization}\r\n`);
          }
        }
        // Parser-level errors with the key in the target or a header.
        await send(`G@T /items/x/aip?oauth_consumer_key=${key} HTTP/1.1\r\n`);
        await send(`GET /items/x/aip?oauth_consumer_key=${key} HTTP/1.1\nAccept: */*\n`);
        await send(`GET /items/x/aip HTTP/1.1\r\nAuthorization: OAuth ${key}\r\nX-Big: ${'a'.repeat(40_000)}\r\n`);
        await send(`POST /items/x/aip?oauth_consumer_key=${key} HTTP/1.1\r\nContent-Type: application/${key}\r\nContent-Length: 2\r\n\r\n{}`.replace(/\r\n\r\n\{\}$/, '\r\n'));
        await send(`OPTIONS /items/x/aip?oauth_consumer_key=${key} HTTP/1.1\r\n`);
        await send(`OPTIONS /nowhere/oauth_consumer_key=${key} HTTP/1.1\r\n`);
        await send(`DELETE /items/oauth_consumer_key=${key}/aip HTTP/1.1\r\n`);
      }
      // Each request was answered before the next was sent; this last one's line closes the log.
      await send('GET /final-request HTTP/1.1\r\n');
      while (!log.includes('"url":"/final-request"')) await new Promise((resolve) => setImmediate(resolve));
      assert.ok(exchanges.length > 200);
      for (const key of [t.key, 'wrong-key-with-no-match-0123456789']) {
        const inAnswers = exchanges.filter((e) => e.includes(key));
        assert.deepEqual(inAnswers, [], 'no answer holds the key');
        const inLog = log.split('\n').filter((line) => line.includes(key));
        assert.deepEqual(inLog, [], 'no log line holds the key');
      }
      // The log still says what was sent, with the value redacted.
      assert.ok(log.includes('oauth%5Fconsumer%5Fkey=[redacted]'));
      assert.ok(log.includes('oauth_consumer_key[]=[redacted]'));
    } finally {
      await t.close();
    }
  });

  test(`${b} the messages for a mistyped Authorization header or a malformed URL say what to fix without the key`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const url = `/items/${CHAPTER_ID}/parents`;
      const malformed = (detail: string) =>
        JSON.stringify({
          status: 400,
          name: 'MalformedAuthorizationException',
          message: `The Authorization header could not be read: ${detail}. Send 'Authorization: OAuth oauth_consumer_key="<API key>"' or the query parameter oauth_consumer_key.`,
        });
      const cases: Array<[string, string]> = [
        [`OAuth ${t.key}`, `expected '=' after the parameter name at character 7 (write oauth_consumer_key="<API key>", not the key alone)`],
        [`OAuth oauth_consumer_key="a", ${t.key}`, `expected '=' after the parameter name at character 31 (write oauth_consumer_key="<API key>", not the key alone)`],
        [`OAuth ${t.key}=x`, 'the value of the parameter at character 7 must be in double quotes'],
        [`OAuth ${t.key}="x`, 'the value of the parameter at character 7 has no closing quote'],
        [`OAuth ${t.key}="%zz"`, 'the value of the parameter at character 7 is not valid percent-encoding'],
        [`OAuth ${t.key}="a", ${t.key}="b"`, 'the parameter at character 20 is given twice'],
        ['OAuth oauth_nonce="a", oauth_nonce="b"', "'oauth_nonce' is given twice"],
      ];
      for (const [authorization, detail] of cases) {
        const res = await t.app.inject({ url, headers: { accept: 'application/json', authorization } });
        assert.equal(res.statusCode, 400, authorization);
        assert.equal(res.body, malformed(detail.replace('character 20', `character ${t.key.length + 13}`)), authorization);
      }
      const badUrl = await t.app.inject({ url: `/items/%zz/aip?oauth_consumer_key=${t.key}`, headers: t.json });
      assert.equal(
        badUrl.body,
        JSON.stringify({
          status: 400,
          name: 'MalformedUrlException',
          message: "The path of the URL is not valid percent-encoding: each '%' must begin a %XX escape of UTF-8 bytes. Write a literal '%' as %25 and characters outside ASCII as their UTF-8 escapes (e.g. %C3%A4 for 'ä').",
        }),
      );
      const inPath = await t.app.inject({ url: `/items/oauth_consumer_key=${t.key}/aip`, headers: t.json });
      assert.equal(inPath.json().message.startsWith("The item id 'oauth_consumer_key=[redacted]' is not valid."), true);
    } finally {
      await t.close();
    }
  });
}

test('redactUrl keeps what is not a credential and the names of those that are', () => {
  const cases: Array<[string, string]> = [
    ['/items/ABC/parents', '/items/ABC/parents'],
    ['/entities?query=G%C3%B6the+Faust&rows=5', '/entities?query=G%C3%B6the+Faust&rows=5'],
    ['/a?oauth_consumer_key=K&rows=1', '/a?oauth_consumer_key=[redacted]&rows=1'],
    ['/a?%6Fauth_consumer_key=K', '/a?%6Fauth_consumer_key=[redacted]'],
    ['/a?x=1%26oauth_consumer_key%3DK', '/a?x=[redacted]'],
    ['/a/oauth_consumer_key/K/b', '/a/oauth_consumer_key/[redacted]/b'],
    ['/items/oauth_consumer_key:K/aip', '/items/[redacted]/aip'],
  ];
  for (const [url, redacted] of cases) assert.equal(redactUrl(url), redacted, url);
});
