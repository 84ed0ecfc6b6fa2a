/**
 * Persons on PostgreSQL: the document, the gender (a JSON array, as on SQLite), and the
 * count of items that refer to the person (decisions.md "Entity search": count), kept in
 * step by item loads (PgItemRefs) as src/store/sqlite/persons.ts does. The search
 * reads them through the change feed (searchChanges.ts).
 */
import type pg from 'pg';
import type { PreparedPerson, UpsertResult } from '../Store.js';
import { transaction, type Queryable } from './db.js';
import { pruneSearchChanges } from './searchChanges.js';

export class PgPersons {
  constructor(
    private readonly pool: pg.Pool,
    private readonly searchChangesKept: number,
  ) {}

  async upsertPersons(persons: readonly PreparedPerson[]): Promise<UpsertResult> {
    return transaction(this.pool, async (db) => {
      const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
      for (const p of persons) {
        const old = (await db.query<{ digest: string }>('SELECT digest FROM persons WHERE id = $1', [p.id])).rows[0];
        if (old?.digest === p.digest) {
          result.unchanged++;
          continue;
        }
        const values = [p.id, p.doc, p.digest, JSON.stringify(p.gender)];
        if (old) {
          await db.query('UPDATE persons SET doc = $2, digest = $3, gender = $4 WHERE id = $1', values);
          result.updated++;
        } else {
          await db.query(
            `INSERT INTO persons (id, doc, digest, gender, item_count)
             VALUES ($1, $2, $3, $4, (SELECT count(*) FROM item_refs WHERE uri = $1))`,
            values,
          );
          result.inserted++;
        }
      }
      if (result.inserted + result.updated > 0) await pruneSearchChanges(db, this.searchChangesKept);
      return result;
    });
  }

  async countPersons(): Promise<number> {
    return (await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM persons')).rows[0]!.n;
  }
}

/**
 * Keeps item -> authority references and the persons' counts in step, in the caller's
 * transaction: loading items before or after the persons gives the same counts.
 */
export class PgItemRefs {
  /** Replaces the references of an item; adds the URIs whose counts may change to `affected`. */
  async replace(db: Queryable, itemId: string, refs: readonly string[], affected: Set<string>): Promise<void> {
    const { rows } = await db.query<{ uri: string }>('DELETE FROM item_refs WHERE item_id = $1 RETURNING uri', [itemId]);
    for (const { uri } of rows) affected.add(uri);
    if (refs.length > 0) {
      await db.query('INSERT INTO item_refs (uri, item_id) SELECT DISTINCT u, $2::text FROM unnest($1::text[]) AS u ON CONFLICT DO NOTHING', [refs, itemId]);
    }
    for (const uri of refs) affected.add(uri);
  }

  /** Returns how many persons' counts changed: only rows whose count really moves are written. */
  async recountAll(db: Queryable, uris: Set<string>): Promise<number> {
    if (uris.size === 0) return 0;
    const { rowCount } = await db.query(
      `UPDATE persons p SET item_count = c.n
       FROM (SELECT u.uri, (SELECT count(*) FROM item_refs r WHERE r.uri = u.uri) AS n FROM unnest($1::text[]) AS u(uri)) c
       WHERE p.id = c.uri AND p.item_count <> c.n`,
      [[...uris]],
    );
    return rowCount ?? 0;
  }
}
