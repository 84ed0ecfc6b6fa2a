/**
 * A `br` package answer: a store that keeps the body as
 * brotli hands it over and it is sent as it is, from the first answer on, so
 * that one ETag is one body; otherwise the HTTP layer compresses it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} a br package answer is the store's brotli form when it keeps one`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      for (const [format, headers] of [
        ['json', t.json],
        ['xml', t.xml],
      ] as const) {
        const doc = (await t.store.getItemDocument(CHAPTER_ID, format))!;
        for (let i = 0; i < 2; i++) {
          // the second answer comes from the compressed cache
          const res = await t.app.inject({ url: `/items/${CHAPTER_ID}/aip`, headers: { ...headers, 'accept-encoding': 'br' } });
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers['content-encoding'], 'br');
          assert.equal(res.headers.etag, `"${doc.etag}-${format}-br"`);
          if (doc.brotli !== undefined) assert.ok(res.rawPayload.equals(doc.brotli), `${format}: the store's brotli form, sent as it is`);
          assert.ok(brotliDecompressSync(res.rawPayload).equals(doc.body));
        }
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} a br package answer follows a new version of the package`, async () => {
    const t = await startTestApp(backend, { load: [writePackages([{ id: 'BRCHANGE', title: 'first version' }])] });
    try {
      const headers = { ...t.xml, 'accept-encoding': 'br' };
      const before = await t.app.inject({ url: '/items/BRCHANGE/aip', headers });
      assert.match(brotliDecompressSync(before.rawPayload).toString(), /<dc:title>first version<\/dc:title>/);
      await ingestItems(t.store, [writePackages([{ id: 'BRCHANGE', title: 'second version' }])], { batchSize: 10 });
      const after = await t.app.inject({ url: '/items/BRCHANGE/aip', headers });
      assert.equal(after.statusCode, 200);
      assert.match(brotliDecompressSync(after.rawPayload).toString(), /<dc:title>second version<\/dc:title>/);
      assert.notEqual(after.headers.etag, before.headers.etag);
      const identity = await t.app.inject({ url: '/items/BRCHANGE/aip', headers: t.xml });
      assert.equal(identity.body, brotliDecompressSync(after.rawPayload).toString());
    } finally {
      await t.close();
    }
  });
}
