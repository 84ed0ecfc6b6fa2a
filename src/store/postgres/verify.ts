/**
 * The rows of a PostgreSQL store for `heritage-api verify` (src/store/verify/verifyStore.ts).
 * PostgreSQL has no one-statement check of a whole database; what it offers cheaply is
 * amcheck (`bt_index_check`, an AccessShareLock only: the store keeps serving), where the
 * extension is installed, and constraints that the database keeps itself (the bodies'
 * foreign keys); the rest is read and checked as on SQLite.
 */
import type pg from 'pg';
import { UsageError } from '../../errors.js';
import type { DatabaseCheck, HierarchyRow, OrphanRows, StoredItem, StoredPerson, VerifySource } from '../verify/verifyStore.js';
import { createPool, operatorError, redactUrl } from './db.js';
import { SCHEMA_VERSION, schemaVersion } from './schema.js';

const EXAMPLES = 5;

/** Rows that name an item, with the items column they name (fixed names, no input). */
const ITEM_ROWS = [
  { table: 'item_xml', what: 'XML bodies', column: 'item', of: 'num' },
  { table: 'item_json', what: 'JSON bodies', column: 'item', of: 'num' },
  { table: 'item_fields', what: 'stored fields', column: 'item', of: 'num' },
  { table: 'item_providers', what: 'institutions', column: 'item_id', of: 'id' },
] as const;

async function amcheck(pool: pg.Pool): Promise<DatabaseCheck> {
  const name = 'amcheck bt_index_check';
  const installed = await pool.query("SELECT 1 FROM pg_extension WHERE extname = 'amcheck'");
  if (installed.rowCount === 0) {
    return {
      name,
      problems: [],
      skipped:
        'the amcheck extension is not installed in this database, so its indexes were not checked (a superuser can run CREATE EXTENSION amcheck; then verify again)',
    };
  }
  // The B-tree indexes of the store's own schema, one at a time: a damaged one is named, the others still checked.
  const { rows } = await pool.query<{ oid: number; name: string }>(
    `SELECT c.oid::int AS oid, c.relname AS name FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
      WHERE am.amname = 'btree' AND c.relnamespace = current_schema()::regnamespace AND c.relpersistence = 'p'
      ORDER BY c.relname`,
  );
  const problems: string[] = [];
  for (const index of rows) {
    try {
      await pool.query('SELECT bt_index_check($1::oid)', [index.oid]);
    } catch (e) {
      problems.push(`index ${index.name}: ${(e as Error).message}`);
    }
  }
  return { name: `${name} (${rows.length} indexes)`, problems };
}

export async function postgresVerifySource(url: string): Promise<VerifySource> {
  const location = redactUrl(url);
  const pool = createPool({ url, max: 2 });
  try {
    const version = await schemaVersion(pool);
    if (version !== SCHEMA_VERSION) {
      throw new UsageError(
        version > SCHEMA_VERSION
          ? `The store ${location} was written by a newer heritage-api (schema ${version}, this version knows ${SCHEMA_VERSION}): verify it with that version.`
          : `The store ${location} is at schema ${version}, this version's is ${SCHEMA_VERSION}: bring it up to date first (heritage-api migrate), then verify it.`,
      );
    }
  } catch (e) {
    await pool.end();
    throw operatorError(e, url);
  }
  const query = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<R[]> => {
    try {
      return (await pool.query<R>(sql, values)).rows;
    } catch (e) {
      throw operatorError(e, url);
    }
  };
  return {
    location,
    backend: 'PostgreSQL',
    async databaseChecks(): Promise<DatabaseCheck[]> {
      // A constraint added NOT VALID and never validated holds for new rows only.
      const unvalidated = await query<{ name: string; table: string }>(
        `SELECT conname AS name, conrelid::regclass::text AS table FROM pg_constraint
          WHERE NOT convalidated AND connamespace = current_schema()::regnamespace ORDER BY conname`,
      );
      return [
        await amcheck(pool),
        { name: 'pg_constraint convalidated', problems: unvalidated.map((c) => `constraint ${c.name} of ${c.table} was never validated`) },
      ];
    },
    async orphanRows(): Promise<OrphanRows[]> {
      const out: OrphanRows[] = [];
      for (const { table, what, column, of } of ITEM_ROWS) {
        const where = `FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.${of} = t.${column})`;
        const [{ n }] = (await query<{ n: number }>(`SELECT count(*) AS n ${where}`)) as [{ n: number }];
        const examples =
          n === 0
            ? []
            : (await query<{ k: string | number }>(`SELECT t.${column} AS k ${where} ORDER BY t.${column} LIMIT ${EXAMPLES}`)).map((r) =>
                String(r.k),
              );
        out.push({ table: `${table} (${what})`, count: n, examples });
      }
      return out;
    },
    countItems: async () => (await query<{ n: number }>('SELECT count(*) AS n FROM items'))[0]!.n,
    async readItems(afterNum: number, limit: number): Promise<StoredItem[]> {
      const rows = await query<{
        num: number;
        id: string;
        etag: string;
        parent_ref: string | null;
        xml: Buffer | null;
        json: Buffer | null;
        fields: string | null;
      }>(
        `SELECT i.num, i.id, i.etag, i.parent_ref, x.body AS xml, j.body AS json, f.doc AS fields
           FROM items i LEFT JOIN item_xml x ON x.item = i.num LEFT JOIN item_json j ON j.item = i.num LEFT JOIN item_fields f ON f.item = i.num
          WHERE i.num > $1 ORDER BY i.num LIMIT $2`,
        [afterNum, limit],
      );
      return rows.map((r) => ({ num: r.num, id: r.id, etag: r.etag, parentRef: r.parent_ref, xml: r.xml, json: r.json, fields: r.fields }));
    },
    async itemsByChoUri(uris: readonly string[]): Promise<Map<string, HierarchyRow>> {
      const rows = await query<{ cho_uri: string; id: string; parent_ref: string | null }>(
        'SELECT DISTINCT ON (cho_uri) cho_uri, id, parent_ref FROM items WHERE cho_uri = ANY($1::text[]) ORDER BY cho_uri, num',
        [uris],
      );
      return new Map(rows.map((r) => [r.cho_uri, { id: r.id, parentRef: r.parent_ref }]));
    },
    countPersons: async () => (await query<{ n: number }>('SELECT count(*) AS n FROM persons'))[0]!.n,
    readPersons: (afterKey: number, limit: number) =>
      query<StoredPerson>('SELECT num AS key, id, doc, gender FROM persons WHERE num > $1 ORDER BY num LIMIT $2', [afterKey, limit]),
    close: () => pool.end(),
  };
}
