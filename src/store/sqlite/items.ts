/**
 * Items, hierarchy and blocking on SQLite.
 */
import type { Database, Statement } from 'better-sqlite3';
import type {
  ChangeResult,
  HarvestState,
  ItemChange,
  ItemDocument,
  ItemFormat,
  ItemHead,
  ItemStore,
  PreparedItem,
  UpsertResult,
} from '../Store.js';
import type { Ancestry, HierarchyNode } from '../../domain/hierarchy.js';
import { itemIdFromUri } from '../../domain/itemIds.js';
import { DecodedBodies, encodeBody } from '../bodyCodec.js';
import { itemStoredFieldsJson } from '../../formats/itemFields.js';
import type { SqliteItemRefs } from './persons.js';
import type { SqliteProviders } from './providers.js';
import type { Sync } from './sync.js';

/** A parent chain longer than this is treated as broken data (real hierarchies are ≤ 12 deep). */
const MAX_DEPTH = 1000;

/** A sequence (edm:isNextInSequence) longer than this is treated as broken data. */
const MAX_SEQUENCE = 100_000;

/**
 * Decoded package bodies kept (bodyCodec.ts): the JSON of 1,500 of the bench's packages, or both
 * forms of 650. Compressed bodies make SQLite's own page cache hold 7 times more packages.
 */
export const DECODED_BODIES_BYTES = 32 * 1024 * 1024;

interface NodeRow {
  id: string;
  cho_uri: string | null;
  parent_ref: string | null;
  label: string;
  hierarchy_type: string | null;
  position: string | null;
  previous_ref: string | null;
  aggregation_entity: number;
  leaf: number;
}

interface OldRow {
  etag: string;
  source_digest: string | null;
  source_id: string | null;
}

interface HeadRow {
  etag: string;
  updated_at: number;
  reason: string | null;
}

interface HarvestRow {
  high_water: string | null;
  resumption_token: string | null;
  run_from: string | null;
  run_started: string | null;
}

const NODE_COLUMNS = `id, cho_uri, parent_ref, label, hierarchy_type, position, previous_ref, aggregation_entity,
  NOT EXISTS (SELECT 1 FROM items c WHERE c.parent_ref = items.cho_uri) AS leaf`;

// getChildren is ./children.ts's, listProviders ./providers.ts's.
export class SqliteItems implements Sync<Omit<ItemStore, 'getChildren' | 'listProviders'>> {
  private readonly selectOld: Statement<[string], OldRow>;
  private readonly insert: Statement;
  private readonly setSource: Statement<[string, string]>;
  private readonly idsBySource: Statement<[string], { id: string }>;
  private readonly idsByChoUri: Statement<[string], { id: string }>;
  private readonly remove: Statement<[string]>;
  private readonly previousOf: Statement<[string], { previous_ref: string | null }>;
  private readonly hasNext: Statement<[string], { id: string }>;
  private readonly selectHarvest: Statement<[string], HarvestRow>;
  private readonly saveHarvest: Statement;
  private readonly selectDoc: Record<ItemFormat, Statement<[string], HeadRow & { body: Buffer }>>;
  private readonly selectHead: Statement<[string], HeadRow>;
  private readonly putBody: Record<ItemFormat, Statement<[number, Buffer]>>;
  private readonly putFields: Statement<[number, string]>;
  private readonly nodeById: Statement<[string], NodeRow>;
  private readonly nodeByUri: Statement<[string], NodeRow>;
  private readonly parentOf: Statement<[string], { id: string; parent_ref: string | null }>;
  private readonly parentRefOf: Statement<[string], { parent_ref: string | null }>;
  private readonly exists: Statement<[string], { id: string }>;
  private readonly block: Statement;
  private readonly unblock: Statement;
  private readonly count: Statement<[], { n: number }>;
  private readonly idsAfter: Statement<[string, number], string>;
  /** Set when an unchanged item was linked to its institution in the current transaction. */
  private relinked = false;
  private readonly applyMany: (changes: readonly ItemChange[], harvest?: { source: string; state: HarvestState }) => ChangeResult;

  constructor(
    private readonly db: Database,
    private readonly refs: SqliteItemRefs,
    private readonly providers: SqliteProviders,
    /** `countsChanged`: some person's count changed, so orderings by count are stale. */
    private readonly onChanged: (countsChanged: boolean) => void,
    private readonly decoded = new DecodedBodies(DECODED_BODIES_BYTES),
  ) {
    this.selectOld = db.prepare('SELECT etag, source_digest, source_id FROM items WHERE id = ?');
    this.insert = db.prepare(`
      INSERT INTO items (id, cho_uri, parent_ref, label, hierarchy_type, position, previous_ref, aggregation_entity,
                         etag, source_id, source_digest, updated_at)
      VALUES (@id, @choUri, @parentRef, @label, @hierarchyType, @position, @previousRef, @aggregationEntity,
              @etag, @sourceId, @sourceDigest, @updatedAt)
      ON CONFLICT (id) DO UPDATE SET
        cho_uri = excluded.cho_uri, parent_ref = excluded.parent_ref, label = excluded.label,
        hierarchy_type = excluded.hierarchy_type, position = excluded.position, previous_ref = excluded.previous_ref,
        aggregation_entity = excluded.aggregation_entity,
        etag = excluded.etag, source_id = coalesce(excluded.source_id, items.source_id),
        source_digest = excluded.source_digest, updated_at = excluded.updated_at
      RETURNING num`);
    const put = (table: string) =>
      db.prepare<[number, Buffer]>(`INSERT INTO ${table} (item, body) VALUES (?, ?) ON CONFLICT (item) DO UPDATE SET body = excluded.body`);
    this.putBody = { json: put('item_json'), xml: put('item_xml') };
    this.putFields = db.prepare('INSERT INTO item_fields (item, doc) VALUES (?, ?) ON CONFLICT (item) DO UPDATE SET doc = excluded.doc');
    this.setSource = db.prepare('UPDATE items SET source_id = ? WHERE id = ?');
    this.idsBySource = db.prepare('SELECT id FROM items WHERE source_id = ?');
    this.idsByChoUri = db.prepare('SELECT id FROM items WHERE cho_uri = ?');
    this.remove = db.prepare('DELETE FROM items WHERE id = ?');
    this.previousOf = db.prepare('SELECT previous_ref FROM items WHERE cho_uri = ? LIMIT 1');
    this.hasNext = db.prepare('SELECT id FROM items WHERE previous_ref = ? LIMIT 1');
    this.selectHarvest = db.prepare('SELECT high_water, resumption_token, run_from, run_started FROM harvest_state WHERE source = ?');
    this.saveHarvest = db.prepare(`
      INSERT INTO harvest_state (source, high_water, resumption_token, run_from, run_started, updated_at)
      VALUES (@source, @highWater, @resumptionToken, @runFrom, @runStarted, @updatedAt)
      ON CONFLICT (source) DO UPDATE SET
        high_water = excluded.high_water, resumption_token = excluded.resumption_token,
        run_from = excluded.run_from, run_started = excluded.run_started, updated_at = excluded.updated_at`);
    const doc = (table: string) =>
      db.prepare<[string], HeadRow & { body: Buffer }>(
        `SELECT d.body, i.etag, i.updated_at, b.reason
         FROM items i JOIN ${table} d ON d.item = i.num LEFT JOIN blocked_items b ON b.id = i.id WHERE i.id = ?`,
      );
    this.selectDoc = { json: doc('item_json'), xml: doc('item_xml') };
    this.selectHead = db.prepare(
      'SELECT i.etag, i.updated_at, b.reason FROM items i LEFT JOIN blocked_items b ON b.id = i.id WHERE i.id = ?',
    );
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
    // Kept by triggers (schema.ts migration 17), not counted: count(*) scans every row.
    this.count = db.prepare("SELECT n FROM row_counts WHERE name = 'items'");
    // '' sorts before every id (ids are never empty); the primary key gives the order.
    this.idsAfter = db.prepare<[string, number], string>('SELECT id FROM items WHERE id > ? ORDER BY id LIMIT ?').pluck();
    this.applyMany = db.transaction((changes: readonly ItemChange[], harvest?: { source: string; state: HarvestState }) => {
      const result: ChangeResult = { inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
      const now = Date.now();
      const affected = new Set<string>();
      for (const change of changes) {
        if (change.kind === 'delete') result.deleted += this.deleteSource(change.sourceId, affected);
        else this.upsertOne(change.item, now, affected, result);
      }
      if (harvest) this.saveHarvest.run({ source: harvest.source, ...harvest.state, updatedAt: now });
      const countsChanged = refs.recountAll(affected) > 0;
      if (result.inserted + result.updated + result.deleted > 0 || this.relinked) onChanged(countsChanged);
      this.relinked = false;
      return result;
    });
  }

  private upsertOne(item: PreparedItem, now: number, affected: Set<string>, result: UpsertResult): void {
    const old = this.selectOld.get(item.id);
    // Same content (or the same source, for packages built here) again: leave the row and its
    // Last-Modified as they are, so a re-run changes nothing.
    if (old && (old.etag === item.etag || (item.sourceDigest && old.source_digest === item.sourceDigest))) {
      if (item.sourceId && item.sourceId !== old.source_id) this.setSource.run(item.sourceId, item.id);
      // Loaded before the store kept institutions (migration 7): link it now, as the content is the same.
      if (item.providers?.length && !this.providers.isLinked(item.id)) {
        this.providers.replace(item.id, item.providers);
        this.relinked = true;
      }
      result.unchanged++;
      return;
    }
    const { num } = this.insert.get({
      ...item,
      sourceId: item.sourceId ?? null,
      sourceDigest: item.sourceDigest ?? null,
      aggregationEntity: item.aggregationEntity ? 1 : 0,
      updatedAt: now,
    }) as { num: number };
    // Bodies are kept compressed (bodyCodec.ts, schema migration 10).
    this.putBody.json.run(num, encodeBody(item.json));
    this.putBody.xml.run(num, encodeBody(item.xml));
    // What a search answer shows of it (schema migration 11).
    this.putFields.run(num, itemStoredFieldsJson(item.json, item.id));
    this.refs.replace(item.id, item.refs, affected);
    this.providers.replace(item.id, item.providers);
    if (old) result.updated++;
    else result.inserted++;
  }

  /**
   * Removes the items a source deleted. The source names them by its own
   * identifier; a record never stored with one (loaded from a file) is found by
   * its ProvidedCHO URI, which is what Europeana's OAI identifiers are.
   */
  private deleteSource(sourceId: string, affected: Set<string>): number {
    let rows = this.idsBySource.all(sourceId);
    if (rows.length === 0) rows = this.idsByChoUri.all(sourceId);
    for (const { id } of rows) {
      this.remove.run(id);
      this.refs.replace(id, [], affected);
    }
    return rows.length;
  }

  upsertItems(items: readonly PreparedItem[]): UpsertResult {
    const { deleted: _, ...result } = this.applyMany(items.map((item) => ({ kind: 'upsert', item })));
    return result;
  }

  applyItemChanges(changes: readonly ItemChange[], harvest?: { source: string; state: HarvestState }): ChangeResult {
    return this.applyMany(changes, harvest);
  }

  getHarvestState(source: string): HarvestState | undefined {
    const row = this.selectHarvest.get(source);
    if (!row) return undefined;
    return { highWater: row.high_water, resumptionToken: row.resumption_token, runFrom: row.run_from, runStarted: row.run_started };
  }

  getItemDocument(id: string, format: ItemFormat): ItemDocument | undefined {
    const row = this.selectDoc[format].get(id);
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

  getItemHead(id: string): ItemHead | undefined {
    const row = this.selectHead.get(id);
    return row && head(row);
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
      nodes.push(toNode(row, parentRow, this.sequencePosition(row)));
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

  listItemIds({ after, limit }: { after?: string | undefined; limit: number }): string[] {
    return this.idsAfter.all(after ?? '', limit);
  }

  /**
   * The position of an item without ddb:hierarchyPosition that takes part in an
   * edm:isNextInSequence chain: 1 + the number of siblings before it (docs/decisions.md
   * "Hierarchy").
   * null when it is in no sequence.
   */
  private sequencePosition(row: NodeRow): string | null {
    if (row.position !== null) return row.position;
    if (row.previous_ref === null) return row.cho_uri !== null && this.hasNext.get(row.cho_uri) ? '1' : null;
    const seen = new Set<string>([row.cho_uri ?? row.id]);
    let position = 1;
    let previous: string | null = row.previous_ref;
    while (previous !== null && !seen.has(previous) && position < MAX_SEQUENCE) {
      seen.add(previous);
      const before = this.previousOf.get(previous);
      // A sibling not in the store still counts: it is named, so it exists at the source.
      position++;
      if (!before) break;
      previous = before.previous_ref;
    }
    return String(position);
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
    leaf: row.leaf === 1,
    aggregationEntity: row.aggregation_entity === 1,
  };
}
