/**
 * The search engine's change feed on SQLite (docs/search-engine.md "The store's change feed"): reading the change logs
 * of schema migration 8 and keeping them bounded. The logs are filled by triggers, so any
 * writer feeds them; this file knows no search schema, only which rows a kind is made of.
 *
 * Positions (opaque to callers): `<kind>:log:<seq>` = every change through seq has been
 * read; `<kind>:scan:<seq>:<row>` = a full scan that began when the log stood at seq has
 * read the rows through row number `row`.
 *
 * Pruning: after each write, the log of a kind keeps its newest max(`minimumKept`, highest
 * row number of the kind's table) entries. A reader further behind would replay more
 * changes than a full scan reads rows, so it is told to rescan (SearchRescan) instead:
 * its position is before the highest pruned seq (kept in search_changes_pruned).
 */
import type { Database, Statement } from 'better-sqlite3';
import type { SearchChange, SearchChangeBatch, SearchKind, SearchRescan } from '../../domain/searchFeed.js';
import { withCount, withGenderAndCount } from '../../formats/entityDoc.js';
import { decodeBody } from '../bodyCodec.js';

/** The smallest log kept per kind: an idle reader may fall this many changes behind. */
export const SEARCH_CHANGES_KEPT = 100_000;

interface KindStatements {
  maxSeq: Statement<[], number>;
  pruned: Statement<[], number>;
  after: Statement<[number, number], { seq: number; id: string }>;
  /** What the feed hands over. */
  body: (id: string) => string | null;
  /** What a search answer shows (readSearchBodies). */
  shown: (id: string) => string | null;
  scan: (afterRow: number, limit: number) => Array<{ row: number; id: string; body: string }>;
  maxRow: Statement<[], number>;
  prune: Statement<[number]>;
  setPruned: Statement<[number]>;
}

const RESCAN: SearchRescan = { rescan: true };

type Position = { scan: false; seq: number } | { scan: true; seq: number; row: number };

export class SqliteSearchChanges {
  private readonly kinds: Record<SearchKind, KindStatements>;
  private readonly read: (kind: SearchKind, after: string | null, limit: number) => SearchChangeBatch | SearchRescan;
  private readonly identityOf: Statement<[], string>;

  constructor(
    db: Database,
    private readonly minimumKept = SEARCH_CHANGES_KEPT,
  ) {
    if (!(minimumKept >= 1)) throw new RangeError('minimumKept must be at least 1: the newest change keeps the numbering going');
    const common = (table: string, kind: SearchKind, rowTable: string, rowColumn: string) => ({
      maxSeq: db.prepare<[], number>(`SELECT coalesce(max(seq), 0) FROM ${table}`).pluck(),
      pruned: db.prepare<[], number>(`SELECT through FROM search_changes_pruned WHERE kind = '${kind}'`).pluck(),
      after: db.prepare<[number, number], { seq: number; id: string }>(`SELECT seq, id FROM ${table} WHERE seq > ? ORDER BY seq LIMIT ?`),
      maxRow: db.prepare<[], number>(`SELECT coalesce(max(${rowColumn}), 0) FROM ${rowTable}`).pluck(),
      prune: db.prepare<[number]>(`DELETE FROM ${table} WHERE seq <= ?`),
      setPruned: db.prepare<[number]>(`UPDATE search_changes_pruned SET through = max(through, ?) WHERE kind = '${kind}'`),
    });
    // A blocked item is not searchable (GET /items/{id} serves it as blocked, not its body).
    // Bodies are stored compressed (bodyCodec.ts).
    const itemBodyStored = db
      .prepare<[string], Buffer>(
        `SELECT j.body FROM items i JOIN item_json j ON j.item = i.num
         WHERE i.id = ? AND NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)`,
      )
      .pluck();
    const itemBody = (id: string): string | null => {
      const stored = itemBodyStored.get(id);
      return stored === undefined ? null : decodeBody(stored).toString('utf8');
    };
    // What a search answer shows of an item: its stored fields (schema migration 11).
    const itemShown = db
      .prepare<[string], string>(
        `SELECT f.doc FROM items i JOIN item_fields f ON f.item = i.num
         WHERE i.id = ? AND NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)`,
      )
      .pluck();
    const itemScan = db.prepare<[number, number], { row: number; id: string; body: Buffer }>(
      `SELECT i.num AS row, i.id, j.body FROM items i JOIN item_json j ON j.item = i.num
       WHERE i.num > ? AND NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)
       ORDER BY i.num LIMIT ?`,
    );
    const personBody = db.prepare<[string], { doc: string; gender: string; item_count: number }>(
      'SELECT doc, gender, item_count FROM persons WHERE id = ?',
    );
    const personScan = db.prepare<[number, number], { row: number; id: string; doc: string; gender: string; item_count: number }>(
      'SELECT rowid AS row, id, doc, gender, item_count FROM persons WHERE rowid > ? ORDER BY rowid LIMIT ?',
    );
    this.kinds = {
      item: {
        ...common('search_item_changes', 'item', 'items', 'num'),
        body: itemBody,
        shown: (id) => itemShown.get(id) ?? null,
        scan: (afterRow, limit) =>
          itemScan.all(afterRow, limit).map((r) => ({ row: r.row, id: r.id, body: decodeBody(r.body).toString('utf8') })),
      },
      person: {
        ...common('search_person_changes', 'person', 'persons', 'rowid'),
        body: (id) => {
          const r = personBody.get(id);
          return r ? withGenderAndCount(r.doc, r.gender, r.item_count) : null;
        },
        shown: (id) => {
          const r = personBody.get(id);
          return r ? withCount(r.doc, r.item_count) : null;
        },
        scan: (afterRow, limit) =>
          personScan.all(afterRow, limit).map((r) => ({ row: r.row, id: r.id, body: withGenderAndCount(r.doc, r.gender, r.item_count) })),
      },
    };
    this.identityOf = db.prepare<[], string>('SELECT id FROM store_identity').pluck();
    // One read transaction: the log, the bodies and the pruned mark are of one snapshot.
    this.read = db.transaction((kind: SearchKind, after: string | null, limit: number) => this.readIn(kind, after, limit));
  }

  readSearchChanges(kind: SearchKind, after: string | null, limit: number): SearchChangeBatch | SearchRescan {
    if (kind !== 'item' && kind !== 'person') throw new RangeError(`unknown search kind ${String(kind)}`);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`);
    return this.read(kind, after, limit);
  }

  /** The store's identity (schema.ts migration 12; Store.searchIdentity). */
  identity(): string {
    return this.identityOf.get()!;
  }

  readSearchBodies(kind: SearchKind, ids: readonly string[]): Array<string | null> {
    if (kind !== 'item' && kind !== 'person') throw new RangeError(`unknown search kind ${String(kind)}`);
    const k = this.kinds[kind];
    return ids.map((id) => k.shown(id));
  }

  /** Drops what a full scan would replace; called inside each write transaction. */
  prune(): void {
    for (const k of Object.values(this.kinds)) {
      const cut = k.maxSeq.get()! - Math.max(this.minimumKept, k.maxRow.get()!);
      if (cut > k.pruned.get()! && k.prune.run(cut).changes > 0) k.setPruned.run(cut);
    }
  }

  private readIn(kind: SearchKind, after: string | null, limit: number): SearchChangeBatch | SearchRescan {
    const k = this.kinds[kind];
    const maxSeq = k.maxSeq.get()!;
    const at = after === null ? { scan: true, seq: maxSeq, row: 0 } : parsePosition(kind, after);
    // Changes after at.seq were pruned, or the position is not of this store's log.
    if (at === undefined || at.seq < k.pruned.get()! || at.seq > maxSeq) return RESCAN;
    if (at.scan) {
      const rows = k.scan(at.row, limit);
      const changes: SearchChange[] = rows.map((r) => ({ id: r.id, body: r.body }));
      if (rows.length === limit) return { changes, position: `${kind}:scan:${at.seq}:${rows[rows.length - 1]!.row}`, done: false };
      return { changes, position: `${kind}:log:${at.seq}`, done: at.seq === maxSeq };
    }
    const rows = k.after.all(at.seq, limit);
    if (rows.length === 0) return { changes: [], position: `${kind}:log:${at.seq}`, done: true };
    // The last change of an id stands for all of them: the body read is the current one anyway.
    const lastOf = new Map<string, number>();
    rows.forEach((r, i) => lastOf.set(r.id, i));
    const changes: SearchChange[] = [];
    rows.forEach((r, i) => {
      if (lastOf.get(r.id) === i) changes.push({ id: r.id, body: k.body(r.id) });
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
