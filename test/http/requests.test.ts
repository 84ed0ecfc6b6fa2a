/**
 * Request rules: Accept negotiation (spec 4.1, docs/decisions.md "Accept"),
 * Host, item ids, unknown routes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { notFoundMessage } from '../helpers/operations.js';
import { rawRequest } from '../helpers/raw.js';

const NOT_ACCEPTABLE = (offered: string) =>
  JSON.stringify({
    status: 406,
    name: 'NotAcceptableException',
    message: `The requested type is not acceptable. Send an Accept header that allows ${offered}.`,
  });

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} spec 4.1 / decisions "Accept": negotiation with q-values picks JSON or XML`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    const auth = t.json.authorization!;
    try {
      const cases: Array<[string, string]> = [
        ['application/json', 'application/json; charset=utf-8'],
        ['application/xml', 'application/xml; charset=utf-8'],
        ['text/xml', 'text/xml; charset=utf-8'],
        ['*/*', 'application/json; charset=utf-8'],
        ['application/*', 'application/json; charset=utf-8'],
        // A browser: XML outranks */* (as on the real service).
        ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/xml; charset=utf-8'],
        ['application/json;q=0.5, application/xml;q=0.8', 'application/xml; charset=utf-8'],
        ['application/xml;q=0, */*', 'application/json; charset=utf-8'],
        ['APPLICATION/JSON', 'application/json; charset=utf-8'],
      ];
      for (const [accept, type] of cases) {
        for (const path of [`/items/${CHAPTER_ID}/aip`, `/items/${CHAPTER_ID}/parents`]) {
          const res = await t.app.inject({ url: path, headers: { accept, authorization: auth } });
          assert.equal(res.statusCode, 200, `${accept} on ${path}`);
          assert.equal(res.headers['content-type'], type, `${accept} on ${path}`);
        }
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 7: a missing or unacceptable Accept gives 406 on parents and aip`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    const auth = t.json.authorization!;
    try {
      for (const path of [`/items/${CHAPTER_ID}/aip`, `/items/${CHAPTER_ID}/parents`]) {
        const missing = await t.app.inject({ url: path, headers: { authorization: auth } });
        assert.equal(missing.statusCode, 406);
        assert.equal(missing.body, NOT_ACCEPTABLE('application/json or application/xml (none was sent)'));
        for (const accept of ['text/html', 'image/png', 'application/json;q=0, application/xml;q=0']) {
          const res = await t.app.inject({ url: path, headers: { accept, authorization: auth } });
          assert.equal(res.statusCode, 406, accept);
          assert.equal(res.body, NOT_ACCEPTABLE('application/json or application/xml'));
        }
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} decisions "Accept": http.requireAccept=false answers a request without Accept with JSON`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags: { http: { requireAccept: false } } });
    try {
      const res = await t.app.inject({ url: `/items/${CHAPTER_ID}/parents`, headers: { authorization: t.json.authorization! } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    } finally {
      await t.close();
    }
  });

  test(`${b} decisions "Host": a request without Host is a 400 that says what to send`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      // inject always sets a Host; a real socket can omit it (HTTP/1.0), so the test uses one.
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      const res = await rawRequest(
        port,
        `GET /items/${CHAPTER_ID}/aip HTTP/1.0\r\nAccept: application/json\r\nAuthorization: ${t.json.authorization}\r\n\r\n`,
      );
      assert.equal(res.status, 400);
      assert.equal(
        res.body,
        JSON.stringify({
          status: 400,
          name: 'MissingHostException',
          message: 'The Host header is required (HTTP/1.1, RFC 9112 section 3.2). Send the host name of the service in a Host header.',
        }),
      );
    } finally {
      await t.close();
    }
  });

  test(`${b} bad item ids: '/', %00, '..' and 10,000 characters are clear 4xx answers`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    const invalid = (shown: string) =>
      JSON.stringify({
        status: 400,
        name: 'InvalidItemIdException',
        message: `The item id '${shown}' is not valid. An item id is 1 to 200 characters: letters, digits, '-', '_', '.' and ':', not starting with '.' and without '..'.`,
      });
    try {
      const cases: Array<[string, number, string]> = [
        ['/items/a%2Fb/aip', 400, invalid('a/b')],
        ['/items/ab%00cd/aip', 400, invalid('ab\\u0000cd')],
        ['/items/a..b/aip', 400, invalid('a..b')],
        [`/items/${'A'.repeat(10_000)}/aip`, 400, invalid(`${'A'.repeat(80)}… (10000 characters)`)],
        // A raw '/' splits the path: no such operation.
        [
          '/items/a/b/aip',
          404,
          JSON.stringify({
            status: 404,
            name: 'NotFoundException',
            message: await notFoundMessage(t.app, 'GET', '/items/a/b/aip'),
          }),
        ],
      ];
      for (const [url, status, body] of cases) {
        const res = await t.app.inject({ url, headers: t.json });
        assert.equal(res.statusCode, status, url.slice(0, 60));
        assert.equal(res.body, body, url.slice(0, 60));
      }
      // '..' as a whole id must reach the server un-normalised: a real socket.
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      for (const path of ['/items/%2E%2E/parents', '/items/../aip']) {
        const res = await rawRequest(
          port,
          `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nAuthorization: ${t.json.authorization}\r\nConnection: close\r\n\r\n`,
        );
        assert.equal(res.status, 400, path);
        assert.equal(res.body, invalid('..'), path);
      }
      const tooLong = await t.app.inject({ url: `/items/${'A'.repeat(20_000)}/aip`, headers: t.json });
      assert.equal(tooLong.statusCode, 414);
      assert.equal(
        tooLong.body,
        JSON.stringify({
          status: 414,
          name: 'UriTooLongException',
          message: 'The request URL has 20011 characters; at most 16384 are accepted. Shorten the query or the id.',
        }),
      );
    } finally {
      await t.close();
    }
  });
}
