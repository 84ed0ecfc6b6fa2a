/**
 * A load's item upserts on PostgreSQL, a batch at a time, for load speed: the
 * statements of items.ts's row-by-row upsert, each run once for many items (arrays
 * through unnest, or many parameter rows), so that a batch of 500 packages is a few
 * dozen round trips rather than a few thousand. What ends up stored is what the
 * row-by-row upsert (and src/store/sqlite/items.ts) stores: the same rows, the same
 * identity numbers in the same order, the same search change log in the same order
 * (the JSON bodies are written in load order), and no statement at all where that
 * upsert wrote nothing (a statement fires the data_version triggers even on no rows).
 *
 * The ids of one call are distinct (items.ts splits a batch where an id comes again): a
 * multi-row ON CONFLICT DO UPDATE may not touch a row twice.
 */
import type { PreparedItem, UpsertResult } from '../Store.js';
import type { ProviderRecord } from '../../domain/institution.js';
import { encodeBody } from '../bodyCodec.js';
import { itemStoredFieldsJson } from '../../formats/itemFields.js';
import type { Queryable } from './db.js';

/** Items per statement: bounds one message (bodies are ~7 KB each) and stays far below 65,535 parameters. */
const ROWS_PER_STATEMENT = 250;

const UPSERT_ITEMS = `
  INSERT INTO items (id, cho_uri, parent_ref, label, hierarchy_type, position, previous_ref, aggregation_entity,
                     etag, source_id, source_digest, updated_at)
  SELECT id, cho_uri, parent_ref, label, hierarchy_type, position, previous_ref, aggregation_entity,
         etag, source_id, source_digest, $12::bigint
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[],
              $9::text[], $10::text[], $11::text[])
       WITH ORDINALITY AS t(id, cho_uri, parent_ref, label, hierarchy_type, position, previous_ref, aggregation_entity,
                            etag, source_id, source_digest, ord)
  ORDER BY ord
  ON CONFLICT (id) DO UPDATE SET
    cho_uri = excluded.cho_uri, parent_ref = excluded.parent_ref, label = excluded.label,
    hierarchy_type = excluded.hierarchy_type, position = excluded.position, previous_ref = excluded.previous_ref,
    aggregation_entity = excluded.aggregation_entity,
    etag = excluded.etag, source_id = coalesce(excluded.source_id, items.source_id),
    source_digest = excluded.source_digest, updated_at = excluded.updated_at
  RETURNING id, num`;

const BODY_TABLE = { json: 'item_json', xml: 'item_xml' } as const;

const UPSERT_PROVIDERS = `
  INSERT INTO providers (key, ddb_id, provider_id, parent_id, name, uri, sectors, latitude, longitude, state, logo)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::text[])
  ON CONFLICT (key) DO UPDATE SET
    ddb_id = excluded.ddb_id, provider_id = excluded.provider_id, parent_id = excluded.parent_id,
    name = excluded.name, uri = excluded.uri, sectors = excluded.sectors, latitude = excluded.latitude,
    longitude = excluded.longitude, state = excluded.state, logo = excluded.logo`;

function chunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** `INSERT INTO <table> (item, body) VALUES ($1, $2), …`: bytea as parameters, sent as bytes (pg passes a Buffer in binary). */
async function putBodies(db: Queryable, table: 'item_json' | 'item_xml', rows: ReadonlyArray<readonly [number, Buffer]>): Promise<void> {
  for (const chunk of chunks(rows)) {
    const values = chunk.map((_, i) => `($${2 * i + 1}::bigint, $${2 * i + 2}::bytea)`).join(', ');
    await db.query(
      `INSERT INTO ${table} (item, body) VALUES ${values} ON CONFLICT (item) DO UPDATE SET body = excluded.body`,
      chunk.flat(),
    );
  }
}

/**
 * Upserts `items` (distinct ids) in order, as items.ts upsertOne would one by one;
 * adds the URIs whose person counts may change to `affected`, and counts into `result`.
 */
export async function upsertItemRun(
  db: Queryable,
  items: readonly PreparedItem[],
  now: number,
  affected: Set<string>,
  result: UpsertResult,
): Promise<void> {
  const ids = items.map((i) => i.id);
  const old = new Map<string, { etag: string; source_digest: string | null; source_id: string | null }>();
  for (const chunk of chunks(ids, 5000)) {
    const { rows } = await db.query<{ id: string; etag: string; source_digest: string | null; source_id: string | null }>(
      'SELECT id, etag, source_digest, source_id FROM items WHERE id = ANY($1::text[])',
      [chunk],
    );
    for (const r of rows) old.set(r.id, r);
  }
  const same = (item: PreparedItem) => {
    const o = old.get(item.id);
    return o !== undefined && (o.etag === item.etag || (!!item.sourceDigest && o.source_digest === item.sourceDigest));
  };
  // Unchanged items with institutions are linked to them if they are not yet (loaded before the store kept them).
  const mayRelink = items.filter((i) => same(i) && (i.providers?.length ?? 0) > 0).map((i) => i.id);
  const linked = new Set<string>();
  if (mayRelink.length > 0) {
    const { rows } = await db.query<{ item_id: string }>('SELECT item_id FROM item_providers WHERE item_id = ANY($1::text[])', [mayRelink]);
    for (const r of rows) linked.add(r.item_id);
  }

  const sources: Array<[string, string]> = [];
  const changed: PreparedItem[] = [];
  // Each item's institutions as items.ts providers.replace writes them, in load order.
  const providerWrites: Array<{ id: string; providers: readonly ProviderRecord[] | undefined }> = [];
  for (const item of items) {
    if (same(item)) {
      const o = old.get(item.id)!;
      if (item.sourceId && item.sourceId !== o.source_id) sources.push([item.id, item.sourceId]);
      if (item.providers?.length && !linked.has(item.id)) providerWrites.push({ id: item.id, providers: item.providers });
      result.unchanged++;
      continue;
    }
    changed.push(item);
    providerWrites.push({ id: item.id, providers: item.providers });
    if (old.has(item.id)) result.updated++;
    else result.inserted++;
  }

  if (sources.length > 0) {
    await db.query('UPDATE items i SET source_id = u.source_id FROM unnest($1::text[], $2::text[]) AS u(id, source_id) WHERE i.id = u.id', [
      sources.map((s) => s[0]),
      sources.map((s) => s[1]),
    ]);
  }
  await writeChanged(db, changed, now, affected);
  await writeProviders(db, providerWrites);
}

async function writeChanged(db: Queryable, changed: readonly PreparedItem[], now: number, affected: Set<string>): Promise<void> {
  if (changed.length === 0) return;
  const numOf = new Map<string, number>();
  for (const chunk of chunks(changed)) {
    const column = <K extends keyof PreparedItem>(k: K) => chunk.map((i) => i[k] ?? null);
    const { rows } = await db.query<{ id: string; num: number }>(UPSERT_ITEMS, [
      column('id'),
      column('choUri'),
      column('parentRef'),
      column('label'),
      column('hierarchyType'),
      column('position'),
      column('previousRef'),
      column('aggregationEntity'),
      column('etag'),
      column('sourceId'),
      column('sourceDigest'),
      now,
    ]);
    for (const r of rows) numOf.set(r.id, r.num);
  }
  // Bodies are kept compressed, as on SQLite (src/store/bodyCodec.ts). The JSON bodies go in
  // load order: their trigger appends to the search change log (schema.ts).
  for (const format of ['json', 'xml'] as const) {
    await putBodies(
      db,
      BODY_TABLE[format],
      changed.map((i) => [numOf.get(i.id)!, encodeBody(i[format])] as const),
    );
  }
  // What a search answer shows of each (schema.ts migration 2; as src/store/sqlite/items.ts writes it).
  for (const chunk of chunks(changed)) {
    await db.query(
      `INSERT INTO item_fields (item, doc) SELECT * FROM unnest($1::bigint[], $2::text[])
       ON CONFLICT (item) DO UPDATE SET doc = excluded.doc`,
      [chunk.map((i) => numOf.get(i.id)!), chunk.map((i) => itemStoredFieldsJson(i.json, i.id))],
    );
  }
  // References (persons.ts PgItemRefs.replace, for many items).
  const ids = changed.map((i) => i.id);
  const { rows } = await db.query<{ uri: string }>('DELETE FROM item_refs WHERE item_id = ANY($1::text[]) RETURNING uri', [ids]);
  for (const { uri } of rows) affected.add(uri);
  const refUris: string[] = [];
  const refItems: string[] = [];
  for (const item of changed) {
    for (const uri of item.refs) {
      refUris.push(uri);
      refItems.push(item.id);
      affected.add(uri);
    }
  }
  for (let i = 0; i < refUris.length; i += 10_000) {
    await db.query(
      'INSERT INTO item_refs (uri, item_id) SELECT DISTINCT u, i FROM unnest($1::text[], $2::text[]) AS t(u, i) ON CONFLICT DO NOTHING',
      [refUris.slice(i, i + 10_000), refItems.slice(i, i + 10_000)],
    );
  }
}

/** providers.ts PgProviders.replace for many items: an institution written twice keeps its last record, as one by one. */
async function writeProviders(
  db: Queryable,
  writes: ReadonlyArray<{ id: string; providers: readonly ProviderRecord[] | undefined }>,
): Promise<void> {
  const last = new Map<string, ProviderRecord>();
  const unlink: string[] = [];
  const link: Array<[string, string]> = [];
  for (const { id, providers } of writes) {
    if (providers === undefined || providers.length === 0) {
      unlink.push(id);
      continue;
    }
    for (const p of providers) {
      last.delete(p.key);
      last.set(p.key, p);
    }
    link.push([id, providers[0]!.key]);
  }
  const records = [...last.values()];
  for (const chunk of chunks(records, 5000)) {
    const column = (f: (p: ProviderRecord) => string) => chunk.map(f);
    await db.query(UPSERT_PROVIDERS, [
      column((p) => p.key),
      column((p) => p.ddbId),
      column((p) => p.providerId),
      column((p) => p.parentId),
      column((p) => p.name),
      column((p) => p.uri),
      column((p) => p.sectors.join(' ')),
      column((p) => p.latitude),
      column((p) => p.longitude),
      column((p) => p.state),
      column((p) => p.logo),
    ]);
  }
  if (unlink.length > 0) await db.query('DELETE FROM item_providers WHERE item_id = ANY($1::text[])', [unlink]);
  for (const chunk of chunks(link, 5000)) {
    await db.query(
      `INSERT INTO item_providers (item_id, provider) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (item_id) DO UPDATE SET provider = excluded.provider`,
      [chunk.map((l) => l[0]), chunk.map((l) => l[1])],
    );
  }
}
