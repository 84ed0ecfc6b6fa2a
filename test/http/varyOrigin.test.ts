/**
 * docs/decisions.md "CORS": with a list of CORS origins every answer depends on
 * Origin, so every answer says `Vary: Origin`, item answers (which set Vary
 * themselves) included; a shared cache must not give one origin's answer to
 * another.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { rawRequest } from '../helpers/raw.js';

const ORIGINS = 'https://a.example, https://b.example';

const varies = (vary: unknown) =>
  String((vary as string | undefined) ?? '')
    .split(',')
    .map((s) => s.trim());

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} with http.corsOrigin a list, item answers, 304s and errors carry Vary: Origin`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR], flags: { http: { corsOrigin: ORIGINS } } });
    try {
      const aip = `/items/${CHAPTER_ID}/aip`;
      const parents = `/items/${CHAPTER_ID}/parents`;
      for (const origin of ['https://a.example', 'https://b.example', 'https://evil.example', undefined]) {
        const allowed = origin !== undefined && origin !== 'https://evil.example';
        const o = origin === undefined ? {} : { origin };
        const first = await t.app.inject({ url: aip, headers: { ...t.json, ...o } });
        const cases = [
          ['aip', first],
          ['aip xml', await t.app.inject({ url: aip, headers: { ...t.xml, ...o } })],
          ['aip gzip', await t.app.inject({ url: aip, headers: { ...t.json, ...o, 'accept-encoding': 'gzip' } })],
          ['aip 304', await t.app.inject({ url: aip, headers: { ...t.json, ...o, 'if-none-match': String(first.headers.etag) } })],
          ['item', await t.app.inject({ url: `/items/${CHAPTER_ID}`, headers: { ...t.json, ...o } })],
          ['parents', await t.app.inject({ url: parents, headers: { ...t.json, ...o } })],
          ['parents br', await t.app.inject({ url: parents, headers: { ...t.json, ...o, 'accept-encoding': 'br' } })],
          ['entities', await t.app.inject({ url: '/entities', headers: { ...t.json, ...o } })],
          ['404', await t.app.inject({ url: '/items/NOPE/aip', headers: { ...t.json, ...o } })],
          ['401', await t.app.inject({ url: aip, headers: { accept: 'application/json', ...o } })],
          ['405', await t.app.inject({ method: 'DELETE', url: aip, headers: { ...t.json, ...o } })],
          ['400', await t.app.inject({ url: '/entities?rows=Infinity', headers: { ...t.json, ...o } })],
        ] as const;
        for (const [label, res] of cases) {
          const what = `${label} from ${origin}`;
          assert.equal(
            res.statusCode,
            {
              aip: 200,
              'aip xml': 200,
              'aip gzip': 200,
              'aip 304': 304,
              item: 200,
              parents: 200,
              'parents br': 200,
              entities: 200,
              '404': 404,
              '401': 401,
              '405': 405,
              '400': 400,
            }[label],
            what,
          );
          assert.equal(varies(res.headers.vary).filter((v) => v === 'Origin').length, 1, `${what}: Vary ${res.headers.vary}`);
          assert.equal(res.headers['access-control-allow-origin'], allowed ? origin : undefined, what);
        }
        // Item answers still vary by Accept and Accept-Encoding.
        assert.deepEqual(varies(first.headers.vary), ['Accept', 'Accept-Encoding', 'Origin']);
      }
      // Over a socket (no fast path with a list of origins) the same.
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      const res = await rawRequest(
        port,
        `GET ${parents} HTTP/1.1\r\nHost: x\r\nOrigin: https://b.example\r\nAccept: application/json\r\nAuthorization: ${t.json.authorization}\r\nConnection: close\r\n\r\n`,
      );
      assert.match(res.head, /\r\nvary: Accept, Accept-Encoding, Origin\r\n/i);
      assert.match(res.head, /\r\naccess-control-allow-origin: https:\/\/b\.example\r\n/i);
      // A parser-level error depends on Origin too.
      const broken = await rawRequest(port, 'GET / HTTP/1.2\r\nHost: x\r\nOrigin: https://a.example\r\n\r\n');
      assert.match(broken.head, /\r\nvary: Origin\r\n/i);
      assert.match(broken.head, /\r\naccess-control-allow-origin: https:\/\/a\.example\r\n/i);
    } finally {
      await t.close();
    }
  });

  test(`${b} with any origin allowed, item answers do not vary by Origin`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      for (const url of [`/items/${CHAPTER_ID}/aip`, `/items/${CHAPTER_ID}/parents`]) {
        const res = await t.app.inject({ url, headers: { ...t.json, origin: 'https://a.example' } });
        assert.equal(res.headers.vary, 'Accept, Accept-Encoding');
        assert.equal(res.headers['access-control-allow-origin'], '*');
      }
    } finally {
      await t.close();
    }
  });
}
