/**
 * One search over several shards of an index and the exact merge of their parts
 * (docs/search-engine.md "Shards"): the hits are cut into `count` contiguous parts; each part
 * orders its own hits and keeps its best `k`, with each hit's sort values (what a cursor
 * holds); the merge orders those by the same values. Every order ends with the id, so it is
 * total and the merged page is the one-shard page, hit for hit. Facet counts are sums.
 */
import type { Hits } from './hits.js';
import { compareCodePoints, compareOrdered, encodeCursor, type Component, type CursorValue, type ValueOrder } from './order.js';
import type { FacetCounts, SearchRequest, SearchResult } from './types.js';

/** One hit of a shard's page: its ordinal, score and sort values. */
export interface ShardHit {
  doc: number;
  score: number;
  values: CursorValue[];
  /** Its place among its shard's hits (what the shard's sort plan compares). */
  hit: number;
}

/** The shards' parts of `hits`: `count` contiguous runs of nearly equal length (some empty when there are fewer hits). */
export function shardHits(hits: Hits, count: number): Hits[] {
  const n = hits.docs.length;
  const parts: Hits[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((n * i) / count);
    const to = Math.floor((n * (i + 1)) / count);
    parts.push({ docs: hits.docs.subarray(from, to), scores: hits.scores ? hits.scores.subarray(from, to) : null });
  }
  return parts;
}

/** Compares two shard hits under `order` by their values. */
export function compareShardHits(
  order: ReadonlyArray<Pick<Component, 'compareValues'>>,
  a: Pick<ShardHit, 'values'>,
  b: Pick<ShardHit, 'values'>,
): number {
  for (let i = 0; i < order.length; i++) {
    const d = order[i]!.compareValues(a.values[i]!, b.values[i]!);
    if (d !== 0) return d;
  }
  return 0;
}

/** The `k` first of the shards' pages (each in order) under `order`, in order. */
export function mergePages(pages: readonly ShardHit[][], order: readonly Component[], k: number): ShardHit[] {
  const all = pages.flat();
  all.sort((a, b) => compareShardHits(order, a, b));
  return all.slice(0, k);
}

/** The shards' counts per facet value, summed. */
export function sumCounts(parts: readonly Uint32Array[]): Uint32Array {
  const sum = new Uint32Array(parts[0]!.length);
  for (const p of parts) for (let v = 0; v < p.length; v++) sum[v]! += p[v]!;
  return sum;
}

/**
 * One facet as a shard of a scattered search counted it (search.ts runSearchPart): values
 * with a live document, each with its count in this shard's run of the hits.
 */
export interface FacetPart {
  values: string[];
  counts: number[];
}

/**
 * A shard's share of one search scattered over the threads of a pool: plain data, it
 * crosses from the search thread to the one that merges (mergeParts). Every shard evaluated
 * the same index alike, so `total` is the same in each; shard 0 adds matched terms and the
 * correction.
 */
export interface SearchPart {
  total: number;
  /** Its best `offset + rows` hits (from the cursor on), in order, each with its sort values. */
  page: Array<{ id: string; score: number; values: CursorValue[] }>;
  /** How each sort value is ordered (Component.merge). */
  orders: ValueOrder[];
  facets: FacetPart[];
  matchedTerms?: string[];
  correctedQuery?: string;
}

/**
 * The answer of a search scattered in shards (runSearchPart of shard 0 … n − 1 on indexes
 * holding the same documents at the same ordinals): what runSearch gives at any number of
 * shards, byte for byte. Pages are merged by their sort values (every order ends with the
 * id: total), facet counts summed per value before mincount, order and limit are applied
 * once, as countFacet applies them; `fingerprint`: search.ts fingerprintOf(req).
 */
export function mergeParts(req: SearchRequest, parts: readonly SearchPart[], fingerprint: string): SearchResult {
  const first = parts[0]!;
  const order = first.orders.map((o) => ({ compareValues: (v: CursorValue, w: CursorValue) => compareOrdered(o, v, w) }));
  const skip = req.cursor === undefined ? req.offset : 0;
  const all = parts.flatMap((p) => p.page);
  all.sort((a, b) => compareShardHits(order, a, b));
  const page = all.slice(0, skip + req.rows).slice(skip);
  const result: SearchResult = {
    total: first.total,
    ids: page.map((h) => h.id),
    scores: page.map((h) => h.score),
    facets: (req.facets ?? []).map((fr, i) =>
      mergeFacet(
        fr,
        parts.map((p) => p.facets[i]!),
      ),
    ),
    matchedTerms: first.matchedTerms ?? [],
  };
  if (req.spellcheck) result.correctedQuery = first.correctedQuery ?? '';
  if (req.cursor !== undefined) {
    const last = page[page.length - 1];
    result.nextCursor = last === undefined ? req.cursor : encodeCursor(fingerprint, last.values);
  }
  return result;
}

/** The shards' counts of one facet summed per value, then mincount, order (count, then value; or value) and limit. */
function mergeFacet(fr: NonNullable<SearchRequest['facets']>[number], parts: readonly FacetPart[]): FacetCounts {
  const sum = new Map<string, number>();
  for (const p of parts) for (let i = 0; i < p.values.length; i++) sum.set(p.values[i]!, (sum.get(p.values[i]!) ?? 0) + p.counts[i]!);
  const values = [...sum].filter(([, count]) => count >= fr.mincount).map(([value, count]) => ({ value, count }));
  values.sort((a, b) => (fr.sort === 'count' && a.count !== b.count ? b.count - a.count : compareCodePoints(a.value, b.value)));
  return { field: fr.field, values: fr.limit === -1 ? values : values.slice(0, fr.limit) };
}
