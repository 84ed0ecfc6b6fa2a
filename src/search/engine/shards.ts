/**
 * One search over several shards of an index and the exact merge of their parts
 * (docs/search-engine.md "Shards"): the hits are cut into `count` contiguous parts; each part
 * orders its own hits and keeps its best `k`, with each hit's sort values (what a cursor
 * holds); the merge orders those by the same values. Every order ends with the id, so it is
 * total and the merged page is the one-shard page, hit for hit. Facet counts are sums.
 */
import type { Hits } from './hits.js';
import type { Component, CursorValue } from './order.js';

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
export function compareShardHits(order: readonly Component[], a: ShardHit, b: ShardHit): number {
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
