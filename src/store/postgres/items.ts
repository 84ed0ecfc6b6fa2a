/**
 * Items, hierarchy, blocking and harvest state on PostgreSQL: the behaviour of
 * src/store/sqlite/items.ts, asynchronous. A write call is one transaction.
 */
import type pg from 'pg';
import type { ChangeResult, HarvestState, ItemChange, ItemDocument, ItemFormat, ItemHead, PreparedItem, UpsertResult } from '../Store.js';
import type { Ancestry, HierarchyNode } from '../../domain/hierarchy.js';
import { DecodedBodies } from '../bodyCodec.js';
import { itemIdFromUri } from '../../domain/itemIds.js';
import { transaction, type Queryable } from './db.js';
import { PgItemRefs } from './persons.js';
import { upsertItemRun } from './itemUpserts.js';
import { pruneSearchChanges } from './searchChanges.js';
import { refreshOaiRecords } from './oaiRecords.js';
import { sequencePosition } from './sequence.js';

/** Decoded package bodies kept, as on SQLite (src/store/sqlite/items.ts DECODED_BODIES_BYTES). */
export const DECODED_BODIES_BYTES = 32 * 1024 * 1024;

/** A parent chain longer than this is treated as broken data (real hierarchies are ≤ 12 deep). */
const MAX_DEPTH = 1000;

interface NodeRow {
  id: string;
  cho_uri: string | null;
  parent_ref: string | null;
  label: string;
  hierarchy_type: string | null;
  position: string | null;
  previous_ref: string | null;
  aggregation_entity: boolean;
  leaf: boolean;
}

interface HeadRow {
  etag: string;
  updated_at: number;
  reason: string | null;
}

const NODE_COLUMNS = `id, cho_uri, parent_ref, label, hierarchy_type, position, previous_ref, aggregation_entity,
  NOT EXISTS (SELECT 1 FROM items c WHERE c.parent_ref = items.cho_uri) AS leaf`;

const SELECT_DOC: Record<ItemFormat, string> = {
  json: `SELECT d.body, i.etag, i.updated_at, b.reason
         FROM items i JOIN item_json d ON d.item = i.num LEFT JOIN blocked_items b ON b.id = i.id WHERE i.id = $1`,
  xml: `SELECT d.body, i.etag, i.updated_at, b.reason
        FROM items i JOIN item_xml d ON d.item = i.num LEFT JOIN blocked_items b ON b.id = i.id WHERE i.id = $1`,
};

const SAVE_HARVEST = `
  INSERT INTO harvest_state (source, high_water, resumption_token, run_from, run_started, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (source) DO UPDATE SET
    high_water = excluded.high_water, resumption_token = excluded.resumption_token,
    run_from = excluded.run_from, run_started = excluded.run_started, updated_at = excluded.updated_at`;

export class PgItems {
  private readonly refs = new PgItemRefs();
  constructor(
    private readonly pool: pg.Pool,
    private readonly searchChangesKept: number,
    /** Shared by the primary's and the replicas' items (replication.ts): a body decodes alike from any. */
    private readonly decoded = new DecodedBodies(DECODED_BODIES_BYTES),
  ) {}

  async applyItemChanges(changes: readonly ItemChange[], harvest?: { source: string; state: HarvestState }): Promise<ChangeResult> {
    return transaction(this.pool, async (db) => {
      const result: ChangeResult = { inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
      const now = Date.now();
      const affected = new Set<string>();
      // Runs of upserts are written many at a time (itemUpserts.ts); a run ends at a deletion, or
      // where an id comes again, so that each change still sees the ones before it.
      for (let i = 0; i < changes.length;) {
        const change = changes[i]!;
        if (change.kind === 'delete') {
          result.deleted += await this.deleteSource(db, change.sourceId, affected);
          i++;
          continue;
        }
        const run: PreparedItem[] = [];
        const ids = new Set<string>();
        for (let c = changes[i]; c?.kind === 'upsert' && !ids.has(c.item.id); c = changes[++i]) {
          run.push(c.item);
          ids.add(c.item.id);
        }
        await upsertItemRun(db, run, now, affected, result);
      }
      if (harvest) {
        const s = harvest.state;
        await db.query(SAVE_HARVEST, [harvest.source, s.highWater, s.resumptionToken, s.runFrom, s.runStarted, now]);
      }
      await this.refs.recountAll(db, affected);
      await pruneSearchChanges(db, this.searchChangesKept);
      // Last, so that the datestamps are taken as near the commit as can be (docs/oai-pmh.md).
      await refreshOaiRecords(db);
      return result;
    });
  }

  async upsertItems(items: readonly PreparedItem[]): Promise<UpsertResult> {
    const { deleted: _, ...result } = await this.applyItemChanges(items.map((item) => ({ kind: 'upsert', item })));
    return result;
  }

  /** Removes the items a source deleted: by its identifier, else (loaded from a file) by the ProvidedCHO URI. */
  private async deleteSource(db: Queryable, sourceId: string, affected: Set<string>): Promise<number> {
    let { rows } = await db.query<{ id: string }>('SELECT id FROM items WHERE source_id = $1', [sourceId]);
    if (rows.length === 0) rows = (await db.query<{ id: string }>('SELECT id FROM items WHERE cho_uri = $1', [sourceId])).rows;
    for (const { id } of rows) {
      await db.query('DELETE FROM items WHERE id = $1', [id]);
      await this.refs.replace(db, id, [], affected);
    }
    return rows.length;
  }

  async getHarvestState(source: string): Promise<HarvestState | undefined> {
    const { rows } = await this.pool.query<{
      high_water: string | null;
      resumption_token: string | null;
      run_from: string | null;
      run_started: string | null;
    }>('SELECT high_water, resumption_token, run_from, run_started FROM harvest_state WHERE source = $1', [source]);
    const row = rows[0];
    return row && { highWater: row.high_water, resumptionToken: row.resumption_token, runFrom: row.run_from, runStarted: row.run_started };
  }

  async getItemDocument(id: string, format: ItemFormat): Promise<ItemDocument | undefined> {
    const row = (await this.pool.query<HeadRow & { body: Buffer }>(SELECT_DOC[format], [id])).rows[0];
    if (!row) return undefined;
    const stored = row.body;
    const key = row.etag + (format === 'json' ? 'j' : 'x');
    const decoded = this.decoded;
    // Decoded when asked for: a br answer is the stored bytes, and needs no decoding.
    return {
      ...head(row),
      get body() {
        return decoded.decode(key, stored);
      },
      brotli: stored,
    };
  }

  async getItemHead(id: string): Promise<ItemHead | undefined> {
    const { rows } = await this.pool.query<HeadRow>(
      'SELECT i.etag, i.updated_at, b.reason FROM items i LEFT JOIN blocked_items b ON b.id = i.id WHERE i.id = $1',
      [id],
    );
    return rows[0] && head(rows[0]);
  }

  async getAncestry(id: string): Promise<Ancestry | undefined> {
    const db = this.pool;
    const first = (await db.query<NodeRow>(`SELECT ${NODE_COLUMNS} FROM items WHERE id = $1`, [id])).rows[0];
    if (!first) return undefined;
    const nodes: HierarchyNode[] = [];
    const seen = new Set<string>();
    let row: NodeRow | undefined = first;
    let cycle = false;
    while (row && nodes.length < MAX_DEPTH) {
      seen.add(row.id);
      const parentRow: NodeRow | undefined =
        row.parent_ref === null
          ? undefined
          : (await db.query<NodeRow>(`SELECT ${NODE_COLUMNS} FROM items WHERE cho_uri = $1 ORDER BY num LIMIT 1`, [row.parent_ref]))
              .rows[0];
      nodes.push(toNode(row, parentRow, await sequencePosition(db, row)));
      if (parentRow && seen.has(parentRow.id)) {
        cycle = true;
        break;
      }
      row = parentRow;
    }
    // docs/decisions.md "Hierarchy": an item with no parent gives an empty hierarchy.
    if (nodes.length === 1 && first.parent_ref === null) return { nodes: [], cycle };
    return { nodes, cycle };
  }

  async findCycles(ids: readonly string[]): Promise<string[][]> {
    // A load asks about every item it gave a parent (ingestItems.ts): the chains are read a
    // level at a time for all of them (one round trip a level, not one an item), then walked here as
    // src/store/sqlite/items.ts walks them one lookup at a time.
    const parentRefOf = new Map<string, string | null>();
    for (let i = 0; i < ids.length; i += 10_000) {
      const { rows } = await this.pool.query<{ id: string; parent_ref: string | null }>(
        'SELECT id, parent_ref FROM items WHERE id = ANY($1::text[])',
        [ids.slice(i, i + 10_000)],
      );
      for (const r of rows) parentRefOf.set(r.id, r.parent_ref);
    }
    // ProvidedCHO URI -> the first item (by num) that has it, null for none.
    const byUri = new Map<string, { id: string; parent_ref: string | null } | null>();
    let frontier = new Set<string>();
    for (const ref of parentRefOf.values()) if (ref !== null) frontier.add(ref);
    for (let level = 0; frontier.size > 0 && level < MAX_DEPTH; level++) {
      const uris = [...frontier];
      frontier = new Set();
      for (let i = 0; i < uris.length; i += 10_000) {
        const chunk = uris.slice(i, i + 10_000);
        const { rows } = await this.pool.query<{ cho_uri: string; id: string; parent_ref: string | null }>(
          'SELECT DISTINCT ON (cho_uri) cho_uri, id, parent_ref FROM items WHERE cho_uri = ANY($1::text[]) ORDER BY cho_uri, num',
          [chunk],
        );
        for (const uri of chunk) byUri.set(uri, null);
        for (const r of rows) byUri.set(r.cho_uri, { id: r.id, parent_ref: r.parent_ref });
      }
      for (const uri of uris) {
        const next = byUri.get(uri)?.parent_ref ?? null;
        if (next !== null && !byUri.has(next)) frontier.add(next);
      }
    }
    const cycles: string[][] = [];
    const reported = new Set<string>();
    for (const id of ids) {
      if (reported.has(id)) continue;
      const path: string[] = [id];
      let current = parentRefOf.get(id) ?? null;
      while (current !== null && path.length < MAX_DEPTH) {
        const parent = byUri.get(current);
        if (!parent) break;
        const at = path.indexOf(parent.id);
        if (at >= 0) {
          const loop = path.slice(at);
          if (!loop.some((x) => reported.has(x))) cycles.push([...loop, parent.id]);
          loop.forEach((x) => reported.add(x));
          break;
        }
        path.push(parent.id);
        current = parent.parent_ref;
      }
    }
    return cycles;
  }

  async blockItem(id: string, reason: string): Promise<boolean> {
    return transaction(this.pool, async (db) => {
      if ((await db.query('SELECT 1 FROM items WHERE id = $1', [id])).rowCount === 0) return false;
      await db.query(
        `INSERT INTO blocked_items (id, reason, blocked_at) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET reason = excluded.reason, blocked_at = excluded.blocked_at`,
        [id, reason, Date.now()],
      );
      await pruneSearchChanges(db, this.searchChangesKept);
      await refreshOaiRecords(db);
      return true;
    });
  }

  async unblockItem(id: string): Promise<boolean> {
    return transaction(this.pool, async (db) => {
      const changed = ((await db.query('DELETE FROM blocked_items WHERE id = $1', [id])).rowCount ?? 0) > 0;
      if (changed) {
        await pruneSearchChanges(db, this.searchChangesKept);
        await refreshOaiRecords(db);
      }
      return changed;
    });
  }

  async countItems(): Promise<number> {
    return (await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM items')).rows[0]!.n;
  }

  async listItemIds({ after, limit }: { after?: string | undefined; limit: number }): Promise<string[]> {
    // '' sorts before every id (ids are never empty); the "C" collation gives code point order.
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM items WHERE id > $1 ORDER BY id LIMIT $2', [after ?? '', limit]);
    return rows.map((r) => r.id);
  }
}

function head(row: HeadRow): ItemHead {
  return { etag: row.etag, lastModified: new Date(row.updated_at), blockedReason: row.reason };
}

function toNode(row: NodeRow, parentRow: NodeRow | undefined, position: string | null): HierarchyNode {
  let parent: string | null = null;
  if (row.parent_ref !== null) parent = parentRow?.id ?? itemIdFromUri(row.parent_ref) ?? row.parent_ref;
  return {
    id: row.id,
    parent,
    label: row.label,
    type: row.hierarchy_type ?? '',
    position: position ?? '-1',
    leaf: row.leaf,
    aggregationEntity: row.aggregation_entity,
  };
}
