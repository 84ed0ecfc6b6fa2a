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
import { MIGRATIONS } from '../../src/store/sqlite/schema.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';

const uri = (id: string) => `http://www.deutsche-digitale-bibliothek.de/item/${id}`;

test('[sqlite] a store at schema 4 keeps its packages, hierarchy and sequence positions through migration 5', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-test-'));
  const path = join(dir, 'old.db');
  try {
    const old = new Database(path);
    for (let v = 0; v < 4; v++) old.exec(MIGRATIONS[v]!);
    old.pragma('user_version = 4');
    const insert = old.prepare(`INSERT INTO items (id, cho_uri, parent_ref, label, hierarchy_type, position, aggregation_entity,
      xml, json, etag, updated_at, previous_ref, source_id, source_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insert.run('ROOT', uri('ROOT'), null, 'Fonds', 'htype_001', '1', 1, Buffer.from('<root/>'), Buffer.from('{"root":1}'), 'e-root', 1_700_000_000_000, null, 'oai:root', null);
    insert.run('FIRST', uri('FIRST'), uri('ROOT'), 'Akte 1', 'htype_002', null, 0, Buffer.from('<first/>'), Buffer.from('{"first":1}'), 'e-first', 1_700_000_001_000, null, null, null);
    insert.run('SECOND', uri('SECOND'), uri('ROOT'), 'Akte 2', 'htype_002', null, 0, Buffer.from('<second/>'), Buffer.from('{"second":1}'), 'e-second', 1_700_000_002_000, uri('FIRST'), null, 'digest-2');
    old.close();

    const store = openSqliteStore({ path });
    try {
      const doc = store.getItemDocument('SECOND', 'json')!;
      assert.deepEqual({ ...doc, body: doc.body.toString() }, { body: '{"second":1}', etag: 'e-second', lastModified: new Date(1_700_000_002_000), blockedReason: null });
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

test('[sqlite] migration 9 drops the old person search tables and keeps each person, its count and its gender for the engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-test-'));
  const path = join(dir, 'old.db');
  try {
    const old = new Database(path);
    for (let v = 0; v < 8; v++) old.exec(MIGRATIONS[v]!);
    old.pragma('user_version = 8');
    const doc = (id: string, name: string) => JSON.stringify({ id, type: 'person', preferredName: name, variantName: [] });
    const insert = old.prepare(`INSERT INTO persons (rowid, id, doc, digest, sort_key, name_key, fields_mask, birth_year, death_year, item_count)
      VALUES (?, ?, ?, 'd', '', '', 0, NULL, NULL, ?)`);
    insert.run(1, 'http://d-nb.info/gnd/1', doc('http://d-nb.info/gnd/1', 'Eins'), 3);
    insert.run(2, 'http://d-nb.info/gnd/2', doc('http://d-nb.info/gnd/2', 'Zwei'), 0);
    // The gender facet (2) and another facet (1), as the old writer kept them.
    const facet = old.prepare('INSERT INTO person_facets (facet, value, person) VALUES (?, ?, ?)');
    facet.run(2, 'Frau', 1);
    facet.run(1, 'Berlin', 1);
    old.close();

    const store = openSqliteStore({ path });
    try {
      const batch = store.readSearchChanges('person', null, 10);
      assert.ok(!('rescan' in batch));
      assert.deepEqual(batch.changes, [
        { id: 'http://d-nb.info/gnd/1', body: `${doc('http://d-nb.info/gnd/1', 'Eins').slice(0, -1)},"gender":["Frau"],"count":3}` },
        { id: 'http://d-nb.info/gnd/2', body: `${doc('http://d-nb.info/gnd/2', 'Zwei').slice(0, -1)},"count":0}` },
      ]);
      // What a search shows has no gender (spec 2.1).
      assert.deepEqual(store.readSearchBodies('person', ['http://d-nb.info/gnd/1']), [`${doc('http://d-nb.info/gnd/1', 'Eins').slice(0, -1)},"count":3}`]);
    } finally {
      store.close();
    }
    const after = new Database(path, { readonly: true });
    try {
      const tables = after.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'person%' ORDER BY name").pluck().all();
      assert.deepEqual(tables, ['persons', 'persons_delete_search', 'persons_insert_search', 'persons_update_id_search', 'persons_update_search']);
      const columns = after.prepare("SELECT name FROM pragma_table_info('persons') ORDER BY cid").pluck().all();
      assert.deepEqual(columns, ['rowid', 'id', 'doc', 'digest', 'item_count', 'gender']);
    } finally {
      after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
