/**
 * What `*:*` under one facet filter finds, kept up to date rather than counted per search
 * (docs/search-engine.md "Kept counts"): per filter (a facet and the values it ORs), the
 * number of live documents with one of them, and per facet asked for beside it the live
 * documents of each value among those. Counting them was a pass over every hit of the filter
 * (half of all documents for a common type or sector) on every search; every live document
 * (`*:*` without a filter) has its counts in the facet columns already (facetColumn.ts
 * `live`).
 *
 * An entry is counted once from the hits, when a search first asks for it, then moved by
 * every upsert and delete of the index (SearchIndex.ts calls `added` and `removed`): a new
 * ordinal with one of the filter's values adds one to the total and to the count of each of
 * its values in each kept facet; a deleted one subtracts. Ordinals are never reused and
 * never change their values, so that is exact. Entries are bounded in bytes and in number
 * (each costs a check per upsert), least recently used first out.
 */
import type { FacetColumn } from './facetColumn.js';

interface Entry {
  f: number;
  /** By value id of facet `f`: 1 when the filter has that value (ids beyond its length: 0). */
  mark: Uint8Array;
  /** Live documents with one of the filter's values. */
  total: number;
  /** By facet: live documents with one of the filter's values, per value id of that facet. */
  counts: Map<number, Uint32Array>;
  bytes: number;
}

export class FilterCounts {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly facets: readonly FacetColumn[],
    /** Bytes of counts kept. */
    private readonly budget: number,
    /** Filters kept: each costs a look at the facet's column per upsert and delete. */
    private readonly maxEntries: number,
  ) {}

  private static key(f: number, ids: readonly number[]): string {
    return `${f}:${[...ids].sort((a, b) => a - b).join(',')}`;
  }

  /** The kept total of a filter, or undefined. */
  total(f: number, ids: readonly number[]): number | undefined {
    return this.entries.get(FilterCounts.key(f, ids))?.total;
  }

  /**
   * The kept counts of facet `g` under a filter (at least as long as `g` has values; read
   * only, valid until the next change of the index), or undefined.
   */
  counts(f: number, ids: readonly number[], g: number): Uint32Array | undefined {
    const key = FilterCounts.key(f, ids);
    const e = this.entries.get(key);
    const c = e?.counts.get(g);
    if (e === undefined || c === undefined) return undefined;
    this.touch(key, e);
    const n = this.facets[g]!.values.size;
    if (c.length >= n) return c;
    const grown = this.grow(e, g, c, n);
    return grown;
  }

  /**
   * Keeps a filter's total (the live documents with one of `ids` of facet `f`) and, with
   * `g`, the counts of facet `g` among them, both as counted now from the hits. Nothing is
   * kept when the filter has no value or when it would not fit.
   */
  keep(f: number, ids: readonly number[], total: number, g?: number, counts?: Uint32Array): void {
    if (ids.length === 0 || this.maxEntries === 0) return;
    const key = FilterCounts.key(f, ids);
    let e = this.entries.get(key);
    if (e === undefined) {
      const mark = new Uint8Array(this.facets[f]!.values.size);
      for (const v of ids) mark[v] = 1;
      e = { f, mark, total, counts: new Map(), bytes: mark.byteLength };
      this.entries.set(key, e);
      this.bytes += e.bytes;
    } else this.touch(key, e);
    if (g !== undefined && counts !== undefined && !e.counts.has(g)) {
      const copy = Uint32Array.from(counts);
      e.counts.set(g, copy);
      e.bytes += copy.byteLength;
      this.bytes += copy.byteLength;
    }
    this.evict(key);
  }

  /** Ordinal `ord`, just given its values, became live. */
  added(ord: number): void {
    if (this.entries.size > 0) this.move(ord, 1);
  }

  /** Live ordinal `ord` is about to be deleted (its values are still in the columns). */
  removed(ord: number): void {
    if (this.entries.size > 0) this.move(ord, -1);
  }

  /** Bytes kept (counts and marks). */
  get size(): number {
    return this.bytes;
  }

  private move(ord: number, by: 1 | -1): void {
    for (const e of this.entries.values()) {
      if (!hasAny(this.facets[e.f]!, ord, e.mark)) continue;
      e.total += by;
      for (const [g, c] of e.counts) {
        const col = this.facets[g]!;
        if (!col.hasValues) continue;
        if (col.single) {
          const v = (col.single.array[ord] ?? 0) - 1;
          if (v < 0) continue;
          const counts = v < c.length ? c : this.grow(e, g, c, col.values.size);
          counts[v]! += by;
        } else {
          const start = col.start!.array;
          const vals = col.ids!.array;
          let counts = c;
          for (let j = start[ord]!, end = start[ord + 1]!; j < end; j++) {
            const v = vals[j]!;
            if (v >= counts.length) counts = this.grow(e, g, counts, col.values.size);
            counts[v]! += by;
          }
        }
      }
    }
  }

  /** Entry `e`'s counts of facet `g` made `n` long (values added since). */
  private grow(e: Entry, g: number, c: Uint32Array, n: number): Uint32Array {
    const grown = new Uint32Array(Math.max(n, c.length + (c.length >>> 2) + 16));
    grown.set(c);
    e.counts.set(g, grown);
    e.bytes += grown.byteLength - c.byteLength;
    this.bytes += grown.byteLength - c.byteLength;
    return grown;
  }

  private touch(key: string, e: Entry): void {
    // most recently used last
    this.entries.delete(key);
    this.entries.set(key, e);
  }

  /** Drops the least recently used entries (never `keep`) down to the bounds. */
  private evict(keep: string): void {
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.budget && this.entries.size <= this.maxEntries) break;
      if (k === keep) continue;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }
}

/** Whether ordinal `ord` has a value of `col` marked in `mark`. */
export function hasAny(col: FacetColumn, ord: number, mark: Uint8Array): boolean {
  if (!col.hasValues) return false;
  if (col.single) {
    const v = (col.single.array[ord] ?? 0) - 1;
    return v >= 0 && mark[v] === 1;
  }
  const start = col.start!.array;
  const vals = col.ids!.array;
  for (let j = start[ord]!, end = start[ord + 1]!; j < end; j++) if (mark[vals[j]!] === 1) return true;
  return false;
}
