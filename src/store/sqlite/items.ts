/**
 * Items, hierarchy and blocking on SQLite.
 */
import type { Database, Statement } from 'better-sqlite3';
import type {
  Ancestry,
  HierarchyNode,
  ItemDocument,
  ItemFormat,
  ItemStore,
  PreparedItem,
  UpsertResult,
} from '../Store.js';
import { itemIdFromUri } from '../itemIds.js';
import type { SqliteItemRefs } from './persons.js';

/** A parent chain longer than this is treated as broken data (real hierarchies are ≤ 12 deep). */
const MAX_DEPTH = 1000;

interface NodeRow {
  id: string;
  cho_uri: string | null;
  parent_ref: string | null;
  label: string;
  hierarchy_type: string | null;
  position: string | null;
  aggregation_entity: number;
  leaf: number;
}

const NODE_COLUMNS = `id, cho_uri, parent_ref, label, hierarchy_type, position, aggregation_entity,
  NOT EXISTS (SELECT 1 FROM items c WHERE c.parent_ref = items.cho_uri) AS leaf`;

export class SqliteItems implements ItemStore {
  private readonly selectEtag: Statement<[string], { etag: string }>;
  private readonly insert: Statement;
  private readonly selectDoc: Record<ItemFormat, Statement<[string], { body: Buffer; etag: string; updated_at: number; reason: string | null }>>;
  private readonly nodeById: Statement<[string], NodeRow>;
  private readonly nodeByUri: Statement<[string], NodeRow>;
  private readonly parentOf: Statement<[string], { id: string; parent_ref: string | null }>;
  private readonly parentRefOf: Statement<[string], { parent_ref: string | null }>;
  private readonly exists: Statement<[string], { id: string }>;
  private readonly block: Statement;
  private readonly unblock: Statement;
  private readonly count: Statement<[], { n: number }>;
  private readonly upsertMany: (items: readonly PreparedItem[]) => UpsertResult;

  constructor(
    private readonly db: Database,
    refs: SqliteItemRefs,
    /** `countsChanged`: some person's count changed, so orderings by count are stale. */
    private readonly onChanged: (countsChanged: boolean) => void,
  ) {
    this.selectEtag = db.prepare('SELECT etag FROM items WHERE id = ?');
    this.insert = db.prepare(`
      INSERT INTO items (id, cho_uri, parent_ref, label, hierarchy_type, position, aggregation_entity, xml, json, etag, updated_at)
      VALUES (@id, @choUri, @parentRef, @label, @hierarchyType, @position, @aggregationEntity, @xml, @json, @etag, @updatedAt)
      ON CONFLICT (id) DO UPDATE SET
        cho_uri = excluded.cho_uri, parent_ref = excluded.parent_ref, label = excluded.label,
        hierarchy_type = excluded.hierarchy_type, position = excluded.position,
        aggregation_entity = excluded.aggregation_entity, xml = excluded.xml, json = excluded.json,
        etag = excluded.etag, updated_at = excluded.updated_at`);
    const doc = (column: ItemFormat) =>
      db.prepare<[string], { body: Buffer; etag: string; updated_at: number; reason: string | null }>(
        `SELECT i.${column} AS body, i.etag, i.updated_at, b.reason
         FROM items i LEFT JOIN blocked_items b ON b.id = i.id WHERE i.id = ?`,
      );
    this.selectDoc = { json: doc('json'), xml: doc('xml') };
    this.nodeById = db.prepare(`SELECT ${NODE_COLUMNS} FROM items WHERE id = ?`);
    this.nodeByUri = db.prepare(`SELECT ${NODE_COLUMNS} FROM items WHERE cho_uri = ? LIMIT 1`);
    this.parentOf = db.prepare('SELECT id, parent_ref FROM items WHERE cho_uri = ? LIMIT 1');
    this.parentRefOf = db.prepare('SELECT parent_ref FROM items WHERE id = ?');
    this.exists = db.prepare('SELECT id FROM items WHERE id = ?');
    this.block = db.prepare(
      `INSERT INTO blocked_items (id, reason, blocked_at) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET reason = excluded.reason, blocked_at = excluded.blocked_at`,
    );
    this.unblock = db.prepare('DELETE FROM blocked_items WHERE id = ?');
    this.count = db.prepare('SELECT count(*) AS n FROM items');
    this.upsertMany = db.transaction((items: readonly PreparedItem[]) => {
      const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
      const now = Date.now();
      const affected = new Set<string>();
      for (const item of items) {
        const old = this.selectEtag.get(item.id);
        // Same content again: leave the row (and its Last-Modified) as it is, so a re-run changes nothing.
        if (old?.etag === item.etag) {
          result.unchanged++;
          continue;
        }
        // Bodies are kept as bytes: a request then sends them without re-encoding.
        this.insert.run({
          ...item,
          xml: Buffer.from(item.xml, 'utf8'),
          json: Buffer.from(item.json, 'utf8'),
          aggregationEntity: item.aggregationEntity ? 1 : 0,
          updatedAt: now,
        });
        refs.replace(item.id, item.refs, affected);
        if (old) result.updated++;
        else result.inserted++;
      }
      const countsChanged = refs.recountAll(affected) > 0;
      if (result.inserted + result.updated > 0) onChanged(countsChanged);
      return result;
    });
  }

  upsertItems(items: readonly PreparedItem[]): UpsertResult {
    return this.upsertMany(items);
  }

  getItemDocument(id: string, format: ItemFormat): ItemDocument | undefined {
    const row = this.selectDoc[format].get(id);
    if (!row) return undefined;
    return { body: row.body, etag: row.etag, lastModified: new Date(row.updated_at), blockedReason: row.reason };
  }

  getAncestry(id: string): Ancestry | undefined {
    const first = this.nodeById.get(id);
    if (!first) return undefined;
    const nodes: HierarchyNode[] = [];
    const seen = new Set<string>();
    let row: NodeRow | undefined = first;
    let cycle = false;
    while (row && nodes.length < MAX_DEPTH) {
      seen.add(row.id);
      const parentRow: NodeRow | undefined = row.parent_ref === null ? undefined : this.nodeByUri.get(row.parent_ref);
      nodes.push(toNode(row, parentRow));
      if (parentRow && seen.has(parentRow.id)) {
        cycle = true;
        break;
      }
      row = parentRow;
    }
    // decisions.md "Hierarchy": an item with no parent gives an empty hierarchy.
    if (nodes.length === 1 && first.parent_ref === null) return { nodes: [], cycle };
    return { nodes, cycle };
  }

  findCycles(ids: readonly string[]): string[][] {
    const cycles: string[][] = [];
    const reported = new Set<string>();
    for (const id of ids) {
      if (reported.has(id)) continue;
      const path: string[] = [id];
      let current = this.parentRefOf.get(id)?.parent_ref ?? null;
      while (current !== null && path.length < MAX_DEPTH) {
        const parent = this.parentOf.get(current);
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


  blockItem(id: string, reason: string): boolean {
    if (!this.exists.get(id)) return false;
    this.block.run(id, reason, Date.now());
    this.onChanged(false);
    return true;
  }

  unblockItem(id: string): boolean {
    const changed = this.unblock.run(id).changes > 0;
    if (changed) this.onChanged(false);
    return changed;
  }

  countItems(): number {
    return this.count.get()!.n;
  }

}

function toNode(row: NodeRow, parentRow: NodeRow | undefined): HierarchyNode {
  let parent: string | null = null;
  if (row.parent_ref !== null) parent = parentRow?.id ?? itemIdFromUri(row.parent_ref) ?? row.parent_ref;
  return {
    id: row.id,
    parent,
    label: row.label,
    type: row.hierarchy_type ?? '',
    position: row.position ?? '-1',
    leaf: row.leaf === 1,
    aggregationEntity: row.aggregation_entity === 1,
  };
}
