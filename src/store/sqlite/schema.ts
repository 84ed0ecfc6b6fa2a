/**
 * SQLite schema of the store. Migrations are applied in order at open; the
 * version reached is kept in PRAGMA user_version.
 */
import type { Database } from 'better-sqlite3';

const MIGRATIONS: readonly string[] = [
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
];

export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`The database was written by a newer heritage-api (schema ${current}, this version knows ${MIGRATIONS.length}).`);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
