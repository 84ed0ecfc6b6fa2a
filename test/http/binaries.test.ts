/**
 * GET /binary/<path> over the real server (docs/api.md
 * "GET /binary/{path}"): files of a media directory made here with small real images,
 * Range and conditional requests (RFC 9110 §13, §14), the redirect to
 * media.baseUrl, and every way out of the directory, sent as raw bytes over a
 * socket so that no client tidies the path first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigOverrides } from '../../src/config.js';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { jpegImage, pngImage } from '../helpers/images.js';
import { CHAPTER_ID } from '../helpers/paths.js';
import { rawRequest } from '../helpers/raw.js';

const LIST = `${CHAPTER_ID}/list/1.jpg`;
const SECRET = "the operator's secret, outside the media directory";

interface Media {
  dir: string;
  jpeg: Buffer;
  dispose(): void;
}

/** A media directory laid out as the packages' paths, a file beside it, and links in and out. */
function makeMedia(): Media {
  const root = mkdtempSync(join(tmpdir(), 'heritage-api-media-'));
  const dir = join(root, 'media');
  const outside = join(root, 'outside');
  mkdirSync(join(dir, CHAPTER_ID, 'list'), { recursive: true });
  mkdirSync(join(dir, CHAPTER_ID, 'grid'), { recursive: true });
  mkdirSync(outside);
  const jpeg = jpegImage(300, 200);
  writeFileSync(join(dir, LIST), jpeg);
  writeFileSync(join(dir, CHAPTER_ID, 'grid', '1.png'), pngImage(7, 5));
  writeFileSync(join(dir, 'drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>');
  writeFileSync(join(outside, 'secret.jpg'), SECRET);
  symlinkSync(join(outside, 'secret.jpg'), join(dir, 'escape.jpg')); // a file link pointing out
  symlinkSync(outside, join(dir, 'escapedir')); // a directory link pointing out
  symlinkSync(join(dir, LIST), join(dir, 'alias.jpg')); // a link that stays inside
  return { dir, jpeg, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

async function withServer(flags: ConfigOverrides, run: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await startTestApp(BACKENDS[0]!, { flags });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const error = (status: number, name: string, message: string) => JSON.stringify({ status, name, message });
const notFound = (path: string) =>
  error(
    404,
    'BinaryNotFoundException',
    `There is no binary at ${path}. The binaries of an item are listed in its package (/items/{id}/aip, part binaries).`,
  );
const invalid = (path: string) =>
  error(
    400,
    'InvalidBinaryPathException',
    `The binary path '${path}' is not valid. A binary path is /binary/<item id>/<variant>/<n>.<ext>, as in the binaries part of a package: ` +
      "segments of letters, digits, '-', '_', '.' and ':'; no segment empty, starting with '.' or holding '..'.",
  );

test('a file of the media directory: bytes, Content-Type, validators, nosniff, open CORS, no API key', async () => {
  const media = makeMedia();
  try {
    // A restricted CORS list elsewhere: viewers on other sites still get the images.
    await withServer({ media: { path: media.dir }, http: { corsOrigin: 'https://portal.example' } }, async (t) => {
      const res = await t.app.inject({ url: `/binary/${LIST}`, headers: { origin: 'https://viewer.example', accept: 'image/*' } });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.rawPayload, media.jpeg);
      assert.equal(res.headers['content-type'], 'image/jpeg');
      assert.equal(res.headers['content-length'], String(media.jpeg.length));
      assert.equal(res.headers['accept-ranges'], 'bytes');
      assert.equal(res.headers['cache-control'], 'public, max-age=300');
      assert.match(String(res.headers.etag), /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
      assert.ok(Number.isFinite(Date.parse(String(res.headers['last-modified']))));
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['content-security-policy'], undefined);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.match(String(res.headers['access-control-expose-headers']), /Content-Range/);
      // The same origin gets nothing from a package: the opening is for binaries only.
      const pkg = await t.app.inject({ url: `/items/${CHAPTER_ID}/aip`, headers: { ...t.json, origin: 'https://viewer.example' } });
      assert.equal(pkg.headers['access-control-allow-origin'], undefined);

      const png = await t.app.inject({ url: `/binary/${CHAPTER_ID}/grid/1.png` });
      assert.equal(png.statusCode, 200);
      assert.equal(png.headers['content-type'], 'image/png');
      assert.deepEqual(png.rawPayload, pngImage(7, 5));

      // A link that stays inside the directory is followed.
      const alias = await t.app.inject({ url: '/binary/alias.jpg' });
      assert.equal(alias.statusCode, 200);
      assert.deepEqual(alias.rawPayload, media.jpeg);

      // Scripts in an SVG opened directly run sandboxed (a file from elsewhere, on our origin).
      const svg = await t.app.inject({ url: '/binary/drawing.svg' });
      assert.equal(svg.statusCode, 200);
      assert.equal(svg.headers['content-type'], 'image/svg+xml');
      assert.equal(svg.headers['content-security-policy'], 'sandbox');

      const head = await t.app.inject({ method: 'HEAD', url: `/binary/${LIST}` });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-length'], String(media.jpeg.length));
      assert.equal(head.headers.etag, res.headers.etag);
      assert.equal(head.body, '');
    });
  } finally {
    media.dispose();
  }
});

test('Range (RFC 9110 §14): 206 with Content-Range for one range, 416 outside the file, the whole file otherwise', async () => {
  const media = makeMedia();
  const size = media.jpeg.length;
  try {
    await withServer({ media: { path: media.dir } }, async (t) => {
      const cases: Array<[string, number, number]> = [
        ['bytes=0-9', 0, 9],
        ['bytes=10-', 10, size - 1],
        ['bytes=-5', size - 5, size - 1],
        [`bytes=100-${size + 1000}`, 100, size - 1], // an end past the file is the last byte (§14.1.2)
      ];
      for (const [range, first, last] of cases) {
        const res = await t.app.inject({ url: `/binary/${LIST}`, headers: { range } });
        assert.equal(res.statusCode, 206, range);
        assert.equal(res.headers['content-range'], `bytes ${first}-${last}/${size}`, range);
        assert.equal(res.headers['content-length'], String(last - first + 1), range);
        assert.deepEqual(res.rawPayload, media.jpeg.subarray(first, last + 1), range);
        assert.equal(res.headers['content-type'], 'image/jpeg');
        assert.equal(res.headers['content-encoding'], undefined, `${range}: a range is never compressed`);
      }

      const outside = await t.app.inject({ url: `/binary/${LIST}`, headers: { range: `bytes=${size}-`, accept: 'application/json' } });
      assert.equal(outside.statusCode, 416);
      assert.equal(outside.headers['content-range'], `bytes */${size}`);
      assert.equal(
        outside.body,
        error(
          416,
          'RangeNotSatisfiableException',
          `The range 'bytes=${size}-' lies outside the file of ${size} bytes (see Content-Range). Ask for bytes from 0 to ${size - 1}, or send no Range.`,
        ),
      );

      // Several ranges: we may send the whole file (§14.2), and do.
      const several = await t.app.inject({ url: `/binary/${LIST}`, headers: { range: 'bytes=0-1,5-6' } });
      assert.equal(several.statusCode, 200);
      assert.deepEqual(several.rawPayload, media.jpeg);

      // If-Range with a validator of another version: the whole file (§13.1.5).
      const stale = await t.app.inject({ url: `/binary/${LIST}`, headers: { range: 'bytes=0-9', 'if-range': 'W/"0-0"' } });
      assert.equal(stale.statusCode, 200);
      assert.deepEqual(stale.rawPayload, media.jpeg);
      const current = (await t.app.inject({ url: `/binary/${LIST}` })).headers;
      const fresh = await t.app.inject({
        url: `/binary/${LIST}`,
        headers: { range: 'bytes=0-9', 'if-range': String(current['last-modified']) },
      });
      assert.equal(fresh.statusCode, 206);
    });
  } finally {
    media.dispose();
  }
});

test('conditional requests: 304 on If-None-Match and If-Modified-Since, 412 on a failed If-Match', async () => {
  const media = makeMedia();
  try {
    await withServer({ media: { path: media.dir } }, async (t) => {
      const first = await t.app.inject({ url: `/binary/${LIST}` });
      const etag = String(first.headers.etag);
      const byTag = await t.app.inject({ url: `/binary/${LIST}`, headers: { 'if-none-match': etag } });
      assert.equal(byTag.statusCode, 304);
      assert.equal(byTag.body, '');
      assert.equal(byTag.headers.etag, etag);
      const byDate = await t.app.inject({
        url: `/binary/${LIST}`,
        headers: { 'if-modified-since': String(first.headers['last-modified']) },
      });
      assert.equal(byDate.statusCode, 304);
      const other = await t.app.inject({ url: `/binary/${LIST}`, headers: { 'if-none-match': 'W/"other"' } });
      assert.equal(other.statusCode, 200);

      const failed = await t.app.inject({ url: `/binary/${LIST}`, headers: { 'if-match': '"other"' } });
      assert.equal(failed.statusCode, 412);
      assert.equal(
        failed.body,
        error(
          412,
          'PreconditionFailedException',
          'The file has changed since the version named in If-Match or If-Unmodified-Since. Fetch it again without them.',
        ),
      );

      // A changed file is a new version.
      writeFileSync(join(media.dir, LIST), jpegImage(64, 64));
      const changed = await t.app.inject({ url: `/binary/${LIST}`, headers: { 'if-none-match': etag } });
      assert.equal(changed.statusCode, 200);
      assert.deepEqual(changed.rawPayload, jpegImage(64, 64));
    });
  } finally {
    media.dispose();
  }
});

test("a clean 404 in the catalog's shape: missing file, directory, nothing configured; XML to a client that prefers it", async () => {
  const media = makeMedia();
  try {
    await withServer({ media: { path: media.dir } }, async (t) => {
      const missing = await t.app.inject({ url: `/binary/${CHAPTER_ID}/list/2.jpg` });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(missing.body, notFound(`/binary/${CHAPTER_ID}/list/2.jpg`));
      const directory = await t.app.inject({ url: `/binary/${CHAPTER_ID}/list` });
      assert.equal(directory.body, notFound(`/binary/${CHAPTER_ID}/list`));
      const xml = await t.app.inject({ url: `/binary/${CHAPTER_ID}/list/2.jpg`, headers: { accept: 'application/xml' } });
      assert.equal(xml.statusCode, 404);
      assert.equal(
        xml.body,
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>404</status><name>BinaryNotFoundException</name>' +
          `<message>There is no binary at /binary/${CHAPTER_ID}/list/2.jpg. The binaries of an item are listed in its package (/items/{id}/aip, part binaries).</message></error>`,
      );
    });
    await withServer({}, async (t) => {
      const off = await t.app.inject({ url: `/binary/${LIST}` });
      assert.equal(off.statusCode, 404);
      assert.equal(
        off.body,
        error(
          404,
          'BinaryNotFoundException',
          'This service serves no binaries: its operator has set neither media.path nor media.baseUrl (docs/configuration.md).',
        ),
      );
    });
  } finally {
    media.dispose();
  }
});

test('nothing outside the media directory: .., encoded slashes and dots, NUL, absolute paths, links pointing out (raw requests)', async () => {
  const media = makeMedia();
  try {
    await withServer({ media: { path: media.dir } }, async (t) => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      const get = (path: string) =>
        rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
      const refused: Array<[string, string]> = [
        ['/binary/../outside/secret.jpg', '/binary/../outside/secret.jpg'],
        ['/binary/../../../../../etc/passwd', '/binary/../../../../../etc/passwd'],
        [`/binary/${CHAPTER_ID}/../../outside/secret.jpg`, `/binary/${CHAPTER_ID}/../../outside/secret.jpg`],
        ['/binary/%2E%2E/outside/secret.jpg', '/binary/%2E%2E/outside/secret.jpg'],
        ['/binary/%2e%2e%2foutside%2fsecret.jpg', '/binary/%2e%2e%2foutside%2fsecret.jpg'],
        ['/binary/..%5Coutside%5Csecret.jpg', '/binary/..%5Coutside%5Csecret.jpg'],
        ['/binary/%252e%252e/outside/secret.jpg', '/binary/%252e%252e/outside/secret.jpg'], // encoded twice
        [`/binary/${CHAPTER_ID}%2Flist%2F1.jpg`, `/binary/${CHAPTER_ID}%2Flist%2F1.jpg`], // an encoded '/' is not a separator
        ['/binary//etc/passwd', '/binary//etc/passwd'], // an absolute path
        ['/binary/%2Fetc%2Fpasswd', '/binary/%2Fetc%2Fpasswd'],
        ['/binary/alias.jpg%00.png', '/binary/alias.jpg%00.png'],
        ['/binary/.hidden', '/binary/.hidden'],
      ];
      for (const [path, shown] of refused) {
        const res = await get(path);
        assert.equal(res.status, 400, path);
        assert.equal(res.body, invalid(shown), path);
        assert.ok(!res.body.includes(SECRET), path);
      }
      // A broken percent-encoding is refused before any path is looked at (the URL, which may hold a key,
      // is not echoed: docs/decisions.md "Keys never leak").
      const broken = await get('/binary/%E0%A4%A');
      assert.equal(broken.status, 400);
      assert.equal(
        broken.body,
        error(
          400,
          'MalformedUrlException',
          "The path of the URL is not valid percent-encoding: each '%' must begin a %XX escape of UTF-8 bytes. Write a literal '%' as %25 and characters outside ASCII as their UTF-8 escapes (e.g. %C3%A4 for 'ä').",
        ),
      );
      // Links are resolved and must stay inside.
      for (const path of ['/binary/escape.jpg', '/binary/escapedir/secret.jpg']) {
        const res = await get(path);
        assert.equal(res.status, 404, path);
        assert.equal(res.body, notFound(path), path);
      }
      const inside = await get('/binary/alias.jpg');
      assert.equal(inside.status, 200);
    });
  } finally {
    media.dispose();
  }
});

test('media.baseUrl: a 307 to the same path under it, for files the directory does not hold', async () => {
  const media = makeMedia();
  try {
    await withServer({ media: { baseUrl: 'https://media.example.org/ddb/' } }, async (t) => {
      const res = await t.app.inject({ method: 'GET', url: `/binary/${LIST}?width=100` });
      assert.equal(res.statusCode, 307);
      assert.equal(res.headers.location, `https://media.example.org/ddb/${LIST}`);
      assert.equal(res.headers['cache-control'], 'public, max-age=300');
      assert.equal(res.body, '');
      // Checked like a file path: no redirect can be steered elsewhere.
      const bad = await t.app.inject({ url: '/binary/%2F%2Fevil.example' });
      assert.equal(bad.statusCode, 400);
    });
    await withServer({ media: { path: media.dir, baseUrl: 'https://media.example.org/ddb' } }, async (t) => {
      const held = await t.app.inject({ url: `/binary/${LIST}` });
      assert.equal(held.statusCode, 200);
      assert.deepEqual(held.rawPayload, media.jpeg);
      const elsewhere = await t.app.inject({ url: `/binary/${CHAPTER_ID}/full/1.jpg` });
      assert.equal(elsewhere.statusCode, 307);
      assert.equal(elsewhere.headers.location, `https://media.example.org/ddb/${CHAPTER_ID}/full/1.jpg`);
    });
  } finally {
    media.dispose();
  }
});

test('media.requireKey: binaries ask for the API key like every other operation', async () => {
  const media = makeMedia();
  try {
    await withServer({ media: { path: media.dir, requireKey: true } }, async (t) => {
      const without = await t.app.inject({ url: `/binary/${LIST}` });
      assert.equal(without.statusCode, 401);
      assert.equal(without.headers['www-authenticate'], 'OAuth realm="heritage-api"');
      const header = await t.app.inject({ url: `/binary/${LIST}`, headers: { authorization: t.json.authorization! } });
      assert.equal(header.statusCode, 200);
      const query = await t.app.inject({ url: `/binary/${LIST}?oauth_consumer_key=${t.key}` });
      assert.equal(query.statusCode, 200);
      assert.deepEqual(query.rawPayload, media.jpeg);
    });
  } finally {
    media.dispose();
  }
});

test('a media.path that is not a readable directory stops the server at start, saying so', async () => {
  const media = makeMedia();
  const opened = await BACKENDS[0]!.open();
  try {
    for (const [path, message] of [
      [join(media.dir, 'no-such-dir'), `media.path '${join(media.dir, 'no-such-dir')}' cannot be read: ENOENT`],
      [join(media.dir, LIST), `media.path '${join(media.dir, LIST)}' is not a directory.`],
    ]) {
      const config = loadConfig({ flags: { store: BACKENDS[0]!.config(opened.location), media: { path } } });
      await assert.rejects(
        buildServer(config, opened.store, { logging: false }),
        (e: Error) => e.name === 'UsageError' && e.message.startsWith(message!),
        path,
      );
    }
  } finally {
    await opened.dispose();
    media.dispose();
  }
});
