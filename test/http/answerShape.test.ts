/**
 * docs/decisions.md "Malformed requests": every answer the server writes, including those Node's
 * parser and @fastify/cors once wrote themselves, carries the error body of
 * docs/errors.md (JSON or XML by Accept) and the CORS headers. Raw sockets,
 * so that nothing normalises the requests; whole bodies compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { notFoundMessage } from '../helpers/operations.js';
import { rawRequest, type RawResponse } from '../helpers/raw.js';

const EXPOSE = 'ETag, Last-Modified, Retry-After, WWW-Authenticate, Content-Encoding';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><error xmlns="http://www.deutsche-digitale-bibliothek.de/error">';

const body = (status: number, name: string, message: string) => JSON.stringify({ status, name, message });
const malformed = (detail: string) =>
  body(
    400,
    'MalformedRequestException',
    `The request is not valid HTTP/1.1 (RFC 9112): ${detail}. The connection is closed; send a well-formed request on a new one.`,
  );
const notAllowed = (method: string, path: string) =>
  body(
    405,
    'MethodNotAllowedException',
    `${method} is not allowed on ${path}: this API is read-only. Use GET or HEAD (the Allow header lists the methods).`,
  );

/** Header fields of a raw answer, names lower-cased. */
function headersOf(res: RawResponse): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of res.head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    fields[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return fields;
}

async function listening(t: TestApp): Promise<number> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return (t.app.server.address() as { port: number }).port;
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} requests Node's parser refuses get our error body, by Accept, with CORS`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const port = await listening(t);
      const cases: Array<[string, string]> = [
        ['G@T / HTTP/1.1\r\nHost: x\r\n\r\n', malformed('the method is not one HTTP defines; this API answers GET, HEAD and OPTIONS')],
        ['GET / HTTP/1.2\r\nHost: x\r\n\r\n', malformed("the protocol version must be 'HTTP/1.1' (or 'HTTP/1.0')")],
        // Versions Node's parser lets through, answered by the server itself (docs/errors.md).
        ['GET / HTTP/2.0\r\nHost: x\r\n\r\n', malformed("the protocol version must be 'HTTP/1.1' (or 'HTTP/1.0')")],
        ['GET / HTTP/0.9\r\nHost: x\r\n\r\n', malformed("the protocol version must be 'HTTP/1.1' (or 'HTTP/1.0')")],
        [
          `GET /items/${CHAPTER_ID}/parents HTTP/2.0\r\nHost: x\r\nAccept: application/json\r\n\r\n`,
          malformed("the protocol version must be 'HTTP/1.1' (or 'HTTP/1.0')"),
        ],
        ['GET / HTTP/1.1\nHost: x\n\n', malformed('every line of the request head must end in CR LF, not a bare LF')],
        ['GET / HTTP/1.1\r\nHost: x\n\n', malformed('every line of the request head must end in CR LF, not a bare LF')],
        [
          'GET /items/ä/aip HTTP/1.1\r\nHost: x\r\n\r\n',
          malformed(
            "the request target must be printable ASCII: percent-encode spaces, control characters and characters outside ASCII as UTF-8 (e.g. %C3%A4 for 'ä')",
          ),
        ],
        [
          'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n',
          malformed("the request line must be 'GET <target> HTTP/1.1', one space apart, with the target percent-encoded (a space is %20)"),
        ],
        ['GET / HTTP/1.1\r\nHo st: x\r\n\r\n', malformed('a header name or value has characters HTTP does not allow there')],
        [
          'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
          malformed('the message framing (Content-Length, Transfer-Encoding) is invalid; this API takes no request body'),
        ],
        [
          `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
          body(
            431,
            'RequestHeaderFieldsTooLargeException',
            'The request line and headers together exceed 32768 bytes. Keep the URL to at most 16384 characters and send fewer or shorter headers.',
          ),
        ],
        [
          `GET /${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
          body(
            431,
            'RequestHeaderFieldsTooLargeException',
            'The request line and headers together exceed 32768 bytes. Keep the URL to at most 16384 characters and send fewer or shorter headers.',
          ),
        ],
        ['CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', notAllowed('CONNECT', 'example.org:443')],
      ];
      for (const [request, expected] of cases) {
        const res = await rawRequest(port, request);
        const label = request.slice(0, 40);
        assert.equal(res.status, JSON.parse(expected).status, label);
        assert.equal(res.body, expected, label);
        const h = headersOf(res);
        assert.equal(h['content-type'], 'application/json; charset=utf-8', label);
        assert.equal(h['access-control-allow-origin'], '*', label);
        assert.equal(h['access-control-expose-headers'], EXPOSE, label);
        assert.equal(h['content-length'], String(Buffer.byteLength(res.body)), label);
      }
      // A client that prefers XML gets the error in XML, as from the routes.
      const xml = await rawRequest(port, 'GET / HTTP/1.2\r\nHost: x\r\nAccept: application/xml\r\n\r\n');
      assert.equal(
        xml.body,
        `${XML_HEAD}<status>400</status><name>MalformedRequestException</name><message>The request is not valid HTTP/1.1 (RFC 9112): the protocol version must be &apos;HTTP/1.1&apos; (or &apos;HTTP/1.0&apos;). The connection is closed; send a well-formed request on a new one.</message></error>`.replace(
          /&apos;/g,
          "'",
        ),
      );
      assert.equal(headersOf(xml)['content-type'], 'application/xml; charset=utf-8');
    } finally {
      await t.close();
    }
  });

  test(`${b} a URL over http.maxUrlLength gets the documented 414, also past Node's default header limit`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const port = await listening(t);
      for (const length of [16_385, 16_300 + 100, 20_000, 30_000]) {
        const path = `/items/${'A'.repeat(length - '/items/'.length - '/aip'.length)}/aip`;
        const res = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
        assert.equal(res.status, 414, String(length));
        assert.equal(
          res.body,
          body(
            414,
            'UriTooLongException',
            `The request URL has ${length} characters; at most 16384 are accepted. Shorten the query or the id.`,
          ),
        );
        assert.equal(headersOf(res)['access-control-allow-origin'], '*');
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} OPTIONS without preflight headers answers Allow; other methods on a known path are 405 with Allow`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const port = await listening(t);
      const ask = (line: string, extra = '', payload = '') =>
        rawRequest(port, `${line} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n${extra}Connection: close\r\n\r\n${payload}`);
      for (const path of [
        '/entities',
        `/items/${CHAPTER_ID}`,
        `/items/${CHAPTER_ID}/aip`,
        `/items/${CHAPTER_ID}/parents`,
        '/openapi.json',
        '*',
      ]) {
        const res = await ask(`OPTIONS ${path}`);
        assert.equal(res.status, 204, path);
        assert.equal(res.body, '');
        const h = headersOf(res);
        assert.equal(h.allow, 'GET, HEAD, OPTIONS', path);
        assert.equal(h['access-control-allow-origin'], '*', path);
        for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND', 'TRACE']) {
          if (path === '*') continue;
          const withBody = method === 'POST' || method === 'PUT';
          const refused = await ask(
            `${method} ${path}`,
            withBody ? 'Content-Type: application/json\r\nContent-Length: 2\r\n' : '',
            withBody ? '{}' : '',
          );
          assert.equal(refused.status, 405, `${method} ${path}`);
          assert.equal(refused.body, notAllowed(method, path), `${method} ${path}`);
          assert.equal(headersOf(refused).allow, 'GET, HEAD, OPTIONS');
          assert.equal(headersOf(refused)['access-control-allow-origin'], '*');
        }
      }
      // An unknown path stays a 404, whatever the method.
      for (const line of ['OPTIONS /nowhere', 'POST /nowhere', 'DELETE /items/a/b/c']) {
        const res = await ask(line);
        assert.equal(res.status, 404, line);
        const [method, path] = line.split(' ');
        assert.equal(res.body, body(404, 'NotFoundException', await notFoundMessage(t.app, method!, path!)));
      }
      // OAI-PMH and the Reconciliation API also take their arguments as a POSTed form: Allow says so.
      for (const path of ['/oai', '/reconcile', '/2/oai']) {
        const res = await ask(`OPTIONS ${path}`);
        assert.equal(res.status, 204, path);
        assert.equal(headersOf(res).allow, 'GET, HEAD, POST, OPTIONS', path);
        const refused = await ask(`PUT ${path}`, 'Content-Type: application/json\r\nContent-Length: 2\r\n', '{}');
        assert.equal(refused.status, 405, path);
        assert.equal(headersOf(refused).allow, 'GET, HEAD, POST, OPTIONS', path);
      }
      // A real preflight is still answered by the CORS plugin.
      const preflight = await ask('OPTIONS /entities', 'Origin: https://app.example\r\nAccess-Control-Request-Method: GET\r\n');
      assert.equal(preflight.status, 204);
      assert.equal(headersOf(preflight)['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    } finally {
      await t.close();
    }
  });

  test(`${b} the 400 for a malformed URL, 414 and the missing Host carry the CORS headers`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const port = await listening(t);
      const cases: Array<[string, string]> = [
        [
          'GET /items/%zz/aip HTTP/1.1\r\nHost: x\r\n',
          body(
            400,
            'MalformedUrlException',
            "The path of the URL is not valid percent-encoding: each '%' must begin a %XX escape of UTF-8 bytes. Write a literal '%' as %25 and characters outside ASCII as their UTF-8 escapes (e.g. %C3%A4 for 'ä').",
          ),
        ],
        [
          'GET /items/x/aip HTTP/1.0\r\n',
          body(
            400,
            'MissingHostException',
            'The Host header is required (HTTP/1.1, RFC 9112 section 3.2). Send the host name of the service in a Host header.',
          ),
        ],
      ];
      for (const [head, expected] of cases) {
        const res = await rawRequest(port, `${head}Origin: https://app.example\r\nConnection: close\r\n\r\n`);
        assert.equal(res.body, expected, head);
        assert.equal(headersOf(res)['access-control-allow-origin'], '*', head);
        assert.equal(headersOf(res)['access-control-expose-headers'], EXPOSE, head);
      }
    } finally {
      await t.close();
    }
  });
}
