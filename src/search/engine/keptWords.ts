/**
 * What a relevance search for one common word finds, alone or under one facet filter, kept
 * up to date rather than counted per search (docs/search-engine.md "Kept words"): its total,
 * the counts of each facet asked for beside it, the hits of its exact-title tier, and the
 * live document frequency of each of its lists. Counting them was a pass over every hit (6.45 M
 * of 10 M documents for the bench's commonest word) on every search; with them kept, such a
 * search reads only the windows its top-k bounds visit (topScores.ts).
 *
 * A word is the leaves topScores.ts bounds it by (its folded term and its analysed forms);
 * a document is a hit when one of their lists has a posting of it with a weight above 0
 * (the evaluator's rule, postings.ts keepLive) and, under a filter, it has one of the
 * filter's values (filterCounts.ts hasAny). An entry holds its decoded lists (the postings
 * cache's own, postingsCache.ts) and the ordinal below which every document is counted.
 * Lists are append-only and ordinals never reused (SearchIndex.ts), so:
 * - a document added since is a new posting at the end of a list: when the entry is next
 *   used, each list is brought up to date and its new postings are counted (those still
 *   live);
 * - a deleted document below that ordinal is looked up in the lists (binary search) while its
 *   values are still in the columns (SearchIndex.delete calls `removed`), and subtracted.
 * That is exact, whatever the order of changes and searches. Entries are bounded in bytes
 * (their lists counted whole, though the postings cache holds most of them too) and in number
 * (each costs a lookup per delete), least recently used first out.
 */
import type { FacetColumn } from './facetColumn.js';
import { hasAny } from './filterCounts.js';
import { lowerBound, type Postings } from './postings.js';
import type { CachedPostings } from './postingsCache.js';
import { foldMaxima, maximaRoom, windowsOf, WindowTies } from './windowMaxima.js';

/** One list of a word: a term or an analysed form in the fields of `mask` (topScores.ts). */
export interface WordLeaf {
  id: number;
  forms: boolean;
  mask: number;
  half: boolean;
}

/** The index as this module reads it. */
export interface KeptIndex {
  readonly facets: readonly FacetColumn[];
  readonly live: { readonly array: Uint8Array };
  readonly exactA: { readonly array: Uint32Array };
  readonly exactB: { readonly array: Uint32Array };
  readonly termDocs: { readonly array: Uint32Array };
  readonly ordinals: number;
}

/** A word's kept answer, as one search uses it (valid until the next change of the index). */
export interface KeptWord {
  /** Live hits. */
  readonly total: number;
  /**
   * The word's decoded lists, one per leaf, up to date (read only): topScores.ts reads these,
   * not the postings cache's, which may have dropped a list longer than its budget.
   */
  readonly lists: readonly CachedPostings[];
  /** Live hits of the exact-title tier, ascending. */
  readonly tier: Uint32Array;
  /** Whether an ordinal passes the filter (always, without one). */
  readonly keep: (d: number) => boolean;
  /**
   * Under a filter, each list's window maxima over the postings of the documents the filter
   * keeps (windowMaxima.ts), room for every window; without one, the lists' own serve.
   */
  readonly maxima: readonly Uint8Array[] | undefined;
  /**
   * For a word of one list, where its ties are decided per window among the hits
   * (windowMaxima.ts WindowTies), room for every window; undefined without a tiebreak.
   */
  readonly ties: WindowTies | undefined;
  /** The kept counts of facet `g` among the hits (read only), or undefined. */
  counts(g: number): Uint32Array | undefined;
  /** Keeps the counts of facet `g` among the hits, as counted now. */
  keepCounts(g: number, counts: Uint32Array): void;
}

interface Entry {
  leaves: readonly WordLeaf[];
  lists: CachedPostings[];
  /** Postings of each list counted. */
  seen: number[];
  /** Live documents of each list (its document frequency, whatever the weights and filter). */
  df: number[];
  /** The filter's facet, or -1; `mark` by value id: 1 for the filter's values. */
  f: number;
  mark: Uint8Array;
  /**
   * Under a filter, each list's window maxima over its postings of live documents the filter
   * keeps when folded in (a bound still when one is deleted since: it only lowers a maximum).
   */
  maxima: Uint8Array[] | undefined;
  /** See KeptWord.ties. */
  ties: WindowTies | undefined;
  /** The exact-title hashes of the word, or null when it has no tier. */
  exact: { a: number; b: number } | null;
  total: number;
  counts: Map<number, Uint32Array>;
  /** Hits of the tier when counted (some may have been deleted since), ascending. */
  tier: number[];
  /** Every ordinal below it is counted. */
  upTo: number;
  bytes: number;
}

export class KeptWords {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly ix: KeptIndex,
    /** Bytes of lists and counts kept (asked at each change: it may grow with the index). */
    private readonly budget: () => number,
    /** Words kept: each costs a lookup per delete. */
    private readonly maxEntries: number,
    /** Words whose term has fewer documents than this are counted per search (cheap). */
    private readonly minDocs: number,
  ) {}

  /**
   * The kept answer of a word (`leaves`, the first its folded term) under the filter `ids` of
   * facet `f` (f = -1: none), brought up to date through `postings`; made when the word is
   * common enough, its lists fit, and `hits` (the live hits in the whole index, ascending)
   * counts it. Undefined when the word is not kept: the search counts it.
   */
  lookup(
    leaves: readonly WordLeaf[],
    f: number,
    ids: readonly number[],
    exact: { a: number; b: number } | null,
    postings: Postings,
    hits: () => Uint32Array,
    tiebreak?: (d: number) => number,
  ): KeptWord | undefined {
    const first = leaves[0];
    if (this.maxEntries === 0 || first === undefined || first.forms || (this.ix.termDocs.array[first.id] ?? 0) < this.minDocs)
      return undefined;
    const name = `${f}:${[...ids].sort((a, b) => a - b).join(',')}|${exact === null ? '' : `${exact.a}.${exact.b}`}|${leaves
      .map((l) => `${l.forms ? 'a' : 't'}${l.id}.${l.mask}`)
      .join(',')}`;
    let e = this.entries.get(name);
    if (e !== undefined) {
      this.entries.delete(name); // most recently used last
      this.entries.set(name, e);
      this.catchUp(e, postings, tiebreak);
      this.evict(name);
    } else {
      e = this.make(leaves, f, ids, exact, postings, hits, tiebreak);
      if (e === undefined) return undefined;
      this.entries.set(name, e);
      this.bytes += e.bytes;
      this.evict(name);
    }
    e.lists.forEach((l, i) => postings.knownDf(l, e.df[i]!));
    // a word no live document holds may be a compound (evaluate.ts word): not the leaves' hits
    return e.df[0] === 0 ? undefined : this.view(e);
  }

  /** Live ordinal `ord` is about to be deleted (its values are still in the columns). */
  removed(ord: number): void {
    for (const e of this.entries.values()) {
      if (ord >= e.upTo) continue; // not counted yet: its catch-up finds it dead
      let hit = false;
      for (let i = 0; i < e.lists.length; i++) {
        const l = e.lists[i]!;
        const p = lowerBound(l.docs, l.n, ord);
        if (p === l.n || l.docs[p] !== ord) continue;
        e.df[i]!--;
        if (l.values![p]! > 0) hit = true;
      }
      if (hit && (e.f < 0 || hasAny(this.ix.facets[e.f]!, ord, e.mark))) this.move(e, ord, -1);
    }
  }

  /** Bytes kept (lists and counts). */
  get size(): number {
    return this.bytes;
  }

  /** Words kept. */
  get count(): number {
    return this.entries.size;
  }

  private make(
    leaves: readonly WordLeaf[],
    f: number,
    ids: readonly number[],
    exact: Entry['exact'],
    postings: Postings,
    hits: () => Uint32Array,
    tiebreak: ((d: number) => number) | undefined,
  ): Entry | undefined {
    const lists = leaves.map((l) => postings.decoded(l.id, l.mask, false, l.forms));
    const listBytes = lists.reduce((s, l) => s + l.docs.byteLength + l.values!.byteLength, 0);
    if (listBytes > this.budget() / 2) return undefined;
    const live = this.ix.live.array;
    const df = lists.map((l) => {
      let n = 0;
      for (let i = 0; i < l.n; i++) n += live[l.docs[i]!]!;
      return n;
    });
    const mark = f < 0 ? new Uint8Array(0) : new Uint8Array(this.ix.facets[f]!.values.size);
    for (const v of ids) mark[v] = 1;
    const col = f < 0 ? undefined : this.ix.facets[f]!;
    const keep = col === undefined ? undefined : (d: number) => live[d] === 1 && hasAny(col, d, mark);
    const windows = windowsOf(this.ix.ordinals);
    let ties: WindowTies | undefined;
    if (tiebreak !== undefined && lists.length === 1) {
      ties = new WindowTies();
      ties.room(windows);
      ties.fold(lists[0]!.docs, lists[0]!.values!, 0, lists[0]!.n, tiebreak, keep ?? ((d) => live[d] === 1));
    }
    const maxima =
      keep === undefined
        ? undefined
        : lists.map((l) => {
            const max = maximaRoom(undefined, windows);
            foldMaxima(max, l.docs, l.values!, 0, l.n, keep);
            return max;
          });
    const docs = hits();
    const tier: number[] = [];
    if (exact !== null) {
      const ea = this.ix.exactA.array;
      const eb = this.ix.exactB.array;
      for (let i = 0; i < docs.length; i++) if (ea[docs[i]!] === exact.a && eb[docs[i]!] === exact.b) tier.push(docs[i]!);
    }
    return {
      leaves,
      lists,
      seen: lists.map((l) => l.n),
      df,
      f,
      mark,
      maxima,
      ties,
      exact,
      total: docs.length,
      counts: new Map(),
      tier,
      upTo: this.ix.ordinals,
      bytes: listBytes + mark.byteLength + 8 * tier.length + maximaBytes(maxima) + (ties?.bytes ?? 0),
    };
  }

  /** Counts what was appended to the entry's lists since it was last used. */
  private catchUp(e: Entry, postings: Postings, tiebreak: ((d: number) => number) | undefined): void {
    if (e.upTo === this.ix.ordinals) return;
    const live = this.ix.live.array;
    const col = e.f < 0 ? undefined : this.ix.facets[e.f]!;
    const keep = col === undefined ? undefined : (d: number) => live[d] === 1 && hasAny(col, d, e.mark);
    const windows = windowsOf(this.ix.ordinals);
    const added: number[] = [];
    e.leaves.forEach((leaf, i) => {
      const l = postings.decoded(leaf.id, leaf.mask, false, leaf.forms, e.lists[i]);
      for (let p = e.seen[i]!; p < l.n; p++) {
        const d = l.docs[p]!;
        e.df[i]! += live[d]!;
        if (l.values![p]! > 0) added.push(d);
      }
      if (e.maxima !== undefined) {
        const max = (e.maxima[i] = maximaRoom(e.maxima[i], windows));
        foldMaxima(max, l.docs, l.values!, e.seen[i]!, l.n, keep);
      }
      if (e.ties !== undefined && tiebreak !== undefined) {
        e.ties.room(windows);
        e.ties.fold(l.docs, l.values!, e.seen[i]!, l.n, tiebreak, keep ?? ((d) => live[d] === 1));
      }
      e.seen[i] = l.n;
    });
    added.sort((a, b) => a - b);
    for (let k = 0; k < added.length; k++) {
      const d = added[k]!;
      if ((k > 0 && added[k - 1] === d) || live[d] !== 1 || (col !== undefined && !hasAny(col, d, e.mark))) continue;
      this.move(e, d, 1);
      if (e.exact !== null && this.ix.exactA.array[d] === e.exact.a && this.ix.exactB.array[d] === e.exact.b) {
        e.tier.push(d);
        e.bytes += 8;
        this.bytes += 8;
      }
    }
    const listBytes = e.lists.reduce((s, l) => s + l.docs.byteLength + l.values!.byteLength, 0);
    const before = e.bytes;
    e.bytes =
      listBytes +
      e.mark.byteLength +
      8 * e.tier.length +
      maximaBytes(e.maxima) +
      (e.ties?.bytes ?? 0) +
      [...e.counts.values()].reduce((s, c) => s + c.byteLength, 0);
    this.bytes += e.bytes - before;
    e.upTo = this.ix.ordinals;
  }

  /** Adds (by 1) or subtracts (by -1) hit `ord` from the entry's total and counts. */
  private move(e: Entry, ord: number, by: 1 | -1): void {
    e.total += by;
    for (const g of e.counts.keys()) {
      const col = this.ix.facets[g]!;
      if (!col.hasValues) continue;
      if (col.single) {
        const v = (col.single.array[ord] ?? 0) - 1;
        if (v >= 0) this.room(e, g, v)[v]! += by;
      } else {
        const start = col.start!.array;
        const vals = col.ids!.array;
        for (let j = start[ord]!, end = start[ord + 1]!; j < end; j++) this.room(e, g, vals[j]!)[vals[j]!]! += by;
      }
    }
  }

  /** Entry `e`'s counts of facet `g`, long enough for value `v` (values added since). */
  private room(e: Entry, g: number, v: number): Uint32Array {
    const c = e.counts.get(g)!;
    if (v < c.length) return c;
    const grown = new Uint32Array(Math.max(this.ix.facets[g]!.values.size, v + 1, c.length + (c.length >>> 2) + 16));
    grown.set(c);
    e.counts.set(g, grown);
    e.bytes += grown.byteLength - c.byteLength;
    this.bytes += grown.byteLength - c.byteLength;
    return grown;
  }

  private view(e: Entry): KeptWord {
    const ix = this.ix;
    const live = ix.live.array;
    const col = e.f < 0 ? undefined : ix.facets[e.f]!;
    const mark = e.mark;
    return {
      total: e.total,
      lists: e.lists,
      tier: Uint32Array.from(e.tier.filter((d) => live[d] === 1)),
      keep: col === undefined ? () => true : (d) => hasAny(col, d, mark),
      maxima: e.maxima,
      ties: e.ties,
      counts: (g) => {
        const c = e.counts.get(g);
        if (c === undefined) return undefined;
        const n = ix.facets[g]!.values.size;
        return c.length >= n ? c : this.room(e, g, n - 1);
      },
      keepCounts: (g, counts) => {
        if (e.counts.has(g)) return;
        const copy = Uint32Array.from(counts);
        e.counts.set(g, copy);
        e.bytes += copy.byteLength;
        this.bytes += copy.byteLength;
      },
    };
  }

  /** Drops the least recently used entries (never `keep`) down to the bounds. */
  private evict(keep: string): void {
    const budget = this.budget();
    for (const [k, e] of this.entries) {
      if (this.bytes <= budget && this.entries.size <= this.maxEntries) break;
      if (k === keep) continue;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }
}

function maximaBytes(maxima: readonly Uint8Array[] | undefined): number {
  return maxima?.reduce((s, m) => s + m.byteLength, 0) ?? 0;
}
