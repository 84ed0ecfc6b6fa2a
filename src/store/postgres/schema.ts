/**
 * PostgreSQL schema of the store: versioned migrations, applied in order by
 * `heritage-api migrate --store postgres://…` (src/cli/commands/migrate.ts) and recorded
 * in schema_migrations, one row per version. Opening a store checks the version and
 * refuses an unmigrated or newer schema: a server never changes the
 * schema behind the operator's back.
 *
 * The tables follow the SQLite store's (src/store/sqlite/schema.ts) as its migrations
 * left them. Text keys use the "C" collation: ids sort by code
 * point as on SQLite (listItemIds, listProviders, the copy's digests). Times are
 * milliseconds since 1970 (bigint), as on SQLite, so that a copy is exact.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { UsageError } from '../../errors.js';
import { itemStoredFieldsJson } from '../../formats/itemFields.js';
import { decodeBody } from '../bodyCodec.js';
import { redactUrl, transaction, type Queryable } from './db.js';
import { fillOaiRecords } from './oaiRecords.js';

/** Held by migrate for its transaction, so that two migrate runs apply each step once. */
const MIGRATE_LOCK = 7_316_000;

/**
 * Taken by every transaction that appends to a search change log, until it commits: the
 * log's numbers are then given in commit order, so a reader that has read through number n
 * never meets a smaller one later (searchChanges.ts).
 */
export const SEARCH_LOG_LOCK = 7_316_001;

/** SQL, or a step that needs more than SQL (it runs inside the migration's transaction). */
export type Migration = string | ((db: Queryable) => Promise<void>);

/** Rows computed per statement by migrations 2 and 6: bounds the memory of a step, not its transaction. */
const CONVERT_BATCH = 500;

export const MIGRATIONS: readonly Migration[] = [
  // 1: everything the SQLite store has after its migration 10 (gender column, brotli bodies),
  // but its store_format table: on PostgreSQL the schema version says how bodies are kept.
  // SQLite's migrations 9 and 10 were folded in here rather than added as PostgreSQL
  // migrations 2 and 3: no PostgreSQL store had been written outside tests yet.
  `
  CREATE TABLE items (
    num                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id                 text COLLATE "C" NOT NULL UNIQUE,
    cho_uri            text,
    parent_ref         text,
    previous_ref       text,              -- edm:isNextInSequence, for positions
    label              text NOT NULL,
    hierarchy_type     text,
    position           text,
    aggregation_entity boolean NOT NULL,
    etag               text NOT NULL,
    updated_at         bigint NOT NULL,
    source_id          text,              -- OAI-PMH identifier, for deletions
    source_digest      text               -- of the EDM the package was built from
  );
  -- children name their parent by the parent's ProvidedCHO URI (dcterms:isPartOf)
  CREATE INDEX items_cho_uri ON items (cho_uri);
  CREATE INDEX items_parent_ref ON items (parent_ref);
  CREATE INDEX items_previous_ref ON items (previous_ref) WHERE previous_ref IS NOT NULL;
  CREATE INDEX items_source_id ON items (source_id) WHERE source_id IS NOT NULL;

  -- bodies apart from the hierarchy columns, as on SQLite; they go with their item.
  -- Brotli, as on SQLite (src/store/bodyCodec.ts): this schema's only encoding
  CREATE TABLE item_json (item bigint PRIMARY KEY REFERENCES items (num) ON DELETE CASCADE, body bytea NOT NULL);
  CREATE TABLE item_xml (item bigint PRIMARY KEY REFERENCES items (num) ON DELETE CASCADE, body bytea NOT NULL);

  -- kept apart from items so that a block survives a re-load of the item
  CREATE TABLE blocked_items (
    id         text COLLATE "C" PRIMARY KEY,
    reason     text NOT NULL,
    blocked_at bigint NOT NULL
  );

  CREATE TABLE api_keys (
    name         text COLLATE "C" PRIMARY KEY,
    key_hash     text NOT NULL UNIQUE,   -- SHA-256 of the key; the key itself is never stored
    created_at   bigint NOT NULL,
    last_used_at bigint,
    revoked_at   bigint
  );

  CREATE TABLE persons (
    num         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- stable per id: the full scan's order
    id          text COLLATE "C" NOT NULL UNIQUE,
    doc         text NOT NULL,        -- spec 2.1 JSON without count
    digest      text NOT NULL,        -- of the source record, to leave unchanged ones alone
    -- a JSON array, as on SQLite: text, not jsonb, which would respace it (the feed's
    -- bodies and the copy's digests are of this very text)
    gender      text NOT NULL DEFAULT '[]',
    item_count  integer NOT NULL DEFAULT 0
  );

  CREATE TABLE item_refs (
    uri     text COLLATE "C" NOT NULL,
    item_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (uri, item_id)
  );
  CREATE INDEX item_refs_item ON item_refs (item_id);

  CREATE TABLE harvest_state (
    source           text COLLATE "C" PRIMARY KEY,  -- base URL, metadataPrefix and set
    high_water       text,
    resumption_token text,
    run_from         text,
    run_started      text,
    updated_at       bigint NOT NULL
  );

  CREATE TABLE load_runs (
    kind        text COLLATE "C" PRIMARY KEY,   -- 'items' or 'persons'
    finished_at bigint NOT NULL,
    records     bigint NOT NULL,
    inserted    bigint NOT NULL,
    updated     bigint NOT NULL,
    unchanged   bigint NOT NULL,
    deleted     bigint NOT NULL,
    problems    bigint NOT NULL
  );

  CREATE TABLE providers (
    key         text COLLATE "C" PRIMARY KEY,
    ddb_id      text NOT NULL,
    provider_id text NOT NULL,
    parent_id   text NOT NULL,
    name        text COLLATE "C" NOT NULL,
    uri         text NOT NULL,
    sectors     text NOT NULL,      -- sector codes separated by spaces, in order
    latitude    text NOT NULL,
    longitude   text NOT NULL,
    state       text NOT NULL,
    logo        text NOT NULL
  );
  CREATE TABLE item_providers (
    item_id  text COLLATE "C" PRIMARY KEY,
    provider text COLLATE "C" NOT NULL
  );
  CREATE INDEX item_providers_provider ON item_providers (provider);

  -- the search engine's change logs (src/store/sqlite/schema.ts migration 8; searchChanges.ts)
  CREATE TABLE search_item_changes (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL);
  CREATE TABLE search_person_changes (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL);
  CREATE TABLE search_changes_pruned (kind text PRIMARY KEY, through bigint NOT NULL);
  INSERT INTO search_changes_pruned (kind, through) VALUES ('item', 0), ('person', 0);

  -- moves in the transaction of every write that changes what is served (Store.dataVersion)
  CREATE TABLE data_version (one boolean PRIMARY KEY DEFAULT true CHECK (one), version bigint NOT NULL);
  INSERT INTO data_version (version) VALUES (0);

  CREATE FUNCTION log_item_change(item_id text) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(${SEARCH_LOG_LOCK});
    INSERT INTO search_item_changes (id) VALUES (item_id);
  END $$;
  CREATE FUNCTION log_person_change(person_id text) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(${SEARCH_LOG_LOCK});
    INSERT INTO search_person_changes (id) VALUES (person_id);
  END $$;

  -- an item's search document is its JSON body
  CREATE FUNCTION item_json_search() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM log_item_change(i.id) FROM items i WHERE i.num = NEW.item;
    RETURN NULL;
  END $$;
  CREATE TRIGGER item_json_search AFTER INSERT OR UPDATE OF body ON item_json FOR EACH ROW EXECUTE FUNCTION item_json_search();

  CREATE FUNCTION items_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM item_providers WHERE item_id = OLD.id;
    PERFORM log_item_change(OLD.id);
    RETURN NULL;
  END $$;
  CREATE TRIGGER items_delete AFTER DELETE ON items FOR EACH ROW EXECUTE FUNCTION items_delete();

  -- a blocked item leaves the search, an unblocked one comes back
  CREATE FUNCTION blocked_items_search() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' THEN PERFORM log_item_change(OLD.id); ELSE PERFORM log_item_change(NEW.id); END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER blocked_items_search AFTER INSERT OR DELETE ON blocked_items FOR EACH ROW EXECUTE FUNCTION blocked_items_search();

  -- a person's document is its doc, its gender and its item count (which moves when items load)
  CREATE FUNCTION persons_search() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' THEN
      PERFORM log_person_change(OLD.id);
    ELSE
      PERFORM log_person_change(NEW.id);
      IF TG_OP = 'UPDATE' AND OLD.id <> NEW.id THEN PERFORM log_person_change(OLD.id); END IF;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER persons_insert_search AFTER INSERT OR DELETE ON persons FOR EACH ROW EXECUTE FUNCTION persons_search();
  CREATE TRIGGER persons_update_search AFTER UPDATE OF id, doc, gender, item_count ON persons FOR EACH ROW EXECUTE FUNCTION persons_search();

  CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE data_version SET version = version + 1;
    RETURN NULL;
  END $$;
  CREATE TRIGGER items_version AFTER INSERT OR UPDATE OR DELETE ON items FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  CREATE TRIGGER blocked_items_version AFTER INSERT OR UPDATE OR DELETE ON blocked_items FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  CREATE TRIGGER persons_version AFTER INSERT OR UPDATE OR DELETE ON persons FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  CREATE TRIGGER item_providers_version AFTER INSERT OR UPDATE OR DELETE ON item_providers FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  CREATE TRIGGER providers_version AFTER INSERT OR UPDATE OR DELETE ON providers FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  CREATE TRIGGER load_runs_version AFTER INSERT OR UPDATE OR DELETE ON load_runs FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  CREATE TRIGGER harvest_state_version AFTER INSERT OR UPDATE OR DELETE ON harvest_state FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  -- a key's last use is not what a cache of key lookups depends on
  CREATE TRIGGER api_keys_version AFTER INSERT OR DELETE OR UPDATE OF name, key_hash, revoked_at ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
  `,
  // 2: each item's stored fields beside its package (as SQLite's
  // migration 11): what a search answer shows of a hit. Computed here for the items stored.
  async (db) => {
    await db.query('CREATE TABLE item_fields (item bigint PRIMARY KEY REFERENCES items (num) ON DELETE CASCADE, doc text NOT NULL)');
    for (let after = 0; ;) {
      const { rows } = await db.query<{ item: string; id: string; body: Buffer }>(
        'SELECT j.item, i.id, j.body FROM item_json j JOIN items i ON i.num = j.item WHERE j.item > $1 ORDER BY j.item LIMIT $2',
        [after, CONVERT_BATCH],
      );
      if (rows.length === 0) break;
      await db.query('INSERT INTO item_fields (item, doc) SELECT * FROM unnest($1::bigint[], $2::text[])', [
        rows.map((r) => r.item),
        rows.map((r) => itemStoredFieldsJson(decodeBody(r.body).toString('utf8'), r.id)),
      ]);
      after = Number(rows[rows.length - 1]!.item);
    }
  },
  // 3: the store's identity, as SQLite's migration 12: a random id a written search index names.
  `
  CREATE TABLE store_identity (one boolean PRIMARY KEY DEFAULT true CHECK (one), id text NOT NULL);
  INSERT INTO store_identity (id) VALUES (md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text));
  `,
  // 4: the OAI-PMH provider's records, as SQLite's migration 13 (docs/oai-pmh.md;
  // src/store/oaiRecords.ts), filled here for the items stored, each stamped with its updated_at.
  async (db) => {
    await db.query(`
      CREATE TABLE oai_records (
        num       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- a harvest's order; kept for good
        id        text COLLATE "C" NOT NULL UNIQUE,
        datestamp bigint NOT NULL,     -- seconds since 1970
        deleted   boolean NOT NULL,    -- gone or blocked
        cho_uri   text,                -- as last stored: finds its children after it is gone
        root      text COLLATE "C"     -- its collection root's id; null when gone
      );
      CREATE TABLE oai_sets (spec text COLLATE "C" NOT NULL, num bigint NOT NULL, PRIMARY KEY (spec, num));
      CREATE INDEX oai_sets_num ON oai_sets (num);
      CREATE TABLE oai_changes (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL);
      -- the store's own key of the resumption tokens' HMAC, unless oai.tokenSecret is set
      CREATE TABLE oai_secret (one boolean PRIMARY KEY DEFAULT true CHECK (one), value text NOT NULL);

      CREATE FUNCTION item_json_oai() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO oai_changes (id) SELECT i.id FROM items i WHERE i.num = NEW.item;
        RETURN NULL;
      END $$;
      CREATE TRIGGER item_json_oai AFTER INSERT OR UPDATE OF body ON item_json FOR EACH ROW EXECUTE FUNCTION item_json_oai();
      CREATE FUNCTION item_id_oai() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN INSERT INTO oai_changes (id) VALUES (OLD.id); ELSE INSERT INTO oai_changes (id) VALUES (NEW.id); END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER items_delete_oai AFTER DELETE ON items FOR EACH ROW EXECUTE FUNCTION item_id_oai();
      CREATE TRIGGER blocked_items_oai AFTER INSERT OR DELETE ON blocked_items FOR EACH ROW EXECUTE FUNCTION item_id_oai();
      CREATE FUNCTION item_providers_oai() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO oai_changes (id) VALUES (NEW.item_id);
        RETURN NULL;
      END $$;
      -- the institution gives the provider and sector sets
      CREATE TRIGGER item_providers_oai AFTER INSERT OR UPDATE ON item_providers FOR EACH ROW EXECUTE FUNCTION item_providers_oai();
    `);
    await db.query('INSERT INTO oai_secret (value) VALUES ($1)', [randomBytes(32).toString('base64url')]);
    await fillOaiRecords(db);
  },
  // 5: IIIF Change Discovery, as SQLite's migration 14 (docs/iiif.md): the records in datestamp
  // order, and each one's first datestamp, set by a trigger for every writer of the records.
  `
  ALTER TABLE oai_records ADD COLUMN created bigint;   -- its first datestamp
  UPDATE oai_records SET created = datestamp;
  CREATE INDEX oai_records_datestamp ON oai_records (datestamp, num);
  CREATE FUNCTION oai_records_created() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.created := coalesce(NEW.created, NEW.datestamp);
    RETURN NEW;
  END $$;
  CREATE TRIGGER oai_records_created BEFORE INSERT ON oai_records FOR EACH ROW EXECUTE FUNCTION oai_records_created();
  `,
  // 6: the stored fields again, as SQLite's migration 15: the licence facets and coordinates
  // from a package's EDM places (docs/search.md "Licences", "Geography").
  async (db) => {
    for (let after = 0; ;) {
      const { rows } = await db.query<{ item: string; id: string; body: Buffer }>(
        'SELECT j.item, i.id, j.body FROM item_json j JOIN items i ON i.num = j.item WHERE j.item > $1 ORDER BY j.item LIMIT $2',
        [after, CONVERT_BATCH],
      );
      if (rows.length === 0) break;
      await db.query('UPDATE item_fields f SET doc = u.doc FROM unnest($1::bigint[], $2::text[]) AS u (item, doc) WHERE f.item = u.item', [
        rows.map((r) => r.item),
        rows.map((r) => itemStoredFieldsJson(decodeBody(r.body).toString('utf8'), r.id)),
      ]);
      after = Number(rows[rows.length - 1]!.item);
    }
  },
  // 7: when a person's page last changed, as SQLite's migration 16 (docs/sitemaps.md).
  `ALTER TABLE persons ADD COLUMN IF NOT EXISTS updated_at bigint;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The version recorded in schema_migrations; 0 when the database has none (never migrated). */
export async function schemaVersion(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists");
  if (!rows[0]!.exists) return 0;
  const v = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
  return v.rows[0]!.v ?? 0;
}

/** Refuses a store whose schema this version does not know, or that is not migrated to it. */
export async function checkSchema(db: Queryable, url: string): Promise<void> {
  const version = await schemaVersion(db);
  if (version > SCHEMA_VERSION) {
    throw new UsageError(
      `The PostgreSQL store ${redactUrl(url)} was migrated by a newer heritage-api (schema ${version}, this version knows ${SCHEMA_VERSION}): run that version, or upgrade this one.`,
    );
  }
  if (version < SCHEMA_VERSION) {
    const state = version === 0 ? 'has no heritage-api schema yet' : `is at schema ${version} of ${SCHEMA_VERSION}`;
    throw new UsageError(`The PostgreSQL store ${redactUrl(url)} ${state}: run heritage-api migrate --store <its URL> first.`);
  }
}

export interface MigrateResult {
  from: number;
  to: number;
}

/** Applies the migrations the database lacks, in one transaction. */
export async function migratePostgres(pool: pg.Pool, url: string): Promise<MigrateResult> {
  return transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const from = await schemaVersion(client);
    if (from > SCHEMA_VERSION) await checkSchema(client, url);
    for (let v = from; v < SCHEMA_VERSION; v++) {
      const step = MIGRATIONS[v]!;
      if (typeof step === 'string') await client.query(step);
      else await step(client);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
    }
    return { from, to: SCHEMA_VERSION };
  });
}
