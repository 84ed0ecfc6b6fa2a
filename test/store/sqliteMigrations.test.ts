/**
 * Schema migrations keep what a store already holds. Migration 5
 * moves package bodies out of the items row: a store written before it serves
 * the same packages and hierarchies after it, and deleting an item deletes
 * its bodies. Migration 10 compresses the bodies, all or
 * none. Migration 11 computes every stored item's stored fields, migration 15 computes them
 * again (the licence facets and coordinates they gained).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { UsageError } from '../../src/errors.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import { itemStoredFieldsJson } from '../../src/formats/itemFields.js';
import type { PreparedItem } from '../../src/store/Store.js';
import { MIGRATIONS, migrate } from '../../src/store/sqlite/schema.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cortexXml } from '../helpers/packages.js';
import { CORTEX_DIR, FIXTURES, OTHER_CORTEX_ID } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const uri = (id: string) => `http://www.deutsche-digitale-bibliothek.de/item/${id}`;

test('[sqlite] a store at schema 4 keeps its packages, hierarchy and sequence positions through migration 5', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'old.db');
  try {
    const old = new Database(path);
    migrate(old, 4);
    const insert = old.prepare(`INSERT INTO items (id, cho_uri, parent_ref, label, hierarchy_type, position, aggregation_entity,
      xml, json, etag, updated_at, previous_ref, source_id, source_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insert.run(
      'ROOT',
      uri('ROOT'),
      null,
      'Fonds',
      'htype_001',
      '1',
      1,
      Buffer.from('<root/>'),
      Buffer.from('{"root":1}'),
      'e-root',
      1_700_000_000_000,
      null,
      'oai:root',
      null,
    );
    insert.run(
      'FIRST',
      uri('FIRST'),
      uri('ROOT'),
      'Akte 1',
      'htype_002',
      null,
      0,
      Buffer.from('<first/>'),
      Buffer.from('{"first":1}'),
      'e-first',
      1_700_000_001_000,
      null,
      null,
      null,
    );
    insert.run(
      'SECOND',
      uri('SECOND'),
      uri('ROOT'),
      'Akte 2',
      'htype_002',
      null,
      0,
      Buffer.from('<second/>'),
      Buffer.from('{"second":1}'),
      'e-second',
      1_700_000_002_000,
      uri('FIRST'),
      null,
      'digest-2',
    );
    old.close();

    const store = openSqliteStore({ path });
    try {
      const doc = (await store.getItemDocument('SECOND', 'json'))!;
      const { brotli: _, ...plain } = doc;
      assert.deepEqual(
        { ...plain, body: doc.body.toString() },
        { body: '{"second":1}', etag: 'e-second', lastModified: new Date(1_700_000_002_000), blockedReason: null },
      );
      assert.equal((await store.getItemDocument('ROOT', 'xml'))!.body.toString(), '<root/>');
      assert.deepEqual(await store.getItemHead('FIRST'), {
        etag: 'e-first',
        lastModified: new Date(1_700_000_001_000),
        blockedReason: null,
      });
      assert.deepEqual((await store.getAncestry('SECOND'))!.nodes, [
        { id: 'SECOND', parent: 'ROOT', label: 'Akte 2', type: 'htype_002', position: '2', leaf: true, aggregationEntity: false },
        { id: 'ROOT', parent: null, label: 'Fonds', type: 'htype_001', position: '1', leaf: false, aggregationEntity: true },
      ]);
      assert.deepEqual(await store.applyItemChanges([{ kind: 'delete', sourceId: 'oai:root' }]), {
        inserted: 0,
        updated: 0,
        unchanged: 0,
        deleted: 1,
      });
    } finally {
      await store.close();
    }
    const after = new Database(path, { readonly: true });
    try {
      assert.equal(after.pragma('user_version', { simple: true }), MIGRATIONS.length);
      const bodies = (table: string) =>
        after.prepare(`SELECT i.id FROM ${table} b JOIN items i ON i.num = b.item ORDER BY i.id`).pluck().all();
      assert.deepEqual(bodies('item_json'), ['FIRST', 'SECOND'], 'the deleted item took its bodies along');
      assert.deepEqual(bodies('item_xml'), ['FIRST', 'SECOND']);
      assert.equal(after.prepare('SELECT count(*) FROM item_json').pluck().get(), 2, 'no orphaned bodies');
      const indexes = after
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL ORDER BY name")
        .pluck()
        .all();
      assert.deepEqual(indexes, ['items_cho_uri', 'items_parent_ref', 'items_previous_ref', 'items_source_id']);
    } finally {
      after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('[sqlite] migration 9 drops the old person search tables and keeps each person, its count and its gender for the engine', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'old.db');
  try {
    const old = new Database(path);
    migrate(old, 8);
    const doc = (id: string, name: string) => JSON.stringify({ id, type: 'person', preferredName: name, variantName: [] });
    const insert =
      old.prepare(`INSERT INTO persons (rowid, id, doc, digest, sort_key, name_key, fields_mask, birth_year, death_year, item_count)
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
      const batch = await store.readSearchChanges('person', null, 10);
      assert.ok(!('rescan' in batch));
      assert.deepEqual(batch.changes, [
        { id: 'http://d-nb.info/gnd/1', body: `${doc('http://d-nb.info/gnd/1', 'Eins').slice(0, -1)},"gender":["Frau"],"count":3}` },
        { id: 'http://d-nb.info/gnd/2', body: `${doc('http://d-nb.info/gnd/2', 'Zwei').slice(0, -1)},"count":0}` },
      ]);
      // What a search shows has no gender (spec 2.1).
      assert.deepEqual(await store.readSearchBodies('person', ['http://d-nb.info/gnd/1']), [
        `${doc('http://d-nb.info/gnd/1', 'Eins').slice(0, -1)},"count":3}`,
      ]);
    } finally {
      await store.close();
    }
    const after = new Database(path, { readonly: true });
    try {
      const tables = after.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'person%' ORDER BY name").pluck().all();
      assert.deepEqual(tables, [
        'persons',
        'persons_counted_in',
        'persons_counted_out',
        'persons_delete_search',
        'persons_insert_search',
        'persons_update_id_search',
        'persons_update_search',
      ]);
      const columns = after.prepare("SELECT name FROM pragma_table_info('persons') ORDER BY cid").pluck().all();
      // updated_at: migration 16, for the sitemap's lastmod.
      assert.deepEqual(columns, ['rowid', 'id', 'doc', 'digest', 'item_count', 'gender', 'updated_at']);
    } finally {
      after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Migration 10: a store as schema 9 wrote it, bodies uncompressed, made
 * here by applying the migrations up to 8 and writing rows as that version did: the real
 * cortex fixtures, and enough small packages to take more than one conversion batch.
 */
function storeAtSchema9(path: string): { items: PreparedItem[]; blocked: string } {
  const items: PreparedItem[] = [];
  for (const name of readdirSync(CORTEX_DIR).sort()) {
    for (const r of readItemRecords(readFileSync(join(CORTEX_DIR, name), 'utf8'))) if (r.kind === 'item') items.push(r.item);
  }
  assert.equal(items.length, 5, 'the five cortex fixtures');
  for (let k = 0; k < 1100; k++) {
    const [r] = readItemRecords(
      cortexXml({
        id: `OLD${String(k).padStart(4, '0')}`,
        title: `Akte ${k} – “${'ä'.repeat(k % 7)}”`,
        parent: k > 0 ? 'OLD0000' : undefined,
      }),
    );
    assert.equal(r?.kind, 'item');
    items.push((r as { item: PreparedItem }).item);
  }
  const old = new Database(path);
  try {
    migrate(old, 9);
    const insert =
      old.prepare(`INSERT INTO items (id, cho_uri, parent_ref, previous_ref, label, hierarchy_type, position, aggregation_entity, etag, updated_at)
      VALUES (@id, @choUri, @parentRef, @previousRef, @label, @hierarchyType, @position, @aggregationEntity, @etag, 1700000000000) RETURNING num`);
    const json = old.prepare('INSERT INTO item_json (item, body) VALUES (?, ?)');
    const xml = old.prepare('INSERT INTO item_xml (item, body) VALUES (?, ?)');
    old.transaction(() => {
      for (const item of items) {
        const { num } = insert.get({ ...item, aggregationEntity: item.aggregationEntity ? 1 : 0 }) as { num: number };
        json.run(num, Buffer.from(item.json, 'utf8'));
        xml.run(num, Buffer.from(item.xml, 'utf8'));
      }
    })();
    old
      .prepare('INSERT INTO blocked_items (id, reason, blocked_at) VALUES (?, ?, ?)')
      .run('OLD0007', 'Claim by the holder.', 1_700_000_000_000);
  } finally {
    old.close();
  }
  return { items, blocked: 'OLD0007' };
}

const rawBody = (db: Database.Database, table: string, id: string) =>
  db.prepare<[string], Buffer>(`SELECT b.body FROM ${table} b JOIN items i ON i.num = b.item WHERE i.id = ?`).pluck().get(id)!;
const changeCount = (db: Database.Database) => db.prepare<[], number>('SELECT count(*) FROM search_item_changes').pluck().get()!;

test('[sqlite] migration 10 compresses the bodies of a store at schema 9; they read back byte for byte', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'old.db');
  try {
    const { items, blocked } = storeAtSchema9(path);
    const before = new Database(path, { readonly: true });
    const loggedBefore = changeCount(before);
    before.close();

    const store = openSqliteStore({ path });
    try {
      for (const item of items) {
        for (const format of ['json', 'xml'] as const) {
          assert.ok((await store.getItemDocument(item.id, format))!.body.equals(Buffer.from(item[format], 'utf8')), `${item.id} ${format}`);
        }
      }
      assert.equal((await store.getItemDocument(blocked, 'json'))!.blockedReason, 'Claim by the holder.');
      assert.equal((await store.readSearchBodies('item', [items[0]!.id]))[0], itemStoredFieldsJson(items[0]!.json, items[0]!.id));
    } finally {
      await store.close();
    }

    const after = new Database(path);
    try {
      assert.equal(after.pragma('user_version', { simple: true }), MIGRATIONS.length);
      assert.deepEqual(after.prepare('SELECT name, value FROM store_format ORDER BY name').all(), [
        { name: 'item_json', value: 'br' },
        { name: 'item_xml', value: 'br' },
      ]);
      let raw = 0;
      let stored = 0;
      for (const item of items) {
        for (const [table, text] of [
          ['item_json', item.json],
          ['item_xml', item.xml],
        ] as const) {
          const onDisk = rawBody(after, table, item.id);
          assert.ok(brotliDecompressSync(onDisk).equals(Buffer.from(text, 'utf8')), `${item.id} ${table} on disk is brotli of its body`);
          raw += Buffer.byteLength(text);
          stored += onDisk.length;
        }
      }
      assert.ok(stored < raw / 2, `stored ${stored} bytes for ${raw}`);
      assert.equal(changeCount(after), loggedBefore, 'converting a body is not a change of its search document');
      // The change log's update trigger is back: a new body of an item is logged.
      after.prepare('UPDATE item_json SET body = body WHERE item = (SELECT num FROM items WHERE id = ?)').run('OLD0001');
      assert.equal(changeCount(after), loggedBefore + 1);
      const triggers = after
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'item_json' ORDER BY name")
        .pluck()
        .all();
      // The search log's two, and those of the OAI-PMH records' log (migration 13).
      assert.deepEqual(triggers, ['item_json_insert_oai', 'item_json_insert_search', 'item_json_update_oai', 'item_json_update_search']);
    } finally {
      after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('[sqlite] migration 10 stopped halfway leaves the store as it was, and runs again to the end', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'old.db');
  try {
    const { items } = storeAtSchema9(path);
    const last = items[items.length - 1]!;
    // A failure deep into the conversion, after the JSON table and most of the XML (a full disk, a kill).
    const setup = new Database(path);
    setup.exec(`CREATE TRIGGER stop_here BEFORE UPDATE ON item_xml WHEN new.item = (SELECT num FROM items WHERE id = '${last.id}')
      BEGIN SELECT RAISE(ABORT, 'stopped for the test'); END`);
    setup.close();
    assert.throws(() => openSqliteStore({ path }), /stopped for the test/);

    const halfway = new Database(path);
    try {
      assert.equal(halfway.pragma('user_version', { simple: true }), 9);
      assert.equal(halfway.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'store_format'").pluck().get(), 0);
      for (const item of [items[0]!, items[600]!, last]) {
        assert.equal(rawBody(halfway, 'item_json', item.id).toString('utf8'), item.json, `${item.id} json untouched`);
        assert.equal(rawBody(halfway, 'item_xml', item.id).toString('utf8'), item.xml, `${item.id} xml untouched`);
      }
      halfway.exec('DROP TRIGGER stop_here');
    } finally {
      halfway.close();
    }

    const store = openSqliteStore({ path });
    try {
      for (const item of [items[0]!, items[600]!, last])
        assert.equal((await store.getItemDocument(item.id, 'xml'))!.body.toString('utf8'), item.xml);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('[sqlite] a store that records another body encoding is refused with what to do', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'other.db');
  try {
    await openSqliteStore({ path }).close();
    const db = new Database(path);
    db.prepare("UPDATE store_format SET value = 'zstd' WHERE name = 'item_xml'").run();
    db.close();
    assert.throws(
      () => openSqliteStore({ path }),
      (e: Error) =>
        e instanceof UsageError &&
        e.message ===
          'The store records package bodies encoded as item_json=br, item_xml=zstd; this version of heritage-api reads br only: run the version that wrote the store.',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('[sqlite] migration 11 gives every stored item its stored fields; a blocked item shows nothing, a deleted one takes them along', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'old.db');
  try {
    // 1,105 items: more than two of the migration's batches of 500.
    const { items, blocked } = storeAtSchema9(path);
    await openSqliteStore({ path }).close();
    const after = new Database(path);
    try {
      assert.equal(after.pragma('user_version', { simple: true }), MIGRATIONS.length);
      const fieldsOf = after
        .prepare<[string], string>('SELECT f.doc FROM item_fields f JOIN items i ON i.num = f.item WHERE i.id = ?')
        .pluck();
      for (const item of items) assert.equal(fieldsOf.get(item.id), itemStoredFieldsJson(item.json, item.id), `${item.id}: stored fields`);
      assert.equal(after.prepare('SELECT count(*) FROM item_fields').pluck().get(), items.length);
      // Migration 13: an OAI-PMH record for every item, stamped with its updated_at; blocked ones deleted.
      const records = after
        .prepare<[], { id: string; datestamp: number; deleted: number; updated_at: number }>(
          'SELECT r.id, r.datestamp, r.deleted, i.updated_at FROM oai_records r JOIN items i ON i.id = r.id ORDER BY r.num',
        )
        .all();
      assert.equal(records.length, items.length);
      for (const r of records) assert.equal(r.datestamp, Math.floor(r.updated_at / 1000), r.id);
      assert.deepEqual(
        records.filter((r) => r.deleted === 1).map((r) => r.id),
        [blocked],
      );
      assert.equal(after.prepare('SELECT count(*) FROM oai_changes').pluck().get(), 0);
    } finally {
      after.close();
    }
    // One real package, whole: what a search answer shows of it (its preview, view and profile).
    const goethe = items.find((i) => i.id === '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22');
    assert.ok(goethe, 'the Cornelie Goethe fixture');
    const store = openSqliteStore({ path });
    try {
      // Stored fields are computed once, at load or migration: a change to what itemStoredFields
      // makes leaves stored items with the old fields, and needs a migration that computes them again.
      assert.deepEqual(
        JSON.parse((await store.readSearchBodies('item', [goethe.id]))[0]!),
        GOETHE_FIELDS,
        'itemStoredFields changed: add a migration to both backends that computes item_fields again',
      );
      assert.deepEqual(await store.readSearchBodies('item', [blocked, 'NOSUCHITEM']), [null, null]);
    } finally {
      await store.close();
    }
    const db = new Database(path);
    try {
      db.prepare('DELETE FROM items WHERE id = ?').run(goethe.id);
      assert.equal(
        db.prepare('SELECT count(*) FROM item_fields').pluck().get(),
        items.length - 1,
        'the deleted item took its stored fields along',
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('[sqlite] migration 15 computes the stored fields of a store at schema 14 again: stale ones give way to the licence facets', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'old.db');
  try {
    const { items } = storeAtSchema9(path);
    await openSqliteStore({ path }).close();
    // As schema 14 left the store: stored fields made before the licence facets.
    const old = new Database(path);
    old.prepare(`UPDATE item_fields SET doc = '{"stale":true}'`).run();
    old.pragma('user_version = 14');
    old.close();
    await openSqliteStore({ path }).close();
    const after = new Database(path);
    try {
      assert.equal(after.pragma('user_version', { simple: true }), MIGRATIONS.length);
      const fieldsOf = after
        .prepare<[string], string>('SELECT f.doc FROM item_fields f JOIN items i ON i.num = f.item WHERE i.id = ?')
        .pluck();
      for (const item of items) assert.equal(fieldsOf.get(item.id), itemStoredFieldsJson(item.json, item.id), `${item.id}: stored fields`);
      assert.deepEqual(JSON.parse(fieldsOf.get('4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22')!), GOETHE_FIELDS);
    } finally {
      after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const GOETHE_FIELDS = {
  id: '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22',
  title: 'Cornelie Goethe',
  subtitle: 'Druckgraphik',
  label: 'Cornelie Goethe',
  thumbnail: '/binary/4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22/list/1.jpg',
  media: 'image',
  category: 'Kultur',
  type: 'Kultur',
  latitude: '',
  longitude: '',
  time_fct: ['time_61900', 'time_61947', 'time_61975'],
  place_fct: ['Leipzig', '60311 Frankfurt am Main'],
  place_fct_normdata: ['http://d-nb.info/gnd/4035206-7'],
  affiliate_fct: ['Sichling, Lazarus Gottlieb', 'Pecht, August Friedrich', 'Goethe, Cornelia'],
  affiliate_fct_normdata: ['http://d-nb.info/gnd/117466034', 'http://d-nb.info/gnd/118592343', 'http://d-nb.info/gnd/11871791X'],
  affiliate_fct_role: [
    'Sichling, Lazarus Gottlieb',
    'Pecht, August Friedrich',
    'Goethe, Cornelia',
    'Goethe, Cornelia_1_affiliate_fct_subject',
    'Sichling, Lazarus Gottlieb_1_affiliate_fct_involved',
    'Pecht, August Friedrich_1_affiliate_fct_involved',
  ],
  affiliate_fct_role_normdata: [
    'http://d-nb.info/gnd/117466034',
    'http://d-nb.info/gnd/118592343',
    'http://d-nb.info/gnd/11871791X',
    'http://d-nb.info/gnd/11871791X_1_affiliate_fct_subject',
    'http://d-nb.info/gnd/117466034_1_affiliate_fct_involved',
    'http://d-nb.info/gnd/118592343_1_affiliate_fct_involved',
  ],
  affiliate_fct_involved: ['Sichling, Lazarus Gottlieb', 'Pecht, August Friedrich'],
  affiliate_fct_subject: ['Goethe, Cornelia'],
  keywords_fct: ['Kunstsammlung', 'Druckgraphik'],
  keywords_fct_normdata: ['http://d-nb.info/gnd/4113357-2'],
  apd_keywords_fct: ['Druckgraphik'],
  type_fct: ['mediatype_002'],
  sector_fct: ['sec_06'],
  provider_fct: ['Frankfurter Goethe-Haus. Freies Deutsches Hochstift'],
  has_media_fct: ['true'],
  license: ['http://creativecommons.org/licenses/by-nc-sa/4.0/'],
  license_group: ['rights_002'],
  begin_time: 680449,
  end_time: 685562,
};

test('[sqlite] migration 17 counts the items and persons of a store at schema 16, and its triggers keep the counts through loads and deletes', async () => {
  const dir = tempDir('test');
  const path = join(dir, 'old.db');
  const counted = (db: Database.Database, table: string) => db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get()!;
  try {
    const made = openSqliteStore({ path });
    await ingestItems(made, [CORTEX_DIR], { batchSize: 100 });
    await ingestEntities(made, [`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`], { batchSize: 500 });
    await made.close();
    // As schema 16 left the store: no kept counts.
    const old = new Database(path);
    old.exec(`DROP TABLE row_counts; DROP TRIGGER items_counted_in; DROP TRIGGER items_counted_out;
      DROP TRIGGER persons_counted_in; DROP TRIGGER persons_counted_out`);
    old.pragma('user_version = 16');
    const items = counted(old, 'items');
    const persons = counted(old, 'persons');
    old.close();
    assert.ok(items >= 5 && persons > 1000, `${items} items, ${persons} persons`);

    const store = openSqliteStore({ path });
    try {
      assert.equal(await store.countItems(), items);
      assert.equal(await store.countPersons(), persons);
      // A load again updates (ON CONFLICT DO UPDATE): no row is new, none counted twice.
      const again = await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
      assert.equal(again.inserted, 0);
      assert.equal(await store.countItems(), items);
    } finally {
      await store.close();
    }
    // A delete (the store's own statement: items.ts) takes one away; the load that brings it back adds one.
    const edited = new Database(path);
    edited.prepare('DELETE FROM items WHERE id = ?').run(OTHER_CORTEX_ID);
    edited.close();
    const reopened = openSqliteStore({ path });
    try {
      assert.equal(await reopened.countItems(), items - 1);
      assert.equal((await ingestItems(reopened, [CORTEX_DIR], { batchSize: 100 })).inserted, 1);
      assert.equal(await reopened.countItems(), items);
    } finally {
      await reopened.close();
    }
    const after = new Database(path);
    try {
      assert.equal(after.pragma('user_version', { simple: true }), MIGRATIONS.length);
      assert.equal(counted(after, 'items'), items);
      assert.equal(counted(after, 'persons'), persons);
    } finally {
      after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
