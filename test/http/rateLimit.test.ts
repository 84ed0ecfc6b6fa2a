/**
 * docs/decisions.md "Rate limits": the rate limit counts the authenticated key, not the
 * text of its header; requests without a valid key count per client address.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';

const url = `/items/${CHAPTER_ID}/parents`;
/** The 429's whole body, saying the seconds its Retry-After says. */
const limited = (seconds: number) =>
  JSON.stringify({
    status: 429,
    name: 'TooManyRequestsException',
    message: `Too many requests for this API key (or, without a valid key, from this address). Wait ${seconds} seconds (see the Retry-After header) and try again.`,
  });
const MAX = 3;

/** An OAuth 1.0 header as a signing client sends it: a new nonce and timestamp every time. */
function oauth1(key: string): string {
  const nonce = randomBytes(12).toString('hex');
  return `OAuth realm="x", oauth_consumer_key="${key}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="${Date.now()}", oauth_nonce="${nonce}", oauth_signature="${randomBytes(20).toString('base64url')}", oauth_version="1.0"`;
}

async function status(t: TestApp, target: string, headers: Record<string, string>, remoteAddress = '127.0.0.1'): Promise<number> {
  const res = await t.app.inject({ url: target, headers: { accept: 'application/json', ...headers }, remoteAddress });
  if (res.statusCode === 429) {
    // What is left of the 60 s window: 60, or 59 when a second passed on a busy machine.
    const seconds = Number(res.headers['retry-after']);
    assert.ok(Number.isInteger(seconds) && seconds >= 55 && seconds <= 60, `Retry-After ${String(res.headers['retry-after'])}`);
    assert.equal(res.body, limited(seconds));
  }
  return res.statusCode;
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const flags = { http: { rateLimitMax: MAX, rateLimitWindowSeconds: 60 } };

  test(`${b} an OAuth 1.0 client with a new nonce on every request is limited`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags });
    try {
      for (let i = 0; i < MAX; i++) assert.equal(await status(t, url, { authorization: oauth1(t.key) }), 200);
      assert.equal(await status(t, url, { authorization: oauth1(t.key) }), 429);
      // From another address too: the key is limited, wherever it is used.
      assert.equal(await status(t, url, { authorization: oauth1(t.key) }, '10.0.0.9'), 429);
    } finally {
      await t.close();
    }
  });

  test(`${b} the header and the query form of one key share one budget; another key has its own`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags });
    try {
      const other = generateApiKey();
      await t.store.createKey('other', hashApiKey(other));
      assert.equal(await status(t, url, { authorization: `OAuth oauth_consumer_key="${t.key}"` }), 200);
      assert.equal(await status(t, `${url}?oauth_consumer_key=${t.key}`, {}), 200);
      assert.equal(await status(t, `/entities?oauth_consumer_key=${encodeURIComponent(t.key)}`, {}), 200);
      assert.equal(await status(t, `${url}?oauth_consumer_key=${t.key}`, {}), 429);
      assert.equal(await status(t, url, { authorization: `OAuth  oauth_consumer_key = "${t.key}"` }), 429);
      assert.equal(await status(t, url, { authorization: `OAuth oauth_consumer_key="${other}"` }), 200);
    } finally {
      await t.close();
    }
  });

  test(`${b} requests without a valid key are limited per client address`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags });
    try {
      // Guessing keys: each a different one, all from one address.
      const guesses = [`${url}?oauth_consumer_key=${generateApiKey()}`, `${url}?oauth_consumer_key=${generateApiKey()}`];
      assert.equal(await status(t, guesses[0]!, {}, '10.0.0.1'), 403);
      assert.equal(await status(t, guesses[1]!, {}, '10.0.0.1'), 403);
      // No key and a malformed header count under the address as well.
      assert.equal(await status(t, url, {}, '10.0.0.1'), 401);
      assert.equal(await status(t, url, { authorization: `OAuth ${generateApiKey()}` }, '10.0.0.1'), 429);
      assert.equal(await status(t, `${url}?oauth_consumer_key=${generateApiKey()}`, {}, '10.0.0.1'), 429);
      // Another address has its own budget, and a valid key from the limited address its own.
      assert.equal(await status(t, `${url}?oauth_consumer_key=${generateApiKey()}`, {}, '10.0.0.2'), 403);
      assert.equal(await status(t, url, { authorization: `OAuth oauth_consumer_key="${t.key}"` }, '10.0.0.1'), 200);
    } finally {
      await t.close();
    }
  });
}
