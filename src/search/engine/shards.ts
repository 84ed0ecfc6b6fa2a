/**
 * One search over several shards of an index and the exact merge of their parts
 * (docs/search-engine.md "Shards"): the hits are cut into `count` contiguous parts; each part
 * orders its own hits and keeps its best `k`, with each hit's sort values (what a cursor
 * holds); the merge orders those by the same values. Every order ends with the id, so it is
 * total and the merged page is the one-shard page, hit for hit. Facet counts are sums.
 */
import type { Hits } from './hits.js';
import {
  compareOrdered,
  encodeCursor,
  numberComponent,
  smallestHits,
  stringComponent,
  type Component,
  type CursorValue,
  type ValueOrder,
} from './order.js';
import type { FacetCounts, SearchRequest, SearchResult } from './types.js';

/** Ordinals `from` ≤ d < `to`: what one shard of a scattered search evaluates. */
export interface OrdinalRange {
  from: number;
  to: number;
}

/**
 * The ordinals shard `shard` of `shards` evaluates (search.ts runSearchPart): the live
 * ordinals (`live`, ascending) cut into `shards` contiguous runs of nearly equal length, each
 * widened to the dead ordinals up to the next run, so that the ranges cover every ordinal
 * once. Every thread holding the index alike cuts it alike.
 */
export function shardRange(live: Uint32Array, shard: number, shards: number): OrdinalRange {
  const n = live.length;
  const at = (i: number) => (i === 0 ? 0 : i === shards || n === 0 ? 0xffffffff : live[Math.floor((n * i) / shards)]!);
  return { from: at(shard), to: at(shard + 1) };
}

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
  /** Each value's id in the facet's dictionary: the same in every replica, so the merge sums by id (checked against the value). */
  ids: number[];
}

/**
 * A shard's share of one search scattered over the threads of a pool: plain data, it
 * crosses from the search thread to the one that merges (mergeParts). Each shard evaluated
 * the query over its range of ordinals (shardRange), so `total`, the facet counts and the
 * matched terms are its range's (for `*:*` alone or under one facet filter, shard 0 gives the
 * whole index's total and counts and the others none); shard 0 adds the correction.
 */
export interface SearchPart {
  total: number;
  /** Its best `offset + rows` hits (from the cursor on), in order, each with its sort values. */
  page: Array<{ id: string; score: number; values: CursorValue[] }>;
  /** How each sort value is ordered (Component.merge). */
  orders: ValueOrder[];
  facets: FacetPart[];
  /** The matched terms among its hits, each with the place of its first such leaf in the query (the same in every shard). */
  matched: Array<{ text: string; at: number }>;
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
  let total = 0;
  for (const p of parts) total += p.total;
  const result: SearchResult = {
    total,
    ids: page.map((h) => h.id),
    scores: page.map((h) => h.score),
    facets: (req.facets ?? []).map((fr, i) =>
      mergeFacet(
        fr,
        parts.map((p) => p.facets[i]!),
      ),
    ),
    matchedTerms: mergeMatched(parts),
  };
  if (req.spellcheck) result.correctedQuery = first.correctedQuery ?? '';
  if (req.cursor !== undefined) {
    const last = page[page.length - 1];
    result.nextCursor = last === undefined ? req.cursor : encodeCursor(fingerprint, last.values);
  }
  return result;
}

/**
 * The matched terms of the whole hits: a term is matched when one of its leaves matched a hit
 * of any shard, and the terms come in the order of their first leaf that did, as one shard
 * lists them.
 */
function mergeMatched(parts: readonly SearchPart[]): string[] {
  const first = new Map<string, number>();
  for (const p of parts) {
    for (const m of p.matched) {
      const at = first.get(m.text);
      if (at === undefined || m.at < at) first.set(m.text, m.at);
    }
  }
  return [...first].sort((a, b) => a[1] - b[1]).map(([text]) => text);
}

/**
 * The shards' counts of one facet summed per value, then mincount, order (count, then value;
 * or value) and limit, as countFacet (search.ts) orders and cuts them: the first `limit`
 * kept in a bounded heap rather than every value sorted (a place facet has thousands).
 */
function mergeFacet(fr: NonNullable<SearchRequest['facets']>[number], parts: readonly FacetPart[]): FacetCounts {
  const { values, counts } = sumById(parts) ?? sumByValue(parts);
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) if (counts[i]! >= fr.mincount) kept.push(i);
  const byValue = stringComponent((i) => values[kept[i]!], false);
  const order: Component[] = fr.sort === 'count' ? [numberComponent((i) => counts[kept[i]!]!, true), byValue] : [byValue];
  const top = smallestHits(kept.length, order, fr.limit === -1 ? kept.length : fr.limit, undefined, () => {});
  return { field: fr.field, values: top.map((i) => ({ value: values[kept[i]!]!, count: counts[kept[i]!]! })) };
}

/**
 * The parts' counts summed per value id, without hashing thousands of strings; undefined
 * when two parts give one id different values (replicas that do not agree: summed by value).
 * Over arrays as long as the dictionary when the parts list a fair share of its values, else
 * over a Map: a few hundred names of a facet of 700,000 summed over arrays that long took 9 ms
 * of the pool's thread per search (docs/benchmarks.md). The order of the result is not the
 * answer's: mergeFacet orders by count and value, and each value is one id.
 */
function sumById(parts: readonly FacetPart[]): { values: string[]; counts: number[] } | undefined {
  let size = 0;
  let listed = 0;
  for (const p of parts) {
    listed += p.ids.length;
    for (const id of p.ids) if (id >= size) size = id + 1;
  }
  return listed * 4 >= size ? sumDense(parts, size) : sumSparse(parts);
}

function sumDense(parts: readonly FacetPart[], size: number): { values: string[]; counts: number[] } | undefined {
  const byId: Array<string | undefined> = new Array<string | undefined>(size);
  const sum = new Float64Array(size);
  for (const p of parts) {
    for (let i = 0; i < p.ids.length; i++) {
      const id = p.ids[i]!;
      const was = byId[id];
      if (was === undefined) byId[id] = p.values[i]!;
      else if (was !== p.values[i]) return undefined;
      sum[id]! += p.counts[i]!;
    }
  }
  const values: string[] = [];
  const counts: number[] = [];
  for (let id = 0; id < size; id++) {
    const v = byId[id];
    if (v === undefined) continue;
    values.push(v);
    counts.push(sum[id]!);
  }
  return { values, counts };
}

function sumSparse(parts: readonly FacetPart[]): { values: string[]; counts: number[] } | undefined {
  const at = new Map<number, number>();
  const values: string[] = [];
  const counts: number[] = [];
  for (const p of parts) {
    for (let i = 0; i < p.ids.length; i++) {
      const id = p.ids[i]!;
      const k = at.get(id);
      if (k === undefined) {
        at.set(id, values.length);
        values.push(p.values[i]!);
        counts.push(p.counts[i]!);
      } else if (values[k] !== p.values[i]) return undefined;
      else counts[k]! += p.counts[i]!;
    }
  }
  return { values, counts };
}

function sumByValue(parts: readonly FacetPart[]): { values: string[]; counts: number[] } {
  const sum = new Map<string, number>();
  for (const p of parts) for (let i = 0; i < p.values.length; i++) sum.set(p.values[i]!, (sum.get(p.values[i]!) ?? 0) + p.counts[i]!);
  return { values: [...sum.keys()], counts: [...sum.values()] };
}
