/**
 * Writing persons on SQLite: the document and the count of items that refer
 * to the person (docs/decisions.md "count"). The search engine
 * reads them through the change feed (searchChanges.ts, src/search/engine/).
 */
import type { Database, Statement } from 'better-sqlite3';
import type { PreparedPerson, UpsertResult } from '../Store.js';

export class SqlitePersonWriter {
  private readonly existing: Statement<[string], { rowid: number; digest: string }>;
  private readonly insert: Statement;
  private readonly update: Statement;
  private readonly count: Statement<[], { n: number }>;
  private readonly upsertMany: (persons: readonly PreparedPerson[]) => UpsertResult;

  constructor(db: Database, onChange: () => void) {
    this.existing = db.prepare('SELECT rowid, digest FROM persons WHERE id = ?');
    this.insert = db.prepare(`
      INSERT INTO persons (id, doc, digest, gender, item_count, updated_at)
      VALUES (@id, @doc, @digest, @gender, (SELECT count(*) FROM item_refs WHERE uri = @id), @now)`);
    this.update = db.prepare('UPDATE persons SET doc = @doc, digest = @digest, gender = @gender, updated_at = @now WHERE rowid = @rowid');
    // Kept by triggers (schema.ts migration 17), not counted: count(*) scans every row.
    this.count = db.prepare("SELECT n FROM row_counts WHERE name = 'persons'");
    this.upsertMany = db.transaction((persons: readonly PreparedPerson[]) => {
      const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
      const now = Date.now();
      for (const person of persons) {
        const old = this.existing.get(person.id);
        if (old?.digest === person.digest) {
          result.unchanged++;
          continue;
        }
        if (old) {
          this.update.run({ ...row(person), now, rowid: old.rowid });
          result.updated++;
        } else {
          this.insert.run({ ...row(person), now });
          result.inserted++;
        }
      }
      if (result.inserted + result.updated > 0) onChange();
      return result;
    });
  }

  upsertPersons(persons: readonly PreparedPerson[]): UpsertResult {
    return this.upsertMany(persons);
  }

  countPersons(): number {
    return this.count.get()!.n;
  }
}

/** The named parameters of the persons row. */
function row(p: PreparedPerson) {
  return { id: p.id, doc: p.doc, digest: p.digest, gender: JSON.stringify(p.gender) };
}

/**
 * Keeps item -> authority references and the persons' counts in step, in
 * the caller's transaction. Loading items before or after the persons gives
 * the same counts: a person's count is computed when it is inserted, and
 * recomputed here for every URI whose references changed.
 */
export class SqliteItemRefs {
  private readonly select: Statement<[string], { uri: string }>;
  private readonly remove: Statement;
  private readonly insert: Statement;
  private readonly recount: Statement;

  constructor(db: Database) {
    this.select = db.prepare('SELECT uri FROM item_refs WHERE item_id = ?');
    this.remove = db.prepare('DELETE FROM item_refs WHERE item_id = ?');
    this.insert = db.prepare('INSERT OR IGNORE INTO item_refs (uri, item_id) VALUES (?, ?)');
    // Only rows whose count really moves: an unchanged count must not feed the search a change.
    this.recount = db.prepare(`
      UPDATE persons SET item_count = (SELECT count(*) FROM item_refs WHERE uri = @uri), updated_at = @now
      WHERE id = @uri AND item_count <> (SELECT count(*) FROM item_refs WHERE uri = @uri)`);
  }

  /** Replaces the references of an item; adds the URIs whose counts may change to `affected`. */
  replace(itemId: string, refs: readonly string[], affected: Set<string>): void {
    for (const { uri } of this.select.all(itemId)) affected.add(uri);
    this.remove.run(itemId);
    for (const uri of refs) {
      this.insert.run(uri, itemId);
      affected.add(uri);
    }
  }

  /** Returns how many persons' counts changed. */
  recountAll(uris: Iterable<string>): number {
    let changed = 0;
    // The person's page lists its items, so a new count is a change of the page (its sitemap lastmod).
    const now = Date.now();
    for (const uri of uris) changed += this.recount.run({ uri, now }).changes;
    return changed;
  }
}
