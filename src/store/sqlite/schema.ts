/**
 * SQLite schema of the store. Migrations are applied in order at open; the
 * version reached is kept in PRAGMA user_version.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { UsageError } from '../../errors.js';
import { BODY_ENCODING, decodeBody, encodeBody } from '../bodyCodec.js';
import { itemStoredFieldsJson } from '../../formats/itemFields.js';
import { SqliteOai } from './oaiRecords.js';

/** SQL, or a step that needs more than SQL (it runs inside the migration's transaction). */
export type Migration = string | ((db: Database) => void);

/** Rows converted per statement by migrations 10, 11 and 15: bounds the memory of a conversion, not its transaction. */
const CONVERT_BATCH = 500;

export const MIGRATIONS: readonly Migration[] = [
  // 1: items, their hierarchy fields, blocking, API keys
  `
  CREATE TABLE items (
    id                 TEXT PRIMARY KEY,
    cho_uri            TEXT,
    parent_ref         TEXT,
    label              TEXT NOT NULL,
    hierarchy_type     TEXT,
    position           TEXT,
    aggregation_entity INTEGER NOT NULL,
    xml                BLOB NOT NULL,
    json               BLOB NOT NULL,
    etag               TEXT NOT NULL,
    updated_at         INTEGER NOT NULL
  ) STRICT;
  -- children name their parent by the parent's ProvidedCHO URI (dcterms:isPartOf)
  CREATE INDEX items_cho_uri ON items(cho_uri);
  CREATE INDEX items_parent_ref ON items(parent_ref);

  -- kept apart from items so that a block survives a re-load of the item
  CREATE TABLE blocked_items (
    id         TEXT PRIMARY KEY,
    reason     TEXT NOT NULL,
    blocked_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE api_keys (
    name         TEXT PRIMARY KEY,
    key_hash     TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
  ) STRICT;
  `,
  // 2: persons for the entity search, and the item -> authority references that give their count
  `
  CREATE TABLE persons (
    rowid       INTEGER PRIMARY KEY,   -- stable per id: upserts keep it, so cursors and random orders hold
    id          TEXT NOT NULL UNIQUE,
    doc         TEXT NOT NULL,         -- spec 2.1 JSON without count
    digest      TEXT NOT NULL,         -- of the source record, to leave unchanged ones alone
    sort_key    TEXT NOT NULL,         -- folded preferredName: ALPHA sorts and preferredName ranges
    name_key    TEXT NOT NULL,         -- sorted folded tokens of preferredName: exact-name relevance
    fields_mask INTEGER NOT NULL,      -- which fields have a value, for field:*
    birth_year  INTEGER,
    death_year  INTEGER,
    item_count  INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE INDEX persons_name_key ON persons(name_key);

  -- Folded text (src/search/engine/fold.ts); contentless: the documents live in persons.doc.
  CREATE VIRTUAL TABLE persons_fts USING fts5(
    preferredName, variantName, dateOfBirth, dateOfDeath, placeOfBirth, placeOfDeath, professionOrOccupation, gender,
    content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  );
  CREATE VIRTUAL TABLE persons_vocab USING fts5vocab(persons_fts, 'col');

  CREATE TABLE person_facets (
    facet INTEGER NOT NULL,            -- index into PERSON_FACETS (src/domain/personFacets.ts)
    value TEXT NOT NULL,
    person INTEGER NOT NULL,           -- persons.rowid
    PRIMARY KEY (facet, value, person)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX person_facets_person ON person_facets(person);

  CREATE TABLE item_refs (
    uri     TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (uri, item_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX item_refs_item ON item_refs(item_id);
  `,
  // 3: EDM ingest and OAI-PMH harvesting
  `
  ALTER TABLE items ADD COLUMN previous_ref TEXT;   -- edm:isNextInSequence, for positions
  ALTER TABLE items ADD COLUMN source_id TEXT;      -- OAI-PMH identifier, for deletions
  ALTER TABLE items ADD COLUMN source_digest TEXT;  -- of the EDM the package was built from
  CREATE INDEX items_previous_ref ON items(previous_ref) WHERE previous_ref IS NOT NULL;
  CREATE INDEX items_source_id ON items(source_id) WHERE source_id IS NOT NULL;

  CREATE TABLE harvest_state (
    source           TEXT PRIMARY KEY,  -- base URL, metadataPrefix and set
    high_water       TEXT,
    resumption_token TEXT,
    run_from         TEXT,
    run_started      TEXT,
    updated_at       INTEGER NOT NULL
  ) STRICT;
  `,
  // 4: a counter that moves only when what the person search index is built from changes,
  // so that commits of items or keys by another process leave the index alone
  `
  CREATE TABLE data_versions (
    name    TEXT PRIMARY KEY,   -- 'persons': person rows or their item counts
    version INTEGER NOT NULL
  ) STRICT;
  INSERT INTO data_versions (name, version) VALUES ('persons', 0);
  `,
  // 5: package bodies out of the items row, for read speed. A column after two 20-60 KB blobs
  // (previous_ref, etag, source_digest) could only be read by walking the blobs' overflow
  // pages: 5x the time of an early column from cache, 267 vs 81 us cold at 100 k items,
  // for every node of a hierarchy and every package's ETag. Each body now has its own
  // table, keyed by a stable row number (an explicit INTEGER PRIMARY KEY survives VACUUM).
  `
  CREATE TABLE items_new (
    num                INTEGER PRIMARY KEY,
    id                 TEXT NOT NULL UNIQUE,
    cho_uri            TEXT,
    parent_ref         TEXT,
    previous_ref       TEXT,              -- edm:isNextInSequence, for positions
    label              TEXT NOT NULL,
    hierarchy_type     TEXT,
    position           TEXT,
    aggregation_entity INTEGER NOT NULL,
    etag               TEXT NOT NULL,
    updated_at         INTEGER NOT NULL,
    source_id          TEXT,              -- OAI-PMH identifier, for deletions
    source_digest      TEXT               -- of the EDM the package was built from
  ) STRICT;
  INSERT INTO items_new (num, id, cho_uri, parent_ref, previous_ref, label, hierarchy_type, position,
                         aggregation_entity, etag, updated_at, source_id, source_digest)
    SELECT rowid, id, cho_uri, parent_ref, previous_ref, label, hierarchy_type, position,
           aggregation_entity, etag, updated_at, source_id, source_digest FROM items;
  CREATE TABLE item_json (item INTEGER PRIMARY KEY, body BLOB NOT NULL) STRICT;  -- items.num
  CREATE TABLE item_xml  (item INTEGER PRIMARY KEY, body BLOB NOT NULL) STRICT;
  INSERT INTO item_json (item, body) SELECT rowid, json FROM items;
  INSERT INTO item_xml (item, body) SELECT rowid, xml FROM items;
  DROP TABLE items;
  ALTER TABLE items_new RENAME TO items;
  CREATE INDEX items_cho_uri ON items(cho_uri);
  CREATE INDEX items_parent_ref ON items(parent_ref);
  CREATE INDEX items_previous_ref ON items(previous_ref) WHERE previous_ref IS NOT NULL;
  CREATE INDEX items_source_id ON items(source_id) WHERE source_id IS NOT NULL;
  -- whatever deletes an item deletes its bodies
  CREATE TRIGGER items_delete_bodies AFTER DELETE ON items BEGIN
    DELETE FROM item_json WHERE item = old.num;
    DELETE FROM item_xml WHERE item = old.num;
  END;
  `,
  // 6: the last load run of each kind, for GET /status
  `
  CREATE TABLE load_runs (
    kind        TEXT PRIMARY KEY,   -- 'items' or 'persons'
    finished_at INTEGER NOT NULL,
    records     INTEGER NOT NULL,
    inserted    INTEGER NOT NULL,
    updated     INTEGER NOT NULL,
    unchanged   INTEGER NOT NULL,
    deleted     INTEGER NOT NULL,
    problems    INTEGER NOT NULL
  ) STRICT;
  `,
  // 7: institutions from the packages' provider-info, and which delivered each item, for
  // GET /institutions. Items loaded before get theirs when loaded again
  // (an unchanged package is then linked, not rewritten).
  `
  CREATE TABLE providers (
    key         TEXT PRIMARY KEY,   -- provider-ddb-id, else 'provider-id:<id>', else 'name:<name>'
    ddb_id      TEXT NOT NULL,
    provider_id TEXT NOT NULL,
    parent_id   TEXT NOT NULL,      -- provider-id of the institution it belongs to, '' for none
    name        TEXT NOT NULL,
    uri         TEXT NOT NULL,
    sectors     TEXT NOT NULL,      -- sector codes separated by spaces, in order
    latitude    TEXT NOT NULL,
    longitude   TEXT NOT NULL,
    state       TEXT NOT NULL,
    logo        TEXT NOT NULL
  ) STRICT;
  CREATE TABLE item_providers (
    item_id  TEXT PRIMARY KEY,      -- items.id
    provider TEXT NOT NULL          -- providers.key of the institution that delivered it
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX item_providers_provider ON item_providers(provider);
  CREATE TRIGGER items_delete_provider AFTER DELETE ON items BEGIN
    DELETE FROM item_providers WHERE item_id = old.id;
  END;
  `,
  // 8: change logs of what the search engine indexes (searchChanges.ts; docs/search-engine.md
  // "The store's change feed").
  // One table per kind, filled by triggers, so that every writer (this process, an ingest,
  // a later tool) feeds them without knowing of them. A row names an id whose search
  // document may have changed; the reader takes the current row. INTEGER PRIMARY KEY (no
  // AUTOINCREMENT): pruning always keeps the newest row, so a number is never reused.
  `
  CREATE TABLE search_item_changes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL) STRICT;
  CREATE TABLE search_person_changes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL) STRICT;
  -- the highest seq pruned per kind: a reader positioned before it has missed changes
  CREATE TABLE search_changes_pruned (kind TEXT PRIMARY KEY, through INTEGER NOT NULL) STRICT;
  INSERT INTO search_changes_pruned (kind, through) VALUES ('item', 0), ('person', 0);

  -- an item's search document is its JSON body (written after the items row, in the same
  -- transaction); a delete of the row deletes the bodies (migration 5)
  CREATE TRIGGER item_json_insert_search AFTER INSERT ON item_json BEGIN
    INSERT INTO search_item_changes (id) SELECT id FROM items WHERE num = new.item;
  END;
  CREATE TRIGGER item_json_update_search AFTER UPDATE OF body ON item_json BEGIN
    INSERT INTO search_item_changes (id) SELECT id FROM items WHERE num = new.item;
  END;
  CREATE TRIGGER items_delete_search AFTER DELETE ON items BEGIN
    INSERT INTO search_item_changes (id) VALUES (old.id);
  END;
  -- a blocked item leaves the search, an unblocked one comes back
  CREATE TRIGGER blocked_items_insert_search AFTER INSERT ON blocked_items BEGIN
    INSERT INTO search_item_changes (id) VALUES (new.id);
  END;
  CREATE TRIGGER blocked_items_delete_search AFTER DELETE ON blocked_items BEGIN
    INSERT INTO search_item_changes (id) VALUES (old.id);
  END;

  -- a person's document is its doc and its item count (which moves when items load)
  CREATE TRIGGER persons_insert_search AFTER INSERT ON persons BEGIN
    INSERT INTO search_person_changes (id) VALUES (new.id);
  END;
  CREATE TRIGGER persons_update_search AFTER UPDATE OF id, doc, item_count ON persons BEGIN
    INSERT INTO search_person_changes (id) VALUES (new.id);
  END;
  CREATE TRIGGER persons_update_id_search AFTER UPDATE OF id ON persons WHEN old.id <> new.id BEGIN
    INSERT INTO search_person_changes (id) VALUES (old.id);
  END;
  CREATE TRIGGER persons_delete_search AFTER DELETE ON persons BEGIN
    INSERT INTO search_person_changes (id) VALUES (old.id);
  END;
  `,
  // 9: the person search moved to the search engine (src/search/engine/),
  // fed by the change logs of migration 8: the full-text table, its vocabulary, the facet
  // rows, the columns only that search read and its version counter go (a load no longer
  // writes them). Gender, a facet and not an entity field (docs/api.md), was kept only
  // there: it gets a column (a JSON array), filled from the gender facet's rows (facet 2).
  `
  ALTER TABLE persons ADD COLUMN gender TEXT NOT NULL DEFAULT '[]';
  UPDATE persons SET gender = (SELECT json_group_array(value) FROM person_facets WHERE facet = 2 AND person = persons.rowid)
    WHERE rowid IN (SELECT person FROM person_facets WHERE facet = 2);
  DROP TABLE persons_vocab;
  DROP TABLE persons_fts;
  DROP TABLE person_facets;
  DROP TABLE data_versions;
  DROP INDEX persons_name_key;
  ALTER TABLE persons DROP COLUMN sort_key;
  ALTER TABLE persons DROP COLUMN name_key;
  ALTER TABLE persons DROP COLUMN fields_mask;
  ALTER TABLE persons DROP COLUMN birth_year;
  ALTER TABLE persons DROP COLUMN death_year;
  -- the gender is part of what the search indexes
  DROP TRIGGER persons_update_search;
  CREATE TRIGGER persons_update_search AFTER UPDATE OF id, doc, gender, item_count ON persons BEGIN
    INSERT INTO search_person_changes (id) VALUES (new.id);
  END;
  `,
  // 10: package bodies compressed (bodyCodec.ts): 48 KB -> 6.4 KB per package.
  // The encoding of each body table is recorded, so that a store says what it holds. The
  // conversion rewrites every body, in the one transaction of the migration: a store is either
  // wholly converted or left as it was. Converting a body does not change its search document,
  // so the change log's update trigger (migration 8) is set aside meanwhile. The file keeps its
  // size until a VACUUM hands the freed pages back (docs/benchmarks.md "Stored package bodies").
  (db) => {
    db.exec(`
      CREATE TABLE store_format (
        name  TEXT PRIMARY KEY,   -- what is encoded: a body table
        value TEXT NOT NULL       -- how: 'br' = brotli (bodyCodec.ts)
      ) STRICT;
      DROP TRIGGER item_json_update_search;
    `);
    for (const table of ['item_json', 'item_xml']) {
      const batch = db.prepare<[number, number], { item: number; body: Buffer }>(
        `SELECT item, body FROM ${table} WHERE item > ? ORDER BY item LIMIT ?`,
      );
      const put = db.prepare<[Buffer, number]>(`UPDATE ${table} SET body = ? WHERE item = ?`);
      for (let after = 0; ;) {
        const rows = batch.all(after, CONVERT_BATCH);
        for (const { item, body } of rows) put.run(encodeBody(body), item);
        if (rows.length < CONVERT_BATCH) break;
        after = rows[rows.length - 1]!.item;
      }
      db.prepare('INSERT INTO store_format (name, value) VALUES (?, ?)').run(table, BODY_ENCODING);
    }
    db.exec(`
      CREATE TRIGGER item_json_update_search AFTER UPDATE OF body ON item_json BEGIN
        INSERT INTO search_item_changes (id) SELECT id FROM items WHERE num = new.item;
      END;
    `);
  },
  // 11: each item's stored fields beside its package (src/formats/itemFields.ts
  // itemStoredFields): what a search answer shows of a hit,
  // ~700 bytes of JSON instead of a 10-60 KB package to decompress and parse. Computed here
  // for the items stored, in the migration's one transaction; written with each package after.
  (db) => {
    db.exec(`
      CREATE TABLE item_fields (item INTEGER PRIMARY KEY, doc TEXT NOT NULL) STRICT;  -- items.num
      DROP TRIGGER items_delete_bodies;
      CREATE TRIGGER items_delete_bodies AFTER DELETE ON items BEGIN
        DELETE FROM item_json WHERE item = old.num;
        DELETE FROM item_xml WHERE item = old.num;
        DELETE FROM item_fields WHERE item = old.num;
      END;
    `);
    const batch = db.prepare<[number, number], { item: number; id: string; body: Buffer }>(
      'SELECT j.item, i.id, j.body FROM item_json j JOIN items i ON i.num = j.item WHERE j.item > ? ORDER BY j.item LIMIT ?',
    );
    const put = db.prepare<[number, string]>('INSERT INTO item_fields (item, doc) VALUES (?, ?)');
    for (let after = 0; ;) {
      const rows = batch.all(after, CONVERT_BATCH);
      for (const { item, id, body } of rows) put.run(item, itemStoredFieldsJson(decodeBody(body).toString('utf8'), id));
      if (rows.length < CONVERT_BATCH) break;
      after = rows[rows.length - 1]!.item;
    }
  },
  // 12: the store's identity, a random id made with it (docs/search-engine.md "Persistence"): a
  // search index written to disk names the store it reflects, so that an index of another store
  // is never continued with this store's change log. A copy of the file keeps it (and its log).
  `
  CREATE TABLE store_identity (one INTEGER PRIMARY KEY CHECK (one = 1), id TEXT NOT NULL) STRICT;
  INSERT INTO store_identity (one, id) VALUES (1, lower(hex(randomblob(16))));
  `,
  // 13: the OAI-PMH provider's records (docs/oai-pmh.md; src/store/oaiRecords.ts): a datestamp
  // and sets per item, tombstones of deleted and blocked ones kept for good, and a log the
  // triggers fill so that every writer's changes reach them. Filled here for the items stored,
  // each stamped with its updated_at.
  (db) => {
    db.exec(`
      CREATE TABLE oai_records (
        num       INTEGER PRIMARY KEY,   -- a harvest's order; kept for the id's lifetime, tombstone included
        id        TEXT NOT NULL UNIQUE,
        datestamp INTEGER NOT NULL,      -- seconds since 1970
        deleted   INTEGER NOT NULL,      -- 1: gone or blocked
        cho_uri   TEXT,                  -- as last stored: finds its children after it is gone
        root      TEXT                   -- its collection root's id; null when gone
      ) STRICT;
      CREATE TABLE oai_sets (
        spec TEXT NOT NULL,
        num  INTEGER NOT NULL,           -- oai_records.num
        PRIMARY KEY (spec, num)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX oai_sets_num ON oai_sets(num);
      CREATE TABLE oai_changes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL) STRICT;
      -- the store's own key of the resumption tokens' HMAC, unless oai.tokenSecret is set
      CREATE TABLE oai_secret (one INTEGER PRIMARY KEY CHECK (one = 1), value TEXT NOT NULL) STRICT;

      CREATE TRIGGER item_json_insert_oai AFTER INSERT ON item_json BEGIN
        INSERT INTO oai_changes (id) SELECT id FROM items WHERE num = new.item;
      END;
      CREATE TRIGGER item_json_update_oai AFTER UPDATE OF body ON item_json BEGIN
        INSERT INTO oai_changes (id) SELECT id FROM items WHERE num = new.item;
      END;
      CREATE TRIGGER items_delete_oai AFTER DELETE ON items BEGIN
        INSERT INTO oai_changes (id) VALUES (old.id);
      END;
      CREATE TRIGGER blocked_items_insert_oai AFTER INSERT ON blocked_items BEGIN
        INSERT INTO oai_changes (id) VALUES (new.id);
      END;
      CREATE TRIGGER blocked_items_delete_oai AFTER DELETE ON blocked_items BEGIN
        INSERT INTO oai_changes (id) VALUES (old.id);
      END;
      -- the institution gives the provider and sector sets
      CREATE TRIGGER item_providers_insert_oai AFTER INSERT ON item_providers BEGIN
        INSERT INTO oai_changes (id) VALUES (new.item_id);
      END;
      CREATE TRIGGER item_providers_update_oai AFTER UPDATE ON item_providers BEGIN
        INSERT INTO oai_changes (id) VALUES (new.item_id);
      END;
    `);
    db.prepare('INSERT INTO oai_secret (one, value) VALUES (1, ?)').run(randomBytes(32).toString('base64url'));
    SqliteOai.fill(db);
  },
  // 14: IIIF Change Discovery (docs/iiif.md): the records in datestamp order, and each one's
  // first datestamp, which tells a Create from an Update. A trigger sets it, so that every writer
  // of the records (src/store/oaiRecords.ts) keeps it without knowing of it.
  `
  ALTER TABLE oai_records ADD COLUMN created INTEGER;   -- its first datestamp
  UPDATE oai_records SET created = datestamp;
  CREATE INDEX oai_records_datestamp ON oai_records(datestamp, num);
  CREATE TRIGGER oai_records_created AFTER INSERT ON oai_records WHEN new.created IS NULL BEGIN
    UPDATE oai_records SET created = new.datestamp WHERE num = new.num;
  END;
  `,
  // 15: the stored fields again, for what they gained: the licence facets `license` and
  // `license_group`, and coordinates from a package's EDM places (docs/search.md "Licences",
  // "Geography"). Items written before would show neither.
  (db) => {
    const batch = db.prepare<[number, number], { item: number; id: string; body: Buffer }>(
      'SELECT j.item, i.id, j.body FROM item_json j JOIN items i ON i.num = j.item WHERE j.item > ? ORDER BY j.item LIMIT ?',
    );
    const put = db.prepare<[string, number]>('UPDATE item_fields SET doc = ? WHERE item = ?');
    for (let after = 0; ;) {
      const rows = batch.all(after, CONVERT_BATCH);
      for (const { item, id, body } of rows) put.run(itemStoredFieldsJson(decodeBody(body).toString('utf8'), id), item);
      if (rows.length < CONVERT_BATCH) break;
      after = rows[rows.length - 1]!.item;
    }
  },
  // 16: when a person's page last changed (its record or its count of items), for the
  // sitemap's <lastmod> (docs/sitemaps.md). Persons stored before are left without one: the
  // store does not know when they changed, and a wrong date is worse than none.
  // Added only where missing, so that a step run again over it (a test of migration 15) holds.
  (db) => {
    const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('persons')").all();
    if (!columns.some((c) => c.name === 'updated_at')) db.exec('ALTER TABLE persons ADD COLUMN updated_at INTEGER');
  },
  // 17: the numbers of items and persons, kept by triggers (docs/deployment.md "Counts"):
  // count(*) scans an index of every row, synchronously on the thread that asks: 0.1–0.2 s at
  // 1.1 M items with the file in memory, 1.7 s without, about 40 times that at a national 42 M.
  // Upserts are ON CONFLICT DO UPDATE (an update, no insert), so only new and deleted rows count.
  // Counted anew where run again (a test of migration 15 runs the steps after 14 again).
  `
  CREATE TABLE IF NOT EXISTS row_counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  INSERT OR REPLACE INTO row_counts (name, n) SELECT 'items', count(*) FROM items;
  INSERT OR REPLACE INTO row_counts (name, n) SELECT 'persons', count(*) FROM persons;
  CREATE TRIGGER IF NOT EXISTS items_counted_in AFTER INSERT ON items BEGIN
    UPDATE row_counts SET n = n + 1 WHERE name = 'items'; END;
  CREATE TRIGGER IF NOT EXISTS items_counted_out AFTER DELETE ON items BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'items'; END;
  CREATE TRIGGER IF NOT EXISTS persons_counted_in AFTER INSERT ON persons BEGIN
    UPDATE row_counts SET n = n + 1 WHERE name = 'persons'; END;
  CREATE TRIGGER IF NOT EXISTS persons_counted_out AFTER DELETE ON persons BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'persons'; END;
  `,
];

/**
 * Brings the store to schema `target` (the latest by default; an earlier one only for tests
 * that build a store as an older version wrote it). `onUpgrade` is told before the steps of a
 * store that has a schema already (not of a new one): some take minutes on a large store.
 */
export function migrate(db: Database, target = MIGRATIONS.length, onUpgrade?: (from: number, to: number) => void): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new UsageError(
      `The database was written by a newer heritage-api (schema ${current}, this version knows ${MIGRATIONS.length}): run that version, or upgrade this one.`,
    );
  }
  if (current < target) {
    // Another process may be migrating the same new store (an ingest and a serve started together):
    // the version is read again under the write lock, so each step is applied once.
    db.transaction(() => {
      const locked = db.pragma('user_version', { simple: true }) as number;
      if (locked > 0 && locked < target) onUpgrade?.(locked, target);
      for (let v = locked; v < target; v++) {
        const step = MIGRATIONS[v]!;
        if (typeof step === 'string') db.exec(step);
        else step(db);
        db.pragma(`user_version = ${v + 1}`);
      }
    }).immediate();
  }
  if (target === MIGRATIONS.length) checkFormat(db);
}

/** The body encodings this version reads; a store recording another was not written by it. */
function checkFormat(db: Database): void {
  const rows = db.prepare<[], { name: string; value: string }>('SELECT name, value FROM store_format ORDER BY name').all();
  const other = rows.find((r) => r.value !== BODY_ENCODING);
  if (rows.length !== 2 || other) {
    const found = rows.map((r) => `${r.name}=${r.value}`).join(', ') || 'none';
    throw new UsageError(
      `The store records package bodies encoded as ${found}; this version of heritage-api reads ${BODY_ENCODING} only: run the version that wrote the store.`,
    );
  }
}
