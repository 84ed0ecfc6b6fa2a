/**
 * The newer generation of the API under /2 (docs/decisions.md "The `/2` prefix"): every
 * operation of /openapi.json answers under /2 exactly as at the root, so a
 * client whose base URL ends in /2 works by changing the host alone.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, type TestBackend } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { jpegImage } from '../helpers/images.js';
import { CHAPTER_ID, CORTEX_DIR, GOETHE_ID } from '../helpers/paths.js';

/** Headers that differ from one answer to the next. */
const PER_ANSWER = ['date', 'connection'];

function comparable(res: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }) {
  return {
    status: res.statusCode,
    headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !PER_ANSWER.includes(k))),
    body: res.rawPayload.toString('latin1'),
  };
}

/** A concrete path for each operation of the description. */
function concrete(path: string): string[] {
  if (path === '/binary/{path}') return [`/binary/${CHAPTER_ID}/list/1.jpg`, '/binary/NOSUCH/list/1.jpg'];
  if (path.includes('{id}')) return [path.replace('{id}', CHAPTER_ID), path.replace('{id}', GOETHE_ID), path.replace('{id}', 'NOSUCHITEM')];
  return [path];
}

async function withApp(backend: TestBackend, run: (t: TestApp) => Promise<void>) {
  const media = mkdtempSync(join(tmpdir(), 'heritage-api-generation-'));
  mkdirSync(join(media, CHAPTER_ID, 'list'), { recursive: true });
  writeFileSync(join(media, CHAPTER_ID, 'list', '1.jpg'), jpegImage(30, 20));
  const t = await startTestApp(backend, { load: [CORTEX_DIR], flags: { media: { path: media } } });
  try {
    await run(t);
  } finally {
    await t.close();
    rmSync(media, { recursive: true, force: true });
  }
}

for (const backend of BACKENDS) {
  describe(`[${backend.name}]`, () => {
    test('every operation of /openapi.json answers under /2 as at the root: status, headers and body', () =>
      withApp(backend, async (t) => {
        const doc = (await t.app.inject({ url: '/openapi.json', headers: { accept: 'application/json' } })).json();
        const paths = Object.keys(doc.paths);
        assert.ok(paths.length >= 18, 'every route is described');
        let compared = 0;
        for (const template of paths) {
          // `/` and iiif name themselves, so their links differ (below).
          if (template === '/' || template.endsWith('/iiif')) continue;
          for (const path of concrete(template)) {
            for (const headers of [t.json, t.xml, { ...t.json, 'accept-encoding': 'gzip' }, { accept: 'text/plain' }, {}]) {
              const root = comparable(await t.app.inject({ url: path, headers }));
              const two = comparable(await t.app.inject({ url: `/2${path}`, headers }));
              assert.deepEqual(two, root, `/2${path} ${JSON.stringify(headers).slice(0, 40)}`);
              compared++;
            }
          }
        }
        assert.ok(compared > 100);
        // Errors that name the path name it as sent.
        const notFound = await t.app.inject({ url: '/2/items/X/nothing', headers: t.json });
        assert.equal(notFound.statusCode, 404);
        assert.match(notFound.json().message, /^There is no GET \/2\/items\/X\/nothing\. /);
        const post = await t.app.inject({ method: 'POST', url: `/2/items/${CHAPTER_ID}/view`, headers: t.json });
        assert.equal(post.statusCode, 405);
        assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
        // Only /2 itself is the prefix.
        for (const path of [`/20/items/${CHAPTER_ID}`, `/2/2/items/${CHAPTER_ID}`, `/2items/${CHAPTER_ID}`]) {
          assert.equal((await t.app.inject({ url: path, headers: t.json })).statusCode, 404, path);
        }
      }));

    test('a IIIF manifest fetched under /2 names itself under /2; everything else in it is the same', () =>
      withApp(backend, async (t) => {
        const headers = { ...t.json, host: 'example.org' };
        const root = await t.app.inject({ url: `/items/${CHAPTER_ID}/iiif`, headers });
        const two = await t.app.inject({ url: `/2/items/${CHAPTER_ID}/iiif`, headers });
        assert.equal(two.statusCode, 200);
        assert.equal(two.json().id, `http://example.org/2/items/${CHAPTER_ID}/iiif`);
        const manifest = `http://example.org/items/${CHAPTER_ID}/iiif`;
        assert.equal(two.body.replaceAll(`http://example.org/2/items/${CHAPTER_ID}/iiif`, manifest), root.body);
      }));

    test('the root under /2 links to the operations under /2', () =>
      withApp(backend, async (t) => {
        const root = (await t.app.inject({ url: '/', headers: { accept: 'application/json' } })).json();
        const two = (await t.app.inject({ url: '/2', headers: { accept: 'application/json' } })).json();
        assert.equal(two.openapi, '/2/openapi.json');
        assert.equal(two.docs, '/2/docs');
        assert.deepEqual(
          two.operations,
          root.operations.map((o: { path: string }) => ({ ...o, path: `/2${o.path}` })),
        );
        assert.deepEqual((await t.app.inject({ url: '/2/', headers: { accept: 'application/json' } })).json(), two);
      }));
  });
}
