/**
 * Persons on PostgreSQL: the document, the gender (a JSON array, as on SQLite), and the
 * count of items that refer to the person (docs/decisions.md "count"), kept in
 * step by item loads (PgItemRefs) as src/store/sqlite/persons.ts does. The search
 * reads them through the change feed (searchChanges.ts).
 */
import type pg from 'pg';
import type { PreparedPerson, UpsertResult } from '../Store.js';
import { transaction, type Queryable } from './db.js';
import { pruneSearchChanges } from './searchChanges.js';

/** Persons per statement: bounds one message (a document is a few hundred bytes). */
const PERSONS_PER_STATEMENT = 5000;

export class PgPersons {
  constructor(
    private readonly pool: pg.Pool,
    private readonly searchChangesKept: number,
  ) {}

  async upsertPersons(persons: readonly PreparedPerson[]): Promise<UpsertResult> {
    return transaction(this.pool, async (db) => {
      const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
      // Many at a time, for load speed: a few statements per chunk, not two round trips a
      // person. A chunk ends where an id comes again, so that it sees the one before it.
      for (let i = 0; i < persons.length;) {
        const chunk: PreparedPerson[] = [];
        const ids = new Set<string>();
        for (let p = persons[i]; p !== undefined && !ids.has(p.id) && chunk.length < PERSONS_PER_STATEMENT; p = persons[++i]) {
          chunk.push(p);
          ids.add(p.id);
        }
        await this.upsertChunk(db, chunk, result);
      }
      if (result.inserted + result.updated > 0) await pruneSearchChanges(db, this.searchChangesKept);
      return result;
    });
  }

  /** Persons of distinct ids: new ones inserted in order (their numbers are the full scan's order), changed ones updated. */
  private async upsertChunk(db: Queryable, persons: readonly PreparedPerson[], result: UpsertResult): Promise<void> {
    const { rows } = await db.query<{ id: string; digest: string }>('SELECT id, digest FROM persons WHERE id = ANY($1::text[])', [
      persons.map((p) => p.id),
    ]);
    const old = new Map(rows.map((r) => [r.id, r.digest]));
    const added: PreparedPerson[] = [];
    const changed: PreparedPerson[] = [];
    for (const p of persons) {
      const digest = old.get(p.id);
      if (digest === p.digest) result.unchanged++;
      else (digest === undefined ? added : changed).push(p);
    }
    const columns = (list: readonly PreparedPerson[]) => [
      list.map((p) => p.id),
      list.map((p) => p.doc),
      list.map((p) => p.digest),
      list.map((p) => JSON.stringify(p.gender)),
    ];
    // No statement where there is nothing to write: each fires the data_version trigger.
    if (changed.length > 0) {
      await db.query(
        `UPDATE persons p SET doc = u.doc, digest = u.digest, gender = u.gender, updated_at = $5
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(id, doc, digest, gender) WHERE p.id = u.id`,
        [...columns(changed), Date.now()],
      );
      result.updated += changed.length;
    }
    if (added.length > 0) {
      await db.query(
        `INSERT INTO persons (id, doc, digest, gender, item_count, updated_at)
         SELECT u.id, u.doc, u.digest, u.gender, (SELECT count(*) FROM item_refs r WHERE r.uri = u.id), $5
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(id, doc, digest, gender, ord)
         ORDER BY u.ord`,
        [...columns(added), Date.now()],
      );
      result.inserted += added.length;
    }
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
      await db.query(
        'INSERT INTO item_refs (uri, item_id) SELECT DISTINCT u, $2::text FROM unnest($1::text[]) AS u ON CONFLICT DO NOTHING',
        [refs, itemId],
      );
    }
    for (const uri of refs) affected.add(uri);
  }

  /** Returns how many persons' counts changed: only rows whose count really moves are written. */
  async recountAll(db: Queryable, uris: Set<string>): Promise<number> {
    if (uris.size === 0) return 0;
    const { rowCount } = await db.query(
      // The person's page lists its items, so a new count is a change of the page (its sitemap lastmod).
      `UPDATE persons p SET item_count = c.n, updated_at = $2
       FROM (SELECT u.uri, (SELECT count(*) FROM item_refs r WHERE r.uri = u.uri) AS n FROM unnest($1::text[]) AS u(uri)) c
       WHERE p.id = c.uri AND p.item_count <> c.n`,
      [[...uris], Date.now()],
    );
    return rowCount ?? 0;
  }
}
