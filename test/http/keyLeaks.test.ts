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
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { redactText, redactUrl } from '../../src/http/redact.js';
import { STORED_FIELDS } from '../../src/http/routes/searchSelect.js';

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
        await send(
          `POST /items/x/aip?oauth_consumer_key=${key} HTTP/1.1\r\nContent-Type: application/${key}\r\nContent-Length: 2\r\n\r\n{}`.replace(
            /\r\n\r\n\{\}$/,
            '\r\n',
          ),
        );
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
        [
          `OAuth ${t.key}`,
          `expected '=' after the parameter name at character 7 (write oauth_consumer_key="<API key>", not the key alone)`,
        ],
        [
          `OAuth oauth_consumer_key="a", ${t.key}`,
          `expected '=' after the parameter name at character 31 (write oauth_consumer_key="<API key>", not the key alone)`,
        ],
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
          message:
            "The path of the URL is not valid percent-encoding: each '%' must begin a %XX escape of UTF-8 bytes. Write a literal '%' as %25 and characters outside ASCII as their UTF-8 escapes (e.g. %C3%A4 for 'ä').",
        }),
      );
      const inPath = await t.app.inject({ url: `/items/oauth_consumer_key=${t.key}/aip`, headers: t.json });
      assert.equal(inPath.json().message.startsWith("The item id 'oauth_consumer_key=[redacted]' is not valid."), true);
    } finally {
      await t.close();
    }
  });
}

/** The request forms of a key that no name gives away, or under a name outside the OAuth ones. */
function namelessTargets(key: string): string[] {
  const item = `/items/${CHAPTER_ID}`;
  const list = [
    // The key used as an id, in the path.
    `/items/${key}`,
    `/items/${key}/parents`,
    `/items/${key}/aip`,
    `/items/${key}/children`,
    `/items/${key}/view`,
    `/items/${key}/binaries`,
    `/items/${key}/iiif`,
    `/2/items/${key}/parents`,
    `/binary/${key}`,
    `/search/facets/${key}`,
    `/search/index/${key}/select`,
    `/${key}`,
    // A bare parameter name, with and without '='.
    `${item}/parents?${key}`,
    `${item}/parents?${key}=`,
    `${item}/parents?${key}=1`,
    `/entities?query=goethe&${key}`,
    `/search?${key}=`,
    // Values the routes read, and echo in their messages.
    `/entities?query=${key}`,
    `/entities?sort=${key}`,
    `/search?query=${key}`,
    `/search?facet=${key}`,
    `/search/index/search/select?q=${key}`,
    `/search/index/search/select?fl=${key}`,
    `/search/index/person/select?sort=${key}%20asc`,
    `/search/index/search/select?q=*:*&facet=true&facet.field=${key}`,
    `/search/index/search/select?q=*:*&rows=5&${key}`,
    // Glued into a longer run of the same characters: only a window of it is the key.
    `/items/${key}Z9/parents`,
    `/entities?query=xyz${key}`,
    `/search/index/search/select?q=ab_${key}-cd`,
    `/search?query=${'q'.repeat(300)}${key}`,
  ];
  // Names outside the OAuth parameters, on a route that echoes its parameters (the Solr select) and on others.
  for (const name of ['key', 'token', 'password', 'api_key', 'access_token', 'apikey', 'x-api-key', 'secret']) {
    list.push(
      `/search/index/search/select?q=*:*&rows=0&${name}=${key}`,
      `/search/index/search/select?q=*:*&rows=x&${name}=${key}`,
      `/search/index/person/select?${name}=${key}`,
      `${item}/parents?${name}=${key}`,
      `/entities?query=goethe&${name}=${key}`,
    );
  }
  // Encoded: the key percent-encoded in the path and the query.
  const encoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  list.push(`/items/${encoded}/parents`, `${item}/parents?${encoded}`, `/search/index/search/select?q=*:*&token=${encoded}`);
  return list;
}

/** The URL field of each request log line. */
const loggedUrls = (log: string) =>
  log
    .split('\n')
    .filter((line) => line.includes('"msg":"request completed"'))
    .map((line) => (JSON.parse(line) as { req: { url: string } }).req.url);

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} a key under any name, as a bare name, as an id or a value never comes back in an answer, a page, a log line or the metrics`, async () => {
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (d) => (log += d.toString()));
    const t = await startTestApp(backend, {
      load: [CORTEX_DIR],
      flags: { server: { logLevel: 'trace' }, http: { rateLimitMax: 100_000 } },
      server: { logging: true, logStream: stream },
    });
    try {
      // A second client's key: requests authenticated with it carry t.key only in the URL,
      // so only its hash can tell that it is a key.
      const other = generateApiKey();
      await t.store.createKey('other', hashApiKey(other));
      const wrong = 'wrong-key-with-no-match-0123456789';
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      const exchanges: Array<{ key: string; target: string; text: string }> = [];
      const send = async (key: string, target: string, headers: string) => {
        const res = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`);
        assert.ok(res.status >= 200 && res.status < 500, `${res.status} for ${target.replace(key, 'KEY')}`);
        exchanges.push({ key, target, text: `${res.head}\r\n\r\n${res.body}` });
      };
      const json = 'Accept: application/json\r\n';
      const html = 'Accept: text/html\r\n';
      const auth = (k: string) => `Authorization: OAuth oauth_consumer_key="${k}"\r\n`;
      for (const target of namelessTargets(t.key)) {
        await send(t.key, target, json); // no key sent: a 401, logged
        await send(t.key, target, json + auth(other)); // answered with another key: the key only in the URL
        await send(t.key, target, json + auth(t.key)); // answered with the key itself
        await send(t.key, `${target}${target.includes('?') ? '&' : '?'}oauth_consumer_key=${t.key}`, json);
      }
      // A wrong key (no stored key's hash): sent as a key, under any name, it is redacted anywhere in the request.
      for (const target of namelessTargets(wrong)) {
        if (/[?&](key|token|password|api_key|access_token|apikey|x-api-key|secret)=/.test(target))
          await send(wrong, target, json + auth(other));
      }
      for (const name of ['key', 'token', 'password', 'api_key', 'access_token']) {
        await send(wrong, `/search/index/search/select?q=*:*&rows=0&${name}=${wrong}&fl=${wrong}`, json + auth(other));
        await send(wrong, `/items/${wrong}/parents?${name}=${wrong}`, json + auth(other));
        await send(wrong, `/entities?${wrong}&${name}=${wrong}`, json + auth(other));
      }
      for (const authorization of [`OAuth ${wrong}`, `Bearer ${wrong}`]) {
        await send(wrong, `/items/${wrong}/parents`, `${json}Authorization: ${authorization}\r\n`);
      }
      // The pages: no key needed, and none copied into a link (language switch, pager, children pager).
      for (const key of [t.key, wrong]) {
        for (const target of [
          `/search?q=goethe&oauth_consumer_key=${key}`,
          `/search?q=goethe&page=2&oauth_consumer_key=${key}&lang=en`,
          `/search?oauth_consumer_key=${key}`,
          `/?oauth_consumer_key=${key}`,
          `/item/${CHAPTER_ID}?oauth_consumer_key=${key}`,
          `/item/${CHAPTER_ID}?cpage=1&api_key=${key}&lang=de`,
          `/item/${CHAPTER_ID}/tree?token=${key}`,
          `/person/118540238?oauth_consumer_key=${key}`,
          // Only a stored key is a key here: the wrong one is sent as a query or an id, not as a key.
          ...(key === t.key ? [`/search?q=${key}`, `/item/${key}`, `/person/${key}`] : []),
        ]) {
          await send(key, target, html);
          await send(key, target, html + auth(other));
        }
      }
      // The metrics count every route above; no label may hold the key.
      await send(t.key, '/metrics', `Accept: text/plain\r\n${auth(other)}`);
      await send(t.key, '/final-request', json);
      while (!log.includes('"url":"/final-request"')) await new Promise((resolve) => setImmediate(resolve));

      for (const key of [t.key, wrong]) {
        // Not the key, nor its start: a message that cuts what it quotes once showed 40 characters of it.
        const start = key.slice(0, 16);
        const inAnswers = exchanges.filter((e) => e.text.includes(start)).map((e) => e.target.replaceAll(key, 'KEY'));
        assert.deepEqual(inAnswers, [], 'no answer holds the key');
        const inLog = log.split('\n').filter((line) => line.includes(start));
        assert.deepEqual(inLog, [], 'no log line holds the key');
      }
      assert.ok(exchanges.length > 300, String(exchanges.length));
      const metrics = exchanges.find((e) => e.target === '/metrics')!.text;
      assert.ok(metrics.includes('heritage_http_requests_total'), metrics.slice(0, 300));

      // The log still says what was asked, the key's place marked.
      const urls = loggedUrls(log);
      for (const expected of [
        '/items/[redacted]/parents',
        '/2/items/[redacted]/parents',
        `/items/${CHAPTER_ID}/parents?[redacted]`,
        '/entities?query=goethe&[redacted]',
        '/entities?query=[redacted]',
        '/search/index/search/select?q=*:*&rows=0&key=[redacted]',
        '/search/index/search/select?q=*:*&rows=0&token=[redacted]',
        '/search/index/search/select?q=*:*&rows=0&password=[redacted]',
        '/search/index/search/select?q=*:*&rows=0&api_key=[redacted]',
        '/search/index/search/select?q=*:*&rows=0&access_token=[redacted]',
        '/search?q=goethe&oauth_consumer_key=[redacted]',
        '/search?q=[redacted]',
      ]) {
        assert.ok(urls.includes(expected), `a log line for ${expected}`);
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} the answers that once echoed a key: whole bodies of the Solr select, a missing item and the pages`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const other = generateApiKey();
      await t.store.createKey('other', hashApiKey(other));
      const headers = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${other}"` };
      const get = (url: string, h: Record<string, string> = headers) => t.app.inject({ url, headers: h });
      const solrError = (params: Record<string, string>, msg: string) =>
        JSON.stringify({
          responseHeader: { status: 400, QTime: 0, params },
          error: {
            metadata: ['error-class', 'org.apache.solr.common.SolrException', 'root-error-class', 'org.apache.solr.common.SolrException'],
            msg,
            code: 400,
          },
        });
      // (a) The select echoes what was sent, but no credential-named parameter, and no key under another name.
      const rowsX = await get(`/search/index/search/select?q=*:*&rows=x&api_key=${t.key}`);
      assert.equal(rowsX.statusCode, 400);
      assert.equal(
        rowsX.body,
        solrError(
          { q: '*:*', rows: 'x' },
          "The query parameter 'api_key' is not one this operation takes, so it would be ignored. Its parameters: q, fq, fl, rows, start, sort, facet, facet.field, facet.limit, facet.mincount, facet.sort, cursorMark, wt, q.op, spellcheck, spellcheck.minHits, defType, qf, pf, mm, pt, sfield, d (and oauth_consumer_key). Check the spelling (names are case-sensitive), or see /openapi.json.",
        ),
      );
      const flKey = await get(`/search/index/search/select?q=*:*&fl=${t.key}`);
      assert.equal(flKey.statusCode, 400);
      assert.equal(
        flKey.body,
        solrError(
          { q: '*:*', fl: '[redacted]' },
          `fl names '[redacted]', which is not a stored field. Stored fields: ${STORED_FIELDS.item.join(', ')}; * for all, score for the score.`,
        ),
      );
      const bare = await get(`/search/index/search/select?q=*:*&rows=0&${t.key}`);
      assert.equal(bare.statusCode, 400);
      assert.equal(
        bare.body,
        solrError(
          { q: '*:*', rows: '0', '[redacted]': '' },
          "The query parameter (its name is not shown: it is not a plain name of at most 32 letters, digits, '_', '.', '-') is not one this operation takes, so it would be ignored. Its parameters: q, fq, fl, rows, start, sort, facet, facet.field, facet.limit, facet.mincount, facet.sort, cursorMark, wt, q.op, spellcheck, spellcheck.minHits, defType, qf, pf, mm, pt, sfield, d (and oauth_consumer_key). Check the spelling (names are case-sensitive), or see /openapi.json.",
        ),
      );
      // (c) The key used as the id.
      for (const [url, h] of [
        [`/items/${t.key}/parents`, headers],
        [`/items/${t.key}/parents`, t.json],
        [`/items/${t.key}`, headers],
      ] as const) {
        const res = await get(url, h);
        assert.equal(res.statusCode, 404, url);
        assert.equal(
          res.body,
          JSON.stringify({ status: 404, name: 'ItemNotFoundException', message: "Item '[redacted]' not found." }),
          url,
        );
      }
      // (b) A page with the key in its URL is the page without it, byte for byte: no link copies it.
      const page = { accept: 'text/html' };
      const pairs: Array<[string, string]> = [
        [`/search?q=goethe&oauth_consumer_key=${t.key}`, '/search?q=goethe'],
        [`/search?q=goethe&page=1&oauth_consumer_key=${t.key}&lang=en`, '/search?q=goethe&page=1&lang=en'],
        [`/item/${CHAPTER_ID}?oauth_consumer_key=${t.key}&lang=en`, `/item/${CHAPTER_ID}?lang=en`],
        [`/item/${CHAPTER_ID}?cpage=1&token=${t.key}`, `/item/${CHAPTER_ID}?cpage=1`],
        [`/?oauth_consumer_key=${t.key}`, '/'],
      ];
      for (const [withKey, without] of pairs) {
        const a = await get(withKey, page);
        const b2 = await get(without, page);
        assert.equal(a.statusCode, 200, withKey);
        assert.equal(a.body, b2.body, withKey);
      }
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

test('redactUrl and redactText redact by value: a secret in any piece, encoded or not, and in its written forms', () => {
  const secret = 'Ab0_-Ab0_-Ab0_-Ab0_-Ab0_-Ab0_-Ab0_-Ab0_-Ab0';
  const cases: Array<[string, string]> = [
    [`/items/${secret}/parents`, '/items/[redacted]/parents'],
    [`/a?${secret}`, '/a?[redacted]'],
    [`/a?${secret}=`, '/a?[redacted]'],
    [`/a?q=x&key=${secret}`, '/a?q=x&key=[redacted]'],
    [`/a?q=x&token=abc`, '/a?q=x&token=[redacted]'],
    [`/a?q=x&password=abc&rows=1`, '/a?q=x&password=[redacted]&rows=1'],
    [`/a?query=monkey&sortkey=1`, '/a?query=monkey&sortkey=1'],
    [`/a?q=${encodeURIComponent(secret).replace(/A/g, '%41')}`, '/a?q=[redacted]'],
    [`/a?q=x${secret}y`, '/a?q=[redacted]'],
  ];
  for (const [url, redacted] of cases) assert.equal(redactUrl(url, [secret]), redacted, url);
  assert.equal(redactUrl('/a/b/c/d', ['b/c/d']), '[redacted]');
  // The start of a secret, as a message that cuts what it quotes shows it.
  assert.equal(redactText(`fl names '${secret.slice(0, 40)}', which`, [secret]), "fl names '[redacted]', which");
  assert.equal(redactText(`x ${secret.slice(0, 15)} y`, [secret]), `x ${secret.slice(0, 15)} y`);
  const odd = 'a "key" & <more> and more';
  assert.equal(
    redactText(`{"m":${JSON.stringify(odd)}} <p>a &quot;key&quot; &amp; &lt;more&gt; and more</p> ?x=${encodeURIComponent(odd)}`, [odd]),
    '{"m":"[redacted]"} <p>[redacted]</p> ?x=[redacted]',
  );
});
