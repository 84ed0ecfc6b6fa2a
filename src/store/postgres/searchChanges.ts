/**
 * The search engine's change feed on PostgreSQL (docs/search-engine.md "The store's change
 * feed"; docs/deployment.md "Several API nodes"):
 * the behaviour and the positions of src/store/sqlite/searchChanges.ts (read that first),
 * over the change logs of schema.ts, filled by triggers.
 *
 * What differs from SQLite: PostgreSQL hands out sequence numbers when a row is
 * inserted, not when its transaction commits, so a reader could read through number 11
 * while number 10 is still uncommitted, and miss it. The triggers therefore take a
 * transaction-scoped advisory lock (schema.ts SEARCH_LOG_LOCK) before appending, held to
 * the commit: writers append one after another and the numbers follow the commits. Each
 * read is one REPEATABLE READ snapshot, as SQLite's one read transaction.
 */
import type pg from 'pg';
import type { SearchChange, SearchChangeBatch, SearchKind, SearchRescan } from '../../domain/searchFeed.js';
import { withCount, withGenderAndCount } from '../../formats/entityDoc.js';
import { decodeBody } from '../bodyCodec.js';
import { transaction, type Queryable } from './db.js';
import { SEARCH_LOG_LOCK } from './schema.js';

/** The smallest log kept per kind: an idle reader may fall this many changes behind (as on SQLite). */
export const SEARCH_CHANGES_KEPT = 100_000;

interface KindSql {
  log: string;
  rows: string;
  /** The bodies of the given ids, as [id, body] rows; a missing or blocked one absent. */
  bodies: string;
  /** What a search answer shows of the given ids (readSearchBodies), as [id, …] rows. */
  shown: string;
  scan: string;
}

const KINDS: Record<SearchKind, KindSql> = {
  item: {
    log: 'search_item_changes',
    rows: 'items',
    // A blocked item is not searchable (GET /items/{id} serves it as blocked, not its body).
    bodies: `SELECT i.id, j.body FROM items i JOIN item_json j ON j.item = i.num
             WHERE i.id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)`,
    // What a search answer shows: the stored fields (schema.ts migration 2).
    shown: `SELECT i.id, f.doc FROM items i JOIN item_fields f ON f.item = i.num
            WHERE i.id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)`,
    scan: `SELECT i.num AS row, i.id, j.body FROM items i JOIN item_json j ON j.item = i.num
           WHERE i.num > $1 AND NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)
           ORDER BY i.num LIMIT $2`,
  },
  person: {
    log: 'search_person_changes',
    rows: 'persons',
    bodies: 'SELECT id, doc, gender, item_count FROM persons WHERE id = ANY($1::text[])',
    shown: 'SELECT id, doc, gender, item_count FROM persons WHERE id = ANY($1::text[])',
    scan: 'SELECT num AS row, id, doc, gender, item_count FROM persons WHERE num > $1 ORDER BY num LIMIT $2',
  },
};

interface BodyRow {
  row?: number;
  id: string;
  body?: Buffer;
  doc?: string;
  gender?: string;
  item_count?: number;
}

/**
 * What the feed hands over: an item's JSON (stored compressed: src/store/bodyCodec.ts), a
 * person's document with its gender and count (src/formats/entityDoc.ts).
 */
const bodyOf = (kind: SearchKind, r: BodyRow): string =>
  kind === 'item' ? decodeBody(r.body!).toString('utf8') : withGenderAndCount(r.doc!, r.gender!, r.item_count!);

/** What a search answer shows of a hit (readSearchBodies): an item's stored fields, a person as GET /entities shows it, without its gender. */
const shownOf = (kind: SearchKind, r: BodyRow): string => (kind === 'item' ? r.doc! : withCount(r.doc!, r.item_count!));

const RESCAN: SearchRescan = { rescan: true };

type Position = { scan: false; seq: number } | { scan: true; seq: number; row: number };

function checkKind(kind: SearchKind): void {
  if (kind !== 'item' && kind !== 'person') throw new RangeError(`unknown search kind ${String(kind)}`);
}

async function maxOf(db: Queryable, sql: string): Promise<number> {
  return (await db.query<{ n: number }>(sql)).rows[0]!.n;
}

/** Drops what a full scan would replace (as on SQLite); called inside each write transaction. */
export async function pruneSearchChanges(db: Queryable, minimumKept: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1)', [SEARCH_LOG_LOCK]);
  for (const [kind, k] of Object.entries(KINDS)) {
    const maxSeq = await maxOf(db, `SELECT coalesce(max(seq), 0) AS n FROM ${k.log}`);
    const maxRow = await maxOf(db, `SELECT coalesce(max(num), 0) AS n FROM ${k.rows}`);
    const cut = maxSeq - Math.max(minimumKept, maxRow);
    const pruned = (await db.query<{ through: number }>('SELECT through FROM search_changes_pruned WHERE kind = $1', [kind])).rows[0]!
      .through;
    if (cut > pruned && ((await db.query(`DELETE FROM ${k.log} WHERE seq <= $1`, [cut])).rowCount ?? 0) > 0) {
      await db.query('UPDATE search_changes_pruned SET through = greatest(through, $1) WHERE kind = $2', [cut, kind]);
    }
  }
}

export class PgSearchChanges {
  /**
   * `standby`: this pool reads a streaming replica (replication.ts). A reader that moves
   * to a replica from a server further on meets a position past the replica's log: that
   * is the replica not having replayed those changes yet, not another store's position,
   * so it is told "nothing new yet" rather than to scan everything again.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly standby = false,
  ) {}

  async readSearchChanges(kind: SearchKind, after: string | null, limit: number): Promise<SearchChangeBatch | SearchRescan> {
    checkKind(kind);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`);
    return transaction(this.pool, (db) => this.readIn(db, kind, after, limit), true);
  }

  /** The store's identity (schema.ts migration 3; Store.searchIdentity). */
  async identity(): Promise<string> {
    return (await this.pool.query<{ id: string }>('SELECT id FROM store_identity')).rows[0]!.id;
  }

  async readSearchBodies(kind: SearchKind, ids: readonly string[]): Promise<Array<string | null>> {
    checkKind(kind);
    const found = await this.bodies(this.pool, kind, ids, shownOf, 'shown');
    return ids.map((id) => found.get(id) ?? null);
  }

  private async bodies(
    db: Queryable,
    kind: SearchKind,
    ids: readonly string[],
    of = bodyOf,
    sql: 'bodies' | 'shown' = 'bodies',
  ): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { rows } = await db.query<BodyRow>(KINDS[kind][sql], [[...new Set(ids)]]);
    return new Map(rows.map((r) => [r.id, of(kind, r)]));
  }

  private async readIn(db: Queryable, kind: SearchKind, after: string | null, limit: number): Promise<SearchChangeBatch | SearchRescan> {
    const k = KINDS[kind];
    const maxSeq = await maxOf(db, `SELECT coalesce(max(seq), 0) AS n FROM ${k.log}`);
    const at = after === null ? { scan: true, seq: maxSeq, row: 0 } : parsePosition(kind, after);
    const pruned = (await db.query<{ through: number }>('SELECT through FROM search_changes_pruned WHERE kind = $1', [kind])).rows[0]!
      .through;
    if (at !== undefined && at.seq > maxSeq && this.standby && after !== null) return { changes: [], position: after, done: true };
    // Changes after at.seq were pruned, or the position is not of this store's log.
    if (at === undefined || at.seq < pruned || at.seq > maxSeq) return RESCAN;
    if (at.scan) {
      const rows = (await db.query<BodyRow>(k.scan, [at.row, limit])).rows;
      const changes: SearchChange[] = rows.map((r) => ({ id: r.id, body: bodyOf(kind, r) }));
      if (rows.length === limit) return { changes, position: `${kind}:scan:${at.seq}:${rows[rows.length - 1]!.row}`, done: false };
      return { changes, position: `${kind}:log:${at.seq}`, done: at.seq === maxSeq };
    }
    const rows = (
      await db.query<{ seq: number; id: string }>(`SELECT seq, id FROM ${k.log} WHERE seq > $1 ORDER BY seq LIMIT $2`, [at.seq, limit])
    ).rows;
    if (rows.length === 0) return { changes: [], position: `${kind}:log:${at.seq}`, done: true };
    // The last change of an id stands for all of them: the body read is the current one anyway.
    const lastOf = new Map<string, number>();
    rows.forEach((r, i) => lastOf.set(r.id, i));
    const bodies = await this.bodies(db, kind, [...lastOf.keys()]);
    const changes: SearchChange[] = [];
    rows.forEach((r, i) => {
      if (lastOf.get(r.id) === i) changes.push({ id: r.id, body: bodies.get(r.id) ?? null });
    });
    const last = rows[rows.length - 1]!.seq;
    return { changes, position: `${kind}:log:${last}`, done: rows.length < limit };
  }
}

const LOG = /^(item|person):log:(\d{1,15})$/;
const SCAN = /^(item|person):scan:(\d{1,15}):(\d{1,15})$/;

function parsePosition(kind: SearchKind, position: string): Position | undefined {
  const log = LOG.exec(position);
  if (log) return log[1] === kind ? { scan: false, seq: Number(log[2]) } : undefined;
  const scan = SCAN.exec(position);
  if (scan) return scan[1] === kind ? { scan: true, seq: Number(scan[2]), row: Number(scan[3]) } : undefined;
  return undefined;
}
