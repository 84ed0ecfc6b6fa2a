/**
 * The rows of a SQLite store for `heritage-api verify` (src/store/verify/verifyStore.ts),
 * read on a connection of its own that cannot write: checking a store must not change it,
 * not even by bringing its schema up to date.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { StoreNotFoundError } from '../storeErrors.js';
import type { DatabaseCheck, HierarchyRow, OrphanRows, StoredItem, StoredPerson, VerifySource } from '../verify/verifyStore.js';
import { MIGRATIONS } from './schema.js';

/** Rows named by key in a report line. */
const EXAMPLES = 5;

/** Rows that name an item by its num or id, with the items column they name (fixed names, no input). */
const ITEM_ROWS = [
  { table: 'item_xml', what: 'XML bodies', column: 'item', of: 'num' },
  { table: 'item_json', what: 'JSON bodies', column: 'item', of: 'num' },
  { table: 'item_fields', what: 'stored fields', column: 'item', of: 'num' },
  { table: 'item_providers', what: 'institutions', column: 'item_id', of: 'id' },
] as const;

export function sqliteVerifySource(path: string): VerifySource {
  if (path === ':memory:' || !existsSync(path)) throw new StoreNotFoundError(path);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== MIGRATIONS.length) {
      throw new UsageError(
        version > MIGRATIONS.length
          ? `The store ${path} was written by a newer heritage-api (schema ${version}, this version knows ${MIGRATIONS.length}): verify it with that version.`
          : `The store ${path} is at schema ${version}, this version's is ${MIGRATIONS.length}: bring it up to date first (heritage-api migrate --store ${path}), then verify it.`,
      );
    }
  } catch (e) {
    db.close();
    throw e;
  }
  const items = db.prepare<
    [number, number],
    { num: number; id: string; etag: string; parent_ref: string | null; xml: Buffer | null; json: Buffer | null; fields: string | null }
  >(
    `SELECT i.num, i.id, i.etag, i.parent_ref, x.body AS xml, j.body AS json, f.doc AS fields
       FROM items i LEFT JOIN item_xml x ON x.item = i.num LEFT JOIN item_json j ON j.item = i.num LEFT JOIN item_fields f ON f.item = i.num
      WHERE i.num > ? ORDER BY i.num LIMIT ?`,
  );
  // The first item (by num) of each URI, as the hierarchy's `cho_uri = ? LIMIT 1` finds it through its index.
  const byUri = db.prepare<[string], { cho_uri: string; id: string; parent_ref: string | null }>(
    'SELECT cho_uri, id, parent_ref FROM items WHERE cho_uri IN (SELECT value FROM json_each(?)) ORDER BY num',
  );
  const persons = db.prepare<[number, number], { key: number; id: string; doc: string; gender: string }>(
    'SELECT rowid AS key, id, doc, gender FROM persons WHERE rowid > ? ORDER BY rowid LIMIT ?',
  );
  return {
    location: path,
    backend: 'SQLite',
    async databaseChecks(): Promise<DatabaseCheck[]> {
      // A page damaged past what the check can walk stops it with SQLITE_CORRUPT: that is its finding.
      const run = (name: string, check: () => string[]): DatabaseCheck => {
        try {
          return { name, problems: check() };
        } catch (e) {
          return { name, problems: [`the check itself failed: ${(e as Error).message}`] };
        }
      };
      return [
        run('PRAGMA integrity_check', () =>
          (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).filter((r) => r !== 'ok'),
        ),
        run('PRAGMA foreign_key_check', () =>
          (db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>).map(
            (r) => `row ${r.rowid} of ${r.table} names a missing row of ${r.parent}`,
          ),
        ),
      ];
    },
    async orphanRows(): Promise<OrphanRows[]> {
      return ITEM_ROWS.map(({ table, what, column, of }) => {
        const where = `FROM ${table} WHERE ${column} NOT IN (SELECT ${of} FROM items)`;
        const count = (db.prepare(`SELECT count(*) AS n ${where}`).get() as { n: number }).n;
        const examples =
          count === 0
            ? []
            : (
                db.prepare(`SELECT ${column} AS k ${where} ORDER BY ${column} LIMIT ${EXAMPLES}`).pluck().all() as Array<string | number>
              ).map(String);
        return { table: `${table} (${what})`, count, examples };
      });
    },
    countItems: async () => (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n,
    async readItems(afterNum: number, limit: number): Promise<StoredItem[]> {
      return items
        .all(afterNum, limit)
        .map((r) => ({ num: r.num, id: r.id, etag: r.etag, parentRef: r.parent_ref, xml: r.xml, json: r.json, fields: r.fields }));
    },
    async itemsByChoUri(uris: readonly string[]): Promise<Map<string, HierarchyRow>> {
      const out = new Map<string, HierarchyRow>();
      for (const r of byUri.all(JSON.stringify(uris))) if (!out.has(r.cho_uri)) out.set(r.cho_uri, { id: r.id, parentRef: r.parent_ref });
      return out;
    },
    countPersons: async () => (db.prepare('SELECT count(*) AS n FROM persons').get() as { n: number }).n,
    readPersons: async (afterKey: number, limit: number): Promise<StoredPerson[]> => persons.all(afterKey, limit),
    close: async () => {
      db.close();
    },
  };
}
