/**
 * GET /items/{id}/iiif over the real server (docs/api.md
 * "GET /items/{id}/iiif"): real fixture packages loaded by the real ingest, a media directory
 * of small real images made here, every manifest checked against
 * test/fixtures/iiif-presentation-3-structure.schema.json (structural rules
 * written from the specification; no npm package ships the official schema).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigOverrides } from '../../src/config.js';
import { BACKENDS, type TestBackend } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { iiifProblems } from '../helpers/iiifSchema.js';
import { jpegImage } from '../helpers/images.js';
import { writePackages } from '../helpers/packages.js';
import { CHAPTER_ID, CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const FLUTE_ID = 'QOYTRJ4576TP7OAF2AXW2ORLMBTWZDGL'; // MIMO record76, six views
const FLUTE = `${FIXTURES}items/edm/mimo/09102_Ag_EU_MIMO_EDM_record76.xml`;
const LD_JSON = 'application/ld+json; profile="http://iiif.io/api/presentation/3/context.json"; charset=utf-8';
const HOST = 'iiif.example.org';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- IIIF bodies are read as parsed JSON; the schema test types them
type Json = Record<string, any>;

async function withServer(backend: TestBackend, flags: ConfigOverrides, run: (t: TestApp, media: string) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'heritage-api-iiif-'));
  const media = join(root, 'media');
  mkdirSync(join(media, CHAPTER_ID, 'list'), { recursive: true });
  mkdirSync(join(media, FLUTE_ID, 'list'), { recursive: true });
  writeFileSync(join(media, CHAPTER_ID, 'list', '1.jpg'), jpegImage(300, 200));
  // Stored 40 × 30, shown turned by 90° (EXIF orientation 6).
  writeFileSync(join(media, FLUTE_ID, 'list', '1.jpg'), jpegImage(40, 30, { orientation: 6 }));
  writeFileSync(join(media, FLUTE_ID, 'list', '2.jpg'), jpegImage(64, 48));
  const packages = writePackages([{ id: 'NOBINARIES', title: 'Ohne Digitalisat' }]);
  const t = await startTestApp(backend, { load: [CORTEX_DIR, FLUTE, packages], flags: { media: { path: media }, ...flags } });
  try {
    await run(t, media);
  } finally {
    await t.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(packages, { recursive: true, force: true });
  }
}

const error = (status: number, name: string, message: string) => JSON.stringify({ status, name, message });

for (const backend of BACKENDS) {
  describe(`[${backend.name}]`, () => {
    test('a manifest from the package and the media directory: JSON-LD, valid, sizes from the images, links that work', async () => {
      await withServer(backend, {}, async (t) => {
        const res = await t.app.inject({
          url: `/items/${CHAPTER_ID}/iiif`,
          headers: { ...t.json, accept: 'application/ld+json', host: HOST },
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], LD_JSON);
        assert.equal(res.headers.vary, 'Accept, Accept-Encoding');
        assert.equal(res.headers['cache-control'], 'public, max-age=300');
        const m: Json = res.json();
        assert.deepEqual(iiifProblems(m), []);
        assert.equal(m.id, `http://${HOST}/items/${CHAPTER_ID}/iiif`);
        assert.deepEqual(m.label, { none: ['XI. * * *'] });
        assert.deepEqual(m.seeAlso[0].id, `http://${HOST}/items/${CHAPTER_ID}/aip`);
        // list/1.jpg is the largest variant the directory holds: painted at its size.
        const canvas = m.items[0];
        assert.deepEqual([canvas.width, canvas.height], [300, 200]);
        const body = canvas.items[0].items[0].body;
        assert.deepEqual(body, {
          id: `http://${HOST}/binary/${CHAPTER_ID}/list/1.jpg`,
          type: 'Image',
          format: 'image/jpeg',
          width: 300,
          height: 200,
        });
        // The image link is served by /binary, without a key.
        const image = await t.app.inject({ url: new URL(body.id).pathname, headers: { host: HOST } });
        assert.equal(image.statusCode, 200);
        assert.deepEqual(image.rawPayload, jpegImage(300, 200));
        // seeAlso is the package, with the key the client already has.
        const aip = await t.app.inject({ url: new URL(m.seeAlso[0].id).pathname, headers: t.json });
        assert.equal(aip.statusCode, 200);
        assert.equal(aip.json().properties['item-id'], CHAPTER_ID);
      });
    });

    test('one canvas per binary in position order; sizes as a viewer shows the image (EXIF orientation), else the default', async () => {
      await withServer(backend, {}, async (t) => {
        const res = await t.app.inject({ url: `/items/${FLUTE_ID}/iiif`, headers: { ...t.json, host: HOST } });
        assert.equal(res.statusCode, 200);
        const m: Json = res.json();
        assert.deepEqual(iiifProblems(m), []);
        assert.deepEqual(
          m.items.map((c: Json) => [c.id.split('/').pop(), c.width, c.height, c.items[0].items[0].body.id.split('/').pop()]),
          [
            ['1', 30, 40, '1.jpg'],
            ['2', 64, 48, '2.jpg'],
            ['3', 1000, 1000, '3.jpg'],
            ['4', 1000, 1000, '4.jpg'],
            ['5', 1000, 1000, '5.jpg'],
            ['6', 1000, 1000, '6.jpg'],
          ],
        );
        assert.deepEqual(m.start, { id: `http://${HOST}/items/${FLUTE_ID}/iiif/canvas/1`, type: 'Canvas' });
      });
    });

    test('negotiation: JSON-LD with the Presentation 3 profile, or JSON to a client that prefers it; 406 otherwise', async () => {
      await withServer(backend, {}, async (t) => {
        const cases: Array<[string, string]> = [
          ['application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"', LD_JSON],
          ['application/ld+json', LD_JSON],
          ['*/*', LD_JSON],
          ['application/json', 'application/json; charset=utf-8'],
          ['application/json, application/ld+json;q=0.5', 'application/json; charset=utf-8'],
        ];
        let body: string | undefined;
        for (const [accept, type] of cases) {
          const res = await t.app.inject({ url: `/items/${CHAPTER_ID}/iiif`, headers: { ...t.json, accept } });
          assert.equal(res.statusCode, 200, accept);
          assert.equal(res.headers['content-type'], type, accept);
          body ??= res.body;
          assert.equal(res.body, body, `${accept}: the same manifest`);
        }
        const offered = 'application/ld+json;profile="http://iiif.io/api/presentation/3/context.json" or application/json';
        const xml = await t.app.inject({ url: `/items/${CHAPTER_ID}/iiif`, headers: { ...t.json, accept: 'application/xml' } });
        assert.equal(xml.statusCode, 406);
        assert.equal(
          xml.body,
          '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>406</status><name>NotAcceptableException</name>' +
            `<message>The requested type is not acceptable. Send an Accept header that allows ${offered}.</message></error>`,
        );
        const none = await t.app.inject({ url: `/items/${CHAPTER_ID}/iiif`, headers: { authorization: t.json.authorization! } });
        assert.equal(none.statusCode, 406);
        assert.equal(
          none.body,
          error(
            406,
            'NotAcceptableException',
            `The requested type is not acceptable. Send an Accept header that allows ${offered} (none was sent).`,
          ),
        );
      });
      await withServer(backend, { http: { requireAccept: false } }, async (t) => {
        const none = await t.app.inject({ url: `/items/${CHAPTER_ID}/iiif`, headers: { authorization: t.json.authorization! } });
        assert.equal(none.statusCode, 200);
        assert.equal(none.headers['content-type'], LD_JSON);
      });
    });

    test('errors: no binaries, no item, a bad id, a blocked item, no key; the key in the query string works and is never echoed', async () => {
      await withServer(backend, {}, async (t) => {
        const cases: Array<[string, Record<string, string>, number, string]> = [
          [
            '/items/NOBINARIES/iiif',
            t.json,
            404,
            error(
              404,
              'NoBinariesException',
              "Item 'NOBINARIES' has no binaries, so there is no IIIF manifest for it. Its package is at /items/NOBINARIES/aip.",
            ),
          ],
          ['/items/NOSUCHITEM/iiif', t.json, 404, error(404, 'ItemNotFoundException', "Item 'NOSUCHITEM' not found.")],
          [
            '/items/a..b/iiif',
            t.json,
            400,
            error(
              400,
              'InvalidItemIdException',
              "The item id 'a..b' is not valid. An item id is 1 to 200 characters: letters, digits, '-', '_', '.' and ':', not starting with '.' and without '..'.",
            ),
          ],
          [
            `/items/${CHAPTER_ID}/iiif`,
            { accept: 'application/json' },
            401,
            error(
              401,
              'NotAuthorizedException',
              'No API key was sent. Send \'Authorization: OAuth oauth_consumer_key="<API key>"\' or the query parameter oauth_consumer_key=<API key>.',
            ),
          ],
        ];
        for (const [url, headers, status, body] of cases) {
          const res = await t.app.inject({ url, headers });
          assert.equal(res.statusCode, status, url);
          assert.equal(res.body, body, url);
        }
        // IIIF viewers are given a URL, not headers: the key in the query string.
        const viewer = await t.app.inject({ url: `/items/${CHAPTER_ID}/iiif?oauth_consumer_key=${t.key}`, headers: { accept: '*/*' } });
        assert.equal(viewer.statusCode, 200);
        assert.equal(viewer.body.includes(t.key), false);
        assert.equal(viewer.json().id, `http://localhost:80/items/${CHAPTER_ID}/iiif`);

        await t.store.blockItem(CHAPTER_ID, 'withdrawn by the provider');
        const blocked = await t.app.inject({ url: `/items/${CHAPTER_ID}/iiif`, headers: t.json });
        assert.equal(blocked.statusCode, 403);
        assert.equal(
          blocked.body,
          error(403, 'ItemBlockedException', `Item '${CHAPTER_ID}' is not available through this interface: withdrawn by the provider`),
        );
      });
    });

    test("open CORS whatever http.corsOrigin says; ids from the proxy's forwarded host and scheme; a junk Host is a 400", async () => {
      await withServer(backend, { http: { corsOrigin: 'https://portal.example' }, server: { trustProxy: true } }, async (t) => {
        const res = await t.app.inject({
          url: `/items/${CHAPTER_ID}/iiif`,
          headers: {
            ...t.json,
            origin: 'https://viewer.example',
            'x-forwarded-proto': 'https',
            'x-forwarded-host': 'heritage.example.org',
          },
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['access-control-allow-origin'], '*');
        const m: Json = res.json();
        assert.equal(m.id, `https://heritage.example.org/items/${CHAPTER_ID}/iiif`);
        assert.equal(m.items[0].items[0].items[0].body.id, `https://heritage.example.org/binary/${CHAPTER_ID}/list/1.jpg`);
        assert.deepEqual(iiifProblems(m), []);

        const junk = await t.app.inject({
          url: `/items/${CHAPTER_ID}/iiif`,
          headers: { ...t.json, 'x-forwarded-host': 'evil.example/"><x' },
        });
        assert.equal(junk.statusCode, 400);
        assert.equal(
          junk.body,
          error(
            400,
            'BadRequestException',
            "Bad request: the Host header 'evil.example/\"><x' is not a host name with an optional port; the manifest's URLs are built from it.",
          ),
        );
      });
    });

    test('validators: 304 on the ETag; a changed image is a new manifest, dated by the file', async () => {
      await withServer(backend, {}, async (t, media) => {
        const url = `/items/${CHAPTER_ID}/iiif`;
        const first = await t.app.inject({ url, headers: t.json });
        const etag = String(first.headers.etag);
        assert.match(etag, /^W\/"[A-Za-z0-9_-]+"$/);
        const again = await t.app.inject({ url, headers: { ...t.json, 'if-none-match': etag } });
        assert.equal(again.statusCode, 304);
        assert.equal(again.body, '');
        assert.equal(again.headers.etag, etag);

        const image = join(media, CHAPTER_ID, 'list', '1.jpg');
        writeFileSync(image, jpegImage(120, 160));
        const changed = await t.app.inject({ url, headers: { ...t.json, 'if-none-match': etag } });
        assert.equal(changed.statusCode, 200);
        assert.notEqual(changed.headers.etag, etag);
        assert.deepEqual([changed.json().items[0].width, changed.json().items[0].height], [120, 160]);
        const modified = Date.parse(String(changed.headers['last-modified']));
        assert.equal(modified, Math.floor(statSync(image).mtimeMs / 1000) * 1000);
      });
    });
  });
}
