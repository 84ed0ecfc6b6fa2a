/**
 * PostgreSQL schema migrations keep what a store already holds. Migration 2 (as SQLite's
 * migration 11) computes every stored item's stored fields, which a
 * search answer shows of its hits, in batches of 500, inside the one migrate transaction;
 * migration 6 (as SQLite's 15) computes them again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { itemStoredFieldsJson } from '../../src/formats/itemFields.js';
import { encodeBody } from '../../src/store/bodyCodec.js';
import { createPool } from '../../src/store/postgres/db.js';
import { MIGRATIONS, migratePostgres, SCHEMA_VERSION } from '../../src/store/postgres/schema.js';
import { POSTGRES } from '../helpers/backends.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { fixtureItems } from './storeFixtures.js';

test('[postgres] migration 2 gives every item of a store at schema 1 its stored fields; search answers show them', async () => {
  const items = await fixtureItems();
  assert.ok(items.length > 1000, `more than two batches of 500: ${items.length} items`);
  const db = await createTestDatabase();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    // A store as schema 1 left it: items and their bodies, no stored fields.
    await client.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    await client.query(MIGRATIONS[0] as string);
    await client.query('INSERT INTO schema_migrations (version) VALUES (1)');
    for (const item of items) {
      const { rows } = await client.query<{ num: string }>(
        `INSERT INTO items (id, cho_uri, parent_ref, label, hierarchy_type, position, previous_ref, aggregation_entity, etag, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1700000000000) RETURNING num`,
        [
          item.id,
          item.choUri,
          item.parentRef,
          item.label,
          item.hierarchyType,
          item.position,
          item.previousRef,
          item.aggregationEntity,
          item.etag,
        ],
      );
      await client.query('INSERT INTO item_json (item, body) VALUES ($1, $2)', [rows[0]!.num, encodeBody(item.json)]);
      await client.query('INSERT INTO item_xml (item, body) VALUES ($1, $2)', [rows[0]!.num, encodeBody(item.xml)]);
    }
    await client.query("INSERT INTO blocked_items (id, reason, blocked_at) VALUES ($1, 'Claim by the holder.', 1700000000000)", [
      items[3]!.id,
    ]);

    const pool = createPool({ url: db.url, max: 1 });
    try {
      assert.deepEqual(await migratePostgres(pool, db.url), { from: 1, to: SCHEMA_VERSION });
    } finally {
      await pool.end();
    }
    const { rows } = await client.query<{ id: string; doc: string }>(
      'SELECT i.id, f.doc FROM item_fields f JOIN items i ON i.num = f.item',
    );
    const stored = new Map(rows.map((r) => [r.id, r.doc]));
    assert.equal(stored.size, items.length);
    for (const item of items) assert.equal(stored.get(item.id), itemStoredFieldsJson(item.json, item.id), `${item.id}: stored fields`);

    const store = await POSTGRES.connect(db.url);
    try {
      const ids = [items[0]!.id, items[3]!.id, 'NOSUCHITEM'];
      assert.deepEqual(await store.readSearchBodies('item', ids), [itemStoredFieldsJson(items[0]!.json, items[0]!.id), null, null]);
      // Migration 4: an OAI-PMH record for every item, stamped with its updated_at; the blocked one deleted.
      const records = await store.listOaiRecords({ after: 0, limit: items.length + 1, bodies: false });
      assert.deepEqual(records.map((r) => r.id).sort(), items.map((i) => i.id).sort());
      for (const r of records) assert.equal(r.datestamp, 1_700_000_000, r.id);
      assert.deepEqual(
        records.filter((r) => r.deleted).map((r) => r.id),
        [items[3]!.id],
      );
    } finally {
      await store.close();
    }
    // Migration 6 computes them again: stale ones, as schema 5 left them, give way to the new.
    await client.query(`UPDATE item_fields SET doc = '{"stale":true}'`);
    await client.query('DELETE FROM schema_migrations WHERE version >= 6');
    const again = createPool({ url: db.url, max: 1 });
    try {
      assert.deepEqual(await migratePostgres(again, db.url), { from: 5, to: SCHEMA_VERSION });
    } finally {
      await again.end();
    }
    const recomputed = await client.query<{ id: string; doc: string }>(
      'SELECT i.id, f.doc FROM item_fields f JOIN items i ON i.num = f.item',
    );
    assert.equal(recomputed.rows.length, items.length);
    for (const r of recomputed.rows) {
      const item = items.find((i) => i.id === r.id)!;
      assert.equal(r.doc, itemStoredFieldsJson(item.json, item.id), `${item.id}: stored fields again`);
    }
    await client.query('DELETE FROM items WHERE id = $1', [items[0]!.id]);
    const left = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM item_fields');
    assert.equal(left.rows[0]!.n, items.length - 1, 'a deleted item takes its stored fields along');
  } finally {
    await client.end();
    await db.drop();
  }
});
