/**
 * Writing persons on SQLite: the document, the folded full-text row, the
 * facet values, and the count of items that refer to the person
 * (decisions.md "Entity search": count). Reading is in personSearch.ts.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { PreparedPerson, UpsertResult } from '../Store.js';

export class SqlitePersonWriter {
  private readonly existing: Statement<[string], { rowid: number; digest: string }>;
  private readonly insert: Statement;
  private readonly update: Statement;
  private readonly ftsInsert: Statement;
  private readonly ftsDelete: Statement;
  private readonly facetInsert: Statement;
  private readonly facetDelete: Statement;
  private readonly count: Statement<[], { n: number }>;
  private readonly bump: Statement;
  private readonly upsertMany: (persons: readonly PreparedPerson[]) => UpsertResult;

  constructor(db: Database, onChange: () => void) {
    this.existing = db.prepare('SELECT rowid, digest FROM persons WHERE id = ?');
    const columns = `doc = @doc, digest = @digest, sort_key = @sortKey, name_key = @nameKey, fields_mask = @fieldsMask,
      birth_year = @birth, death_year = @death`;
    this.insert = db.prepare(`
      INSERT INTO persons (id, doc, digest, sort_key, name_key, fields_mask, birth_year, death_year, item_count)
      VALUES (@id, @doc, @digest, @sortKey, @nameKey, @fieldsMask, @birth, @death,
              (SELECT count(*) FROM item_refs WHERE uri = @id))`);
    this.update = db.prepare(`UPDATE persons SET ${columns} WHERE rowid = @rowid`);
    this.ftsInsert = db.prepare(
      `INSERT INTO persons_fts (rowid, preferredName, variantName, dateOfBirth, dateOfDeath, placeOfBirth, placeOfDeath, professionOrOccupation, gender)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.ftsDelete = db.prepare('DELETE FROM persons_fts WHERE rowid = ?');
    this.facetInsert = db.prepare('INSERT OR IGNORE INTO person_facets (facet, value, person) VALUES (?, ?, ?)');
    this.facetDelete = db.prepare('DELETE FROM person_facets WHERE person = ?');
    this.count = db.prepare('SELECT count(*) AS n FROM persons');
    this.bump = bumpPersonsVersion(db);
    this.upsertMany = db.transaction((persons: readonly PreparedPerson[]) => {
      const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
      for (const person of persons) {
        const old = this.existing.get(person.id);
        if (old?.digest === person.digest) {
          result.unchanged++;
          continue;
        }
        let rowid: number;
        if (old) {
          rowid = old.rowid;
          this.update.run({ ...row(person), rowid });
          this.ftsDelete.run(rowid);
          this.facetDelete.run(rowid);
          result.updated++;
        } else {
          rowid = Number(this.insert.run(row(person)).lastInsertRowid);
          result.inserted++;
        }
        this.ftsInsert.run(rowid, ...person.text);
        for (const [facet, value] of person.facets) this.facetInsert.run(facet, value, rowid);
      }
      if (result.inserted + result.updated > 0) {
        this.bump.run();
        onChange();
      }
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

/** The named parameters of the persons row (the text and facets go to their own tables). */
function row(p: PreparedPerson) {
  return { id: p.id, doc: p.doc, digest: p.digest, sortKey: p.sortKey, nameKey: p.nameKey, fieldsMask: p.fieldsMask, birth: p.birth, death: p.death };
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
  private readonly bump: Statement;

  constructor(db: Database) {
    this.select = db.prepare('SELECT uri FROM item_refs WHERE item_id = ?');
    this.remove = db.prepare('DELETE FROM item_refs WHERE item_id = ?');
    this.insert = db.prepare('INSERT OR IGNORE INTO item_refs (uri, item_id) VALUES (?, ?)');
    // Only rows whose count really moves: an unchanged count must not move the persons version.
    this.recount = db.prepare(`
      UPDATE persons SET item_count = (SELECT count(*) FROM item_refs WHERE uri = @uri)
      WHERE id = @uri AND item_count <> (SELECT count(*) FROM item_refs WHERE uri = @uri)`);
    this.bump = bumpPersonsVersion(db);
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
    for (const uri of uris) changed += this.recount.run({ uri }).changes;
    if (changed > 0) this.bump.run();
    return changed;
  }
}

/**
 * The persons version (schema migration 4) moves in the same transaction as
 * any change to what the search index is built from: person rows and their
 * item counts. Another process's commit of items or keys leaves it alone, so
 * the server keeps its index (rebuilding it takes seconds at a million persons).
 */
function bumpPersonsVersion(db: Database): Statement {
  return db.prepare("UPDATE data_versions SET version = version + 1 WHERE name = 'persons'");
}

export function readPersonsVersion(db: Database): () => number {
  const select = db.prepare<[], number>("SELECT version FROM data_versions WHERE name = 'persons'").pluck();
  return () => select.get() ?? 0;
}
