/**
 * The SQLite side of `heritage-api copy` (src/store/copy/copyTables.ts): the tables of
 * record read and written as rows, bodies joined to their items (decoded into text as
 * they are read, encoded as they are written: src/store/bodyCodec.ts). The store is opened
 * through openSqliteStore first, so that its schema is this version's.
 */
import { SqliteOai } from './oaiRecords.js';
import Database from 'better-sqlite3';
import { decodeBody, encodeBody } from '../bodyCodec.js';
import { itemStoredFieldsJson } from '../../formats/itemFields.js';
import { mapBodies, type CopyEndpoint, type CopyTable, type Row, type Value } from '../copy/copyTables.js';
import { openSqliteStore } from './SqliteStore.js';

/** Where a table's columns come from on SQLite, where that is not a column of the same name. */
const SOURCES: Record<string, { from: string; columns?: Record<string, string> }> = {
  items: {
    from: 'items i JOIN item_json j ON j.item = i.num JOIN item_xml x ON x.item = i.num',
    columns: { num: 'i.num', id: 'i.id', json: 'j.body', xml: 'x.body' },
  },
  persons: { from: 'persons', columns: { num: 'rowid' } },
};

export function sqliteCopyEndpoint(path: string, options: { create: boolean }): CopyEndpoint {
  // Creates (loads) or checks the store and brings its schema up to date, then lets it go.
  void openSqliteStore({ path, create: options.create }).close();
  const db = new Database(path, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  const source = (t: CopyTable) => SOURCES[t.name] ?? { from: t.name };
  const expr = (t: CopyTable, column: string) => source(t).columns?.[column] ?? column;
  return {
    location: path,
    async count(t) {
      return db.prepare<[], number>(`SELECT count(*) FROM ${t.name}`).pluck().get()!;
    },
    async read(t, after, limit) {
      const select = t.columns.map((c) => `${expr(t, c)} AS ${c}`).join(', ');
      const key = t.key.map((c) => expr(t, c));
      const where = after === null ? '' : `WHERE (${key.join(', ')}) > (${key.map(() => '?').join(', ')})`;
      const sql = `SELECT ${select} FROM ${source(t).from} ${where} ORDER BY ${key.join(', ')} LIMIT ?`;
      const rows = db
        .prepare(sql)
        .raw()
        .all(...(after ?? []), limit) as Row[];
      return rows.map((row) => mapBodies(t, row, (v) => decodeBody(v as Buffer).toString('utf8')));
    },
    async write(t, rows) {
      const columns = t.columns.filter((c) => c !== 'json' && c !== 'xml').map((c) => (t.name === 'persons' && c === 'num' ? 'rowid' : c));
      const insert = db.prepare(`INSERT INTO ${t.name} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      const body = {
        json: db.prepare('INSERT INTO item_json (item, body) VALUES (?, ?)'),
        xml: db.prepare('INSERT INTO item_xml (item, body) VALUES (?, ?)'),
      };
      // An item's stored fields are made from its package, as a load makes them (items.ts).
      const fields = db.prepare<[Value, string]>('INSERT INTO item_fields (item, doc) VALUES (?, ?)');
      const idAt = t.columns.indexOf('id');
      const jsonAt = t.columns.indexOf('json');
      const xmlAt = t.columns.indexOf('xml');
      db.transaction(() => {
        for (const given of rows) {
          const row = mapBodies(t, given, (v) => encodeBody(v as string));
          if (t.name !== 'items') {
            insert.run(...row);
            continue;
          }
          insert.run(...row.filter((_, i) => i !== jsonAt && i !== xmlAt));
          body.json.run(row[0], row[jsonAt]);
          body.xml.run(row[0], row[xmlAt]);
          fields.run(row[0] as Value, itemStoredFieldsJson(given[jsonAt] as string, given[idAt] as string));
        }
      })();
    },
    async finish() {
      // Row numbers are the rows' own (rowid), the search change logs filled by triggers. The
      // OAI-PMH records are made anew from the items, stamped with their updated_at (docs/oai-pmh.md).
      db.transaction(() => {
        db.exec('DELETE FROM oai_changes');
        SqliteOai.fill(db);
      })();
    },
    async close() {
      db.close();
    },
  };
}
