/**
 * Uncompressed package bodies are kept per process while the data is unchanged
 * (src/http/itemDocuments.ts, http.packageBodyCacheBytes). What is
 * served stays exact: the bytes the store holds, their ETag and Last-Modified, 304s; a
 * reloaded item comes with its new bytes, a blocked one with the block error, whether
 * this process or another connection (another node, a running `ingest`) changed it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import type { ItemFormat, Store } from '../../src/store/Store.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { writePackages } from '../helpers/packages.js';

const ID = 'BODYCACHE';
const url = `/items/${ID}/aip`;

/** What the store holds now: the body and validators an identity answer must carry. */
async function stored(store: Store, format: ItemFormat) {
  const doc = (await store.getItemDocument(ID, format))!;
  return { body: Buffer.from(doc.body), etag: `"${doc.etag}-${format}"`, lastModified: doc.lastModified.toUTCString() };
}

async function get(t: TestApp, format: ItemFormat, extra: Record<string, string> = {}) {
  return t.app.inject({ url, headers: { ...(format === 'json' ? t.json : t.xml), 'accept-encoding': 'identity', ...extra } });
}

/** Two requests in a row (the second from memory) answer exactly what the store holds. */
async function assertServesStored(t: TestApp, title: string): Promise<void> {
  for (const format of ['json', 'xml'] as const) {
    const expected = await stored(t.store, format);
    assert.ok(expected.body.toString().includes(title), `${format} holds ${title}`);
    for (let i = 0; i < 2; i++) {
      const res = await get(t, format);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], undefined);
      assert.deepEqual(res.rawPayload, expected.body, `${format} body, request ${i + 1}`);
      assert.equal(res.headers.etag, expected.etag);
      assert.equal(res.headers['last-modified'], expected.lastModified);
    }
    const revalidated = await get(t, format, { 'if-none-match': expected.etag });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.rawPayload.length, 0);
    assert.equal(revalidated.headers.etag, expected.etag);
  }
}

const BLOCKED =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>403</status><name>ItemBlockedException</name>' +
  `<message>Item '${ID}' is not available through this interface: Withdrawn by the provider.</message></error>`;

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} a repeated identity aip is the stored body; a reload or a block is seen at once`, async () => {
    const t = await startTestApp(backend, { load: [writePackages([{ id: ID, title: 'first version' }])] });
    try {
      await assertServesStored(t, 'first version');
      await ingestItems(t.store, [writePackages([{ id: ID, title: 'second version' }])], { batchSize: 10 });
      await assertServesStored(t, 'second version');
      await t.store.blockItem(ID, 'Withdrawn by the provider.');
      const blocked = await get(t, 'xml');
      assert.equal(blocked.statusCode, 403);
      assert.equal(blocked.body, BLOCKED);
      await t.store.unblockItem(ID);
      await assertServesStored(t, 'second version');
    } finally {
      await t.close();
    }
  });

  test(`${b} a cached identity aip follows a reload through another connection, never an old body under a new ETag`, async () => {
    const t = await startTestApp(backend, { load: [writePackages([{ id: ID, title: 'first version' }])] });
    const other = await backend.connect(t.location);
    try {
      await assertServesStored(t, 'first version');
      const before = await stored(t.store, 'xml');
      await ingestItems(other, [writePackages([{ id: ID, title: 'third version' }])], { batchSize: 10 });
      const after = await stored(t.store, 'xml');
      assert.notEqual(after.etag, before.etag);
      // The server sees another connection's commit within its check of the data version (a
      // round trip on PostgreSQL, COMMIT_CHECK_MS on SQLite): until then the old answer, whole.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const res = await get(t, 'xml');
        assert.equal(res.statusCode, 200);
        const now = res.headers.etag === after.etag ? after : before;
        assert.equal(res.headers.etag, now.etag);
        assert.deepEqual(res.rawPayload, now.body);
        if (now === after) break;
        assert.ok(Date.now() < deadline, 'the server never served the reloaded package');
        await new Promise((r) => setImmediate(r));
      }
      await assertServesStored(t, 'third version');
      await other.blockItem(ID, 'Withdrawn by the provider.');
      for (;;) {
        const res = await get(t, 'xml');
        if (res.statusCode === 403) {
          assert.equal(res.body, BLOCKED);
          break;
        }
        assert.deepEqual(res.rawPayload, after.body);
        assert.ok(Date.now() < deadline, 'the server never refused the blocked package');
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      await other.close();
      await t.close();
    }
  });

  test(`${b} with http.packageBodyCacheBytes 0 every identity aip reads the store, and answers alike`, async () => {
    const t = await startTestApp(backend, {
      load: [writePackages([{ id: ID, title: 'first version' }])],
      flags: { http: { packageBodyCacheBytes: 0 } },
    });
    try {
      await assertServesStored(t, 'first version');
      await ingestItems(t.store, [writePackages([{ id: ID, title: 'second version' }])], { batchSize: 10 });
      await assertServesStored(t, 'second version');
    } finally {
      await t.close();
    }
  });
}
