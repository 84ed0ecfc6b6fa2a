/**
 * What `heritage-api copy` moves between backends (docs/deployment.md "heritage-api copy"), in one model both
 * backends read and write: every table of record as rows of plain values in a fixed column
 * order, read in key order, so that counts and digests of the source and of the target can
 * be compared. Derived data is not copied but rebuilt: the search change logs (filled by
 * the target's triggers as the rows arrive).
 *
 * Package bodies (the items' `json` and `xml`) are their text in this model: each backend
 * keeps them compressed (src/store/bodyCodec.ts) and decodes them as it reads and encodes
 * them as it writes, so that the digests compare the bodies and not one encoder's bytes.
 */
import { createHash } from 'node:crypto';

/** A value as both backends give it: text, an integer (booleans as 0/1, times as ms), bytes, or null. */
export type Value = string | number | Buffer | null;
export type Row = Value[];

export interface CopyTable {
  name: string;
  columns: readonly string[];
  /** The columns that order the rows and page through them (a unique key). */
  key: readonly string[];
}

/** In the order they are written: a table after those it refers to. */
export const COPY_TABLES: readonly CopyTable[] = [
  {
    name: 'providers',
    columns: ['key', 'ddb_id', 'provider_id', 'parent_id', 'name', 'uri', 'sectors', 'latitude', 'longitude', 'state', 'logo'],
    key: ['key'],
  },
  {
    name: 'items',
    // num is kept: it is the order of the search feed's full scan, and what the bodies hang on.
    columns: [
      'num',
      'id',
      'cho_uri',
      'parent_ref',
      'previous_ref',
      'label',
      'hierarchy_type',
      'position',
      'aggregation_entity',
      'etag',
      'updated_at',
      'source_id',
      'source_digest',
      'json',
      'xml',
    ],
    key: ['num'],
  },
  { name: 'item_refs', columns: ['uri', 'item_id'], key: ['item_id', 'uri'] },
  { name: 'item_providers', columns: ['item_id', 'provider'], key: ['item_id'] },
  { name: 'blocked_items', columns: ['id', 'reason', 'blocked_at'], key: ['id'] },
  {
    name: 'persons',
    columns: ['num', 'id', 'doc', 'digest', 'gender', 'item_count', 'updated_at'],
    key: ['num'],
  },
  // Hashes only: the keys themselves are never stored anywhere.
  { name: 'api_keys', columns: ['name', 'key_hash', 'created_at', 'last_used_at', 'revoked_at'], key: ['name'] },
  {
    name: 'harvest_state',
    columns: ['source', 'high_water', 'resumption_token', 'run_from', 'run_started', 'updated_at'],
    key: ['source'],
  },
  {
    name: 'load_runs',
    columns: ['kind', 'finished_at', 'records', 'inserted', 'updated', 'unchanged', 'deleted', 'problems'],
    key: ['kind'],
  },
];

/** One side of a copy: a store of either backend, read or written table by table. */
export interface CopyEndpoint {
  /** Where it is, for messages (a PostgreSQL URL without its password). */
  readonly location: string;
  count(table: CopyTable): Promise<number>;
  /** At most `limit` rows in key order, after the row whose key values are `after` (null: from the first). */
  read(table: CopyTable, after: Value[] | null, limit: number): Promise<Row[]>;
  /** Writes the rows as they are, in one transaction. */
  write(table: CopyTable, rows: readonly Row[]): Promise<void>;
  /** After the last write: what the backend keeps beside the rows (sequences, versions). */
  finish(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The row with its package bodies (if `table` has them) mapped by `body`: decoded into
 * text as a backend reads them, encoded as it writes them.
 */
export function mapBodies(table: CopyTable, row: Row, body: (v: Value) => Value): Row {
  if (table.name !== 'items') return row;
  const jsonAt = table.columns.indexOf('json');
  const xmlAt = table.columns.indexOf('xml');
  return row.map((v, i) => (i === jsonAt || i === xmlAt ? body(v) : v));
}

/** The key values of a row of `table`. */
export function keyOf(table: CopyTable, row: Row): Value[] {
  return table.key.map((k) => row[table.columns.indexOf(k)]!);
}

/** A digest of rows fed in key order; the same rows give the same digest on either backend. */
export class TableDigest {
  private readonly hash = createHash('sha256');
  rows = 0;

  add(row: Row): void {
    this.rows++;
    for (const v of row) {
      if (v === null) this.hash.update('n;');
      else if (typeof v === 'number') this.hash.update(`i${v};`);
      else if (typeof v === 'string') {
        const bytes = Buffer.from(v, 'utf8');
        this.hash.update(`s${bytes.length}:`).update(bytes);
      } else this.hash.update(`b${v.length}:`).update(v);
    }
    this.hash.update('\n');
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}
