/**
 * The PostgreSQL side of `heritage-api copy` (src/store/copy/copyTables.ts): the tables
 * of record read and written as rows, bodies joined to their items (decoded into text as
 * they are read, encoded as they are written: src/store/bodyCodec.ts). The store must be
 * migrated (heritage-api migrate) first; row numbers are kept, and the identity
 * sequences set after them at the end.
 */
import { decodeBody, encodeBody } from '../bodyCodec.js';
import { itemStoredFieldsJson } from '../../formats/itemFields.js';
import { mapBodies, type CopyEndpoint, type CopyTable, type Row } from '../copy/copyTables.js';
import { createPool, operatorError, redactUrl, transaction } from './db.js';
import { checkSchema } from './schema.js';
import { fillOaiRecords } from './oaiRecords.js';

const SOURCES: Record<string, { from: string; columns?: Record<string, string> }> = {
  items: {
    from: 'items i JOIN item_json j ON j.item = i.num JOIN item_xml x ON x.item = i.num',
    columns: { num: 'i.num', id: 'i.id', json: 'j.body', xml: 'x.body', aggregation_entity: 'i.aggregation_entity::int' },
  },
};

/** Tables whose row numbers are an identity column: written with OVERRIDING SYSTEM VALUE. */
const IDENTITY = new Set(['items', 'persons']);

export async function postgresCopyEndpoint(url: string): Promise<CopyEndpoint> {
  const pool = createPool({ url, max: 2 });
  try {
    await checkSchema(pool, url);
  } catch (e) {
    await pool.end();
    throw operatorError(e, url);
  }
  const source = (t: CopyTable) => SOURCES[t.name] ?? { from: t.name };
  const expr = (t: CopyTable, column: string) => source(t).columns?.[column] ?? column;
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (e) {
      throw operatorError(e, url);
    }
  };
  return {
    location: redactUrl(url),
    count: (t) => guard(async () => (await pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${t.name}`)).rows[0]!.n),
    read: (t, after, limit) =>
      guard(async () => {
        const select = t.columns.map((c) => `${expr(t, c)} AS ${c}`).join(', ');
        const key = t.key.map((c) => expr(t, c));
        const where = after === null ? '' : `WHERE (${key.join(', ')}) > (${key.map((_, i) => `$${i + 1}`).join(', ')})`;
        const params = [...(after ?? []), limit];
        const sql = `SELECT ${select} FROM ${source(t).from} ${where} ORDER BY ${key.join(', ')} LIMIT $${params.length}`;
        const rows = (await pool.query({ text: sql, values: params, rowMode: 'array' })).rows as Row[];
        return rows.map((row) => mapBodies(t, row, (v) => decodeBody(v as Buffer).toString('utf8')));
      }),
    write: (t, rows) =>
      guard(() =>
        transaction(pool, async (db) => {
          const columns = t.columns.filter((c) => c !== 'json' && c !== 'xml');
          const overriding = IDENTITY.has(t.name) ? 'OVERRIDING SYSTEM VALUE' : '';
          const insert = `INSERT INTO ${t.name} (${columns.join(', ')}) ${overriding} VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
          const jsonAt = t.columns.indexOf('json');
          const xmlAt = t.columns.indexOf('xml');
          for (const given of rows) {
            const row = mapBodies(t, given, (v) => encodeBody(v as string));
            const values: unknown[] = t.name === 'items' ? row.filter((_, i) => i !== jsonAt && i !== xmlAt) : row;
            // 0/1 to boolean: the one boolean column.
            if (t.name === 'items') values[columns.indexOf('aggregation_entity')] = values[columns.indexOf('aggregation_entity')] === 1;
            await db.query(insert, values);
            if (t.name === 'items') {
              await db.query('INSERT INTO item_json (item, body) VALUES ($1, $2)', [row[0], row[jsonAt]]);
              await db.query('INSERT INTO item_xml (item, body) VALUES ($1, $2)', [row[0], row[xmlAt]]);
              // Its stored fields are made from its package, as a load makes them (itemUpserts.ts).
              const fields = itemStoredFieldsJson(given[jsonAt] as string, given[t.columns.indexOf('id')] as string);
              await db.query('INSERT INTO item_fields (item, doc) VALUES ($1, $2)', [row[0], fields]);
            }
          }
        }),
      ),
    finish: () =>
      guard(async () => {
        for (const table of IDENTITY) {
          // The next row inserted after the copy gets a number after the copied ones.
          await pool.query(
            `SELECT setval(pg_get_serial_sequence('${table}', 'num'), coalesce(max(num), 1), max(num) IS NOT NULL) FROM ${table}`,
          );
        }
        // The OAI-PMH records are made anew from the items, stamped with their updated_at (docs/oai-pmh.md).
        await transaction(pool, async (db) => {
          await db.query('DELETE FROM oai_changes');
          await fillOaiRecords(db);
        });
      }),
    close: () => pool.end(),
  };
}
