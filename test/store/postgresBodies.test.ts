/**
 * Package bodies on PostgreSQL: kept brotli-compressed as SQLite keeps
 * them (src/store/bodyCodec.ts), so the stored bytes are the `br` form a client is sent,
 * the same bytes whichever backend answers, and every body comes back as it was loaded.
 * (test/store/packageBodies.test.ts checks the same on SQLite through a load from files.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { itemStoredFieldsJson } from '../../src/formats/itemFields.js';
import { encodeBody } from '../../src/store/bodyCodec.js';
import { POSTGRES } from '../helpers/backends.js';
import { fixtureItems } from './storeFixtures.js';

test('[postgres] every fixture package is stored as brotli and comes back byte for byte', async () => {
  const items = await fixtureItems();
  assert.ok(items.length >= 1000, `the fixtures hold 1,000 packages or more, ${items.length} were read`);
  const { store, location, dispose } = await POSTGRES.open();
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    for (let i = 0; i < items.length; i += 100) await store.upsertItems(items.slice(i, i + 100));
    let textBytes = 0;
    for (const item of items) {
      for (const format of ['json', 'xml'] as const) {
        const expected = Buffer.from(item[format], 'utf8');
        textBytes += expected.length;
        const doc = await store.getItemDocument(item.id, format);
        assert.ok(doc, `${item.id} ${format}`);
        assert.ok(doc.body.equals(expected), `${item.id} ${format}: the body differs from what was loaded`);
        // Read twice: the second may come from the cache of decoded bodies.
        assert.ok((await store.getItemDocument(item.id, format))!.body.equals(expected), `${item.id} ${format}, read again`);
        // The very bytes SQLite keeps for it: one ETag is one br body on every backend.
        assert.ok(doc.brotli?.equals(encodeBody(expected)), `${item.id} ${format}: the brotli form is not the shared encoding's`);
        assert.equal(doc.etag, item.etag);
      }
      assert.deepEqual(
        await store.readSearchBodies('item', [item.id]),
        [itemStoredFieldsJson(item.json, item.id)],
        `${item.id}: the stored fields`,
      );
    }

    // What is on disk is the compressed form: read past the store, from the tables themselves.
    const stored = await client.query<{ packages: number; bytes: string; disk: string }>(
      `SELECT (SELECT count(*) FROM items)::int AS packages,
              ((SELECT sum(octet_length(body)) FROM item_json) + (SELECT sum(octet_length(body)) FROM item_xml))::bigint AS bytes,
              (pg_total_relation_size('items') + pg_total_relation_size('item_json') + pg_total_relation_size('item_xml'))::bigint AS disk`,
    );
    // bigint comes back as text from a plain client.
    const packages = stored.rows[0]!.packages;
    const bytes = Number(stored.rows[0]!.bytes);
    const disk = Number(stored.rows[0]!.disk);
    assert.equal(packages, items.length);
    assert.ok(bytes * 3 < textBytes, `bodies stored in ${bytes} bytes for ${textBytes} of text: not compressed`);
    // Point 6 asks ≤ 12 KB a package for the bench's packages, which are larger than these.
    assert.ok(disk / packages <= 12 * 1024, `${Math.round(disk / packages)} bytes on disk a package, with its row and indexes`);
  } finally {
    await client.end();
    await dispose();
  }
});
