/**
 * The OAI-PMH records on PostgreSQL (src/store/oaiRecords.ts; schema migration 4): the same
 * refresh as on SQLite (src/store/sqlite/oaiRecords.ts), at the end of each write
 * transaction, and the reads of the provider, each one statement (one snapshot).
 */
import type { OaiActivity, OaiListQuery, OaiRecord, OaiSetEntry } from '../Store.js';
import { parseSetSpec, refreshPlan, runPlan, type OaiOps, type RefreshOptions } from '../oaiRecords.js';
import type { Queryable } from './db.js';

/** The largest datestamp: `until` absent. */
const NO_UNTIL = Number.MAX_SAFE_INTEGER;

/** Items per statement of the migration's fill. */
const FILL_BATCH = 500;

function opsOn(db: Queryable): { [K in keyof OaiOps]: (arg: OaiOps[K][0]) => Promise<OaiOps[K][1]> } {
  return {
    items: async (ids) =>
      (
        await db.query<{ id: string; choUri: string | null; parentRef: string | null; blocked: boolean; updatedAt: number }>(
          `SELECT id, cho_uri AS "choUri", parent_ref AS "parentRef", EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = items.id) AS blocked,
                  updated_at AS "updatedAt"
           FROM items WHERE id = ANY($1::text[])`,
          [ids],
        )
      ).rows,
    records: async (ids) =>
      (
        await db.query<{ id: string; datestamp: number; deleted: boolean; choUri: string | null; root: string | null; sets: string[] }>(
          `SELECT id, datestamp, deleted, cho_uri AS "choUri", root, ARRAY(SELECT spec FROM oai_sets s WHERE s.num = r.num ORDER BY spec) AS sets
           FROM oai_records r WHERE id = ANY($1::text[])`,
          [ids],
        )
      ).rows,
    // One item per URI, the first stored, as SQLite's cho_uri index gives it.
    byChoUri: async (uris) =>
      (
        await db.query<{ choUri: string; id: string; parentRef: string | null }>(
          `SELECT DISTINCT ON (cho_uri) cho_uri AS "choUri", id, parent_ref AS "parentRef" FROM items
           WHERE cho_uri = ANY($1::text[]) ORDER BY cho_uri, num`,
          [uris],
        )
      ).rows,
    children: async (uris) =>
      (
        await db.query<{ id: string; parentRef: string }>(
          'SELECT id, parent_ref AS "parentRef" FROM items WHERE parent_ref = ANY($1::text[])',
          [uris],
        )
      ).rows,
    providers: async (ids) =>
      (
        await db.query<{ id: string; key: string; sectors: string }>(
          'SELECT ip.item_id AS id, p.key, p.sectors FROM item_providers ip JOIN providers p ON p.key = ip.provider WHERE ip.item_id = ANY($1::text[])',
          [ids],
        )
      ).rows,
    write: async (writes) => {
      const { rows } = await db.query<{ id: string; num: number }>(
        `INSERT INTO oai_records (id, datestamp, deleted, cho_uri, root)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::boolean[], $4::text[], $5::text[])
         ON CONFLICT (id) DO UPDATE SET datestamp = excluded.datestamp, deleted = excluded.deleted, cho_uri = excluded.cho_uri, root = excluded.root
         RETURNING id, num`,
        [
          writes.map((w) => w.id),
          writes.map((w) => w.datestamp),
          writes.map((w) => w.deleted),
          writes.map((w) => w.choUri),
          writes.map((w) => w.root),
        ],
      );
      const numOf = new Map(rows.map((r) => [r.id, r.num]));
      const withSets = writes.filter((w) => w.sets !== null);
      if (withSets.length === 0) return;
      await db.query('DELETE FROM oai_sets WHERE num = ANY($1::bigint[])', [withSets.map((w) => numOf.get(w.id)!)]);
      const specs = withSets.flatMap((w) => w.sets!.map((spec) => [spec, numOf.get(w.id)!] as const));
      if (specs.length > 0) {
        await db.query('INSERT INTO oai_sets (spec, num) SELECT * FROM unnest($1::text[], $2::bigint[])', [
          specs.map((s) => s[0]),
          specs.map((s) => s[1]),
        ]);
      }
    },
  };
}

/** Brings the records up to date with the changes logged so far; inside the write transaction, last. */
export async function refreshOaiRecords(db: Queryable, options: Partial<RefreshOptions> = {}): Promise<void> {
  const { rows } = await db.query<{ seq: number; id: string }>('SELECT seq, id FROM oai_changes ORDER BY seq');
  if (rows.length === 0) return;
  const ids = [...new Set(rows.map((r) => r.id))];
  await runPlan(refreshPlan(ids, { now: Math.floor(Date.now() / 1000), ...options }), opsOn(db));
  await db.query('DELETE FROM oai_changes WHERE seq = ANY($1::bigint[])', [rows.map((r) => r.seq)]);
}

/** Migration 4: a record for every item stored before it, stamped with the item's updated_at. */
export async function fillOaiRecords(db: Queryable): Promise<void> {
  const ops = opsOn(db);
  for (let after = 0; ;) {
    const { rows } = await db.query<{ num: number; id: string }>(
      'SELECT num, id FROM items i WHERE num > $1 AND NOT EXISTS (SELECT 1 FROM oai_records r WHERE r.id = i.id) ORDER BY num LIMIT $2',
      [after, FILL_BATCH],
    );
    if (rows.length === 0) break;
    await runPlan(
      refreshPlan(
        rows.map((r) => r.id),
        { now: Math.floor(Date.now() / 1000), stampFromItems: true },
      ),
      ops,
    );
    after = rows[rows.length - 1]!.num;
  }
  await db.query('DELETE FROM oai_changes');
}

interface RecordRow {
  num: number;
  id: string;
  datestamp: number;
  deleted: boolean;
  body: Buffer | null;
  sets: string[];
}

const SETS = 'ARRAY(SELECT spec FROM oai_sets s2 WHERE s2.num = r.num ORDER BY spec) AS sets';

function columns(bodies: boolean): string {
  return bodies
    ? `r.num, r.id, r.datestamp, r.deleted, x.body, ${SETS} FROM oai_records r
       LEFT JOIN items i ON i.id = r.id AND NOT r.deleted LEFT JOIN item_xml x ON x.item = i.num`
    : `r.num, r.id, r.datestamp, r.deleted, NULL::bytea AS body, ${SETS} FROM oai_records r`;
}

function toRecord(r: RecordRow, bodies: boolean): OaiRecord {
  return {
    num: r.num,
    id: r.id,
    datestamp: r.datestamp,
    // A live record without a body cannot be: the body goes with the items row it joins.
    deleted: r.deleted || (bodies && r.body === null),
    sets: r.sets,
    ...(r.body === null ? {} : { storedBody: r.body }),
  };
}

/** The provider's reads over one server's pool (a replica's too: they only read). */
export class PgOaiReads {
  constructor(private readonly db: Queryable) {}

  async listOaiRecords(q: OaiListQuery): Promise<OaiRecord[]> {
    const range = [q.after, q.from ?? 0, q.until ?? NO_UNTIL, q.limit];
    // Pages in num order (the harvest order, src/store/oaiRecords.ts): the primary key, or the set's.
    const { rows } =
      q.set === undefined
        ? await this.db.query<RecordRow>(
            `SELECT ${columns(q.bodies)} WHERE r.num > $1 AND r.datestamp >= $2 AND r.datestamp <= $3 ORDER BY r.num LIMIT $4`,
            range,
          )
        : await this.db.query<RecordRow>(
            `SELECT ${columns(q.bodies).replace('FROM oai_records r', 'FROM oai_sets s JOIN oai_records r ON r.num = s.num')}
             WHERE s.spec = $1 AND s.num > $2 AND r.datestamp >= $3 AND r.datestamp <= $4 ORDER BY s.num LIMIT $5`,
            [q.set, ...range],
          );
    return rows.map((r) => toRecord(r, q.bodies));
  }

  async getOaiRecord(id: string, body: boolean): Promise<OaiRecord | undefined> {
    const { rows } = await this.db.query<RecordRow>(`SELECT ${columns(body)} WHERE r.id = $1`, [id]);
    return rows[0] === undefined ? undefined : toRecord(rows[0], body);
  }

  async oaiSetExists(spec: string): Promise<boolean> {
    return ((await this.db.query('SELECT 1 FROM oai_sets WHERE spec = $1 LIMIT 1', [spec])).rowCount ?? 0) > 0;
  }

  async listOaiSets(after: string | null, limit: number): Promise<OaiSetEntry[]> {
    // The distinct specs one index seek each (a loose index scan), with their names.
    const { rows } = await this.db.query<{ spec: string }>(
      `WITH RECURSIVE specs(spec, n) AS (
         (SELECT spec, 1 FROM oai_sets WHERE spec > $1 ORDER BY spec LIMIT 1)
         UNION ALL
         SELECT (SELECT o.spec FROM oai_sets o WHERE o.spec > specs.spec ORDER BY o.spec LIMIT 1), n + 1 FROM specs
         WHERE specs.spec IS NOT NULL AND n < $2
       )
       SELECT spec FROM specs WHERE spec IS NOT NULL ORDER BY spec`,
      [after ?? '', limit],
    );
    const out: OaiSetEntry[] = [];
    for (const { spec } of rows) out.push({ spec, name: await this.setName(spec) });
    return out;
  }

  async countOaiRecords(): Promise<number> {
    return Number((await this.db.query<{ n: string }>('SELECT count(*) AS n FROM oai_records')).rows[0]!.n);
  }

  async listOaiActivity(offset: number, limit: number): Promise<OaiActivity[]> {
    const { rows } = await this.db.query<{ id: string; datestamp: string | number; created: string | number; deleted: boolean }>(
      'SELECT id, datestamp, coalesce(created, datestamp) AS created, deleted FROM oai_records ORDER BY datestamp, num LIMIT $1 OFFSET $2',
      [limit, offset],
    );
    return rows.map((r) => ({ id: r.id, datestamp: Number(r.datestamp), created: Number(r.created), deleted: r.deleted }));
  }

  async listNewestOaiRecords(limit: number): Promise<OaiActivity[]> {
    const { rows } = await this.db.query<{ id: string; datestamp: string | number; created: string | number }>(
      'SELECT id, datestamp, coalesce(created, datestamp) AS created FROM oai_records WHERE NOT deleted ORDER BY datestamp DESC, num DESC LIMIT $1',
      [limit],
    );
    return rows.map((r) => ({ id: r.id, datestamp: Number(r.datestamp), created: Number(r.created), deleted: false }));
  }

  async oaiEarliestDatestamp(): Promise<number | null> {
    return (await this.db.query<{ min: number | null }>('SELECT min(datestamp) AS min FROM oai_records')).rows[0]!.min;
  }

  async oaiTokenSecret(): Promise<string> {
    return (await this.db.query<{ value: string }>('SELECT value FROM oai_secret')).rows[0]!.value;
  }

  private async setName(spec: string): Promise<string | null> {
    const parsed = parseSetSpec(spec);
    if (parsed?.kind === 'provider')
      return (await this.db.query<{ name: string }>('SELECT name FROM providers WHERE key = $1', [parsed.value])).rows[0]?.name ?? null;
    if (parsed?.kind === 'collection')
      return (await this.db.query<{ label: string }>('SELECT label FROM items WHERE id = $1', [parsed.value])).rows[0]?.label ?? null;
    return null;
  }
}
