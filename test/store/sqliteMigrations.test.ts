/**
 * Schema migrations keep what a store already holds. Migration 5 (issue #5)
 * moves package bodies out of the items row: a store written before it serves
 * the same packages and hierarchies after it, and deleting an item deletes
 * its bodies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrate } from '../../src/store/sqlite/schema.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';

const uri = (id: string) => `http://www.deutsche-digitale-bibliothek.de/item/${id}`;

test('[sqlite] a store at schema 4 keeps its packages, hierarchy and sequence positions through migration 5', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-test-'));
  const path = join(dir, 'old.db');
  try {
    const old = new Database(path);
    migrate(old, 4);
    const insert = old.prepare(`INSERT INTO items (id, cho_uri, parent_ref, label, hierarchy_type, position, aggregation_entity,
      xml, json, etag, updated_at, previous_ref, source_id, source_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insert.run('ROOT', uri('ROOT'), null, 'Fonds', 'htype_001', '1', 1, Buffer.from('<root/>'), Buffer.from('{"root":1}'), 'e-root', 1_700_000_000_000, null, 'oai:root', null);
    insert.run('FIRST', uri('FIRST'), uri('ROOT'), 'Akte 1', 'htype_002', null, 0, Buffer.from('<first/>'), Buffer.from('{"first":1}'), 'e-first', 1_700_000_001_000, null, null, null);
    insert.run('SECOND', uri('SECOND'), uri('ROOT'), 'Akte 2', 'htype_002', null, 0, Buffer.from('<second/>'), Buffer.from('{"second":1}'), 'e-second', 1_700_000_002_000, uri('FIRST'), null, 'digest-2');
    old.close();

    const store = openSqliteStore({ path });
    try {
      const doc = store.getItemDocument('SECOND', 'json')!;
      const { brotli: _, ...plain } = doc;
      assert.deepEqual({ ...plain, body: doc.body.toString() }, { body: '{"second":1}', etag: 'e-second', lastModified: new Date(1_700_000_002_000), blockedReason: null });
      assert.equal(store.getItemDocument('ROOT', 'xml')!.body.toString(), '<root/>');
      assert.deepEqual(store.getItemHead('FIRST'), { etag: 'e-first', lastModified: new Date(1_700_000_001_000), blockedReason: null });
      assert.deepEqual(store.getAncestry('SECOND')!.nodes, [
        { id: 'SECOND', parent: 'ROOT', label: 'Akte 2', type: 'htype_002', position: '2', leaf: true, aggregationEntity: false },
        { id: 'ROOT', parent: null, label: 'Fonds', type: 'htype_001', position: '1', leaf: false, aggregationEntity: true },
      ]);
      assert.deepEqual(store.applyItemChanges([{ kind: 'delete', sourceId: 'oai:root' }]), { inserted: 0, updated: 0, unchanged: 0, deleted: 1 });
    } finally {
      store.close();
    }
    const after = new Database(path, { readonly: true });
    try {
      assert.equal(after.pragma('user_version', { simple: true }), MIGRATIONS.length);
      const bodies = (table: string) => after.prepare(`SELECT i.id FROM ${table} b JOIN items i ON i.num = b.item ORDER BY i.id`).pluck().all();
      assert.deepEqual(bodies('item_json'), ['FIRST', 'SECOND'], 'the deleted item took its bodies along');
      assert.deepEqual(bodies('item_xml'), ['FIRST', 'SECOND']);
      assert.equal(after.prepare('SELECT count(*) FROM item_json').pluck().get(), 2, 'no orphaned bodies');
      const indexes = after.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL ORDER BY name").pluck().all();
      assert.deepEqual(indexes, ['items_cho_uri', 'items_parent_ref', 'items_previous_ref', 'items_source_id']);
    } finally {
      after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
