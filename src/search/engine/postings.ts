/**
 * Reading postings for one search (evaluate.ts): the text postings of a term with their
 * weights (phrases: phrase.ts), and the ordinals of facet values; long lists are
 * kept decoded between searches (postingsCache.ts). Scores as evaluate.ts states them.
 */
import type { Deadline } from './errors.js';
import { EMPTY_DOCS, Scratch, unionDocs } from './hits.js';
import { PostingsCache, type CachedPostings } from './postingsCache.js';
import type { SearchIndex } from './SearchIndex.js';
import type { OrdinalRange } from './shards.js';

export const TF_CAP = 3;

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** Lists of at least this many postings keep their live document frequency per index version. */
const KEEP_DF = 16_384;

/** Live document frequency of a cached list as of an index version. */
const dfOf = new WeakMap<CachedPostings, { version: number; n: number; df: number }>();

/** Live documents among `e`'s postings: the document frequency its idf is of, whatever range is read. */
export function liveDf(ix: SearchIndex, e: CachedPostings): number {
  const known = dfOf.get(e);
  if (known !== undefined && known.version === ix.version && known.n === e.n) return known.df;
  const live = ix.live.array;
  const docs = e.docs;
  let df = 0;
  for (let i = 0; i < e.n; i++) df += live[docs[i]!]!;
  if (e.n >= KEEP_DF) dfOf.set(e, { version: ix.version, n: e.n, df });
  return df;
}

/** The first of `a[from .. n)` (ascending) that is ≥ `x`, or `n`. */
export function lowerBound(a: Uint32Array, n: number, x: number, from = 0): number {
  let lo = from;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Postings {
  /**
   * `range`: only the postings of ordinals in it are read (a shard of a scattered search,
   * docs/search-engine.md "Shards"); document frequencies stay the whole index's.
   */
  constructor(
    private readonly ix: SearchIndex,
    private readonly deadline: Deadline,
    private readonly range?: OrdinalRange,
  ) {}

  /**
   * Live documents with term `id` in a field of `mask`, pushed with Σ weight × min(tf, 3)
   * (or, with `best`, the best field weight); returns the live df over all fields. With
   * `domain` (a bitset over ordinals), only the documents in it are pushed; df counts all.
   */
  readPostings(id: number, mask: number, out: Scratch, best: boolean, domain: Uint32Array | null = null, forms = false): number {
    const ix = this.ix;
    const e = this.decoded(id, mask, best, forms);
    const docs = e.docs;
    const values = e.values!;
    const range = this.range;
    if (range === undefined) {
      out.reserve(e.n);
      out.n = keepLive(docs, values, e.n, ix.live.array, domain, out.docs, out.vals, out.n);
      this.deadline.tick(e.n);
      return keptDf;
    }
    // the list from its first posting in the range to the range's end (the decoded list is ascending)
    const from = lowerBound(docs, e.n, range.from);
    const to = lowerBound(docs, e.n, range.to, from);
    out.reserve(to - from);
    out.n = keepLive(docs.subarray(from, to), values.subarray(from, to), to - from, ix.live.array, domain, out.docs, out.vals, out.n);
    this.deadline.tick(to - from);
    return liveDf(ix, e);
  }

  /**
   * Every posting of term `id` (with `forms`: of an analysed form) decoded so far, live or
   * not, each with its weight in the fields of `mask` (0 outside them): the cached list
   * brought up to date (or, for a short list, decoded now and not kept). Read only. `into`:
   * that list as decoded before (keptWords.ts holds its lists), brought up to date and
   * cached again.
   */
  decoded(id: number, mask: number, best: boolean, forms = false, into?: CachedPostings): CachedPostings {
    const ix = this.ix;
    const key = `${forms ? 'a' : 't'}${id}:${mask}:${best ? 1 : 0}`;
    const e = into ??
      ix.postingsCache.get(key) ?? {
        docs: new Uint32Array(64),
        values: ix.weightsFit32 ? new Float32Array(64) : new Float64Array(64),
        n: 0,
        reader: (forms ? ix.analysed!.pool : ix.text).reader(id),
      };
    const r = e.reader;
    r.resume();
    const weights = ix.weights;
    let work = 0;
    while (!r.done) {
      const doc = r.readDelta();
      const nf = r.read();
      let w = 0;
      for (let f = 0; f < nf; f++) {
        const x = r.read();
        const field = x & 31;
        const np = (x - field) / 32;
        for (let p = 0; p < np; p++) r.read();
        if ((mask >>> field) & 1) w = best ? Math.max(w, weights[field]!) : w + weights[field]! * Math.min(np, TF_CAP);
      }
      PostingsCache.grow(e);
      e.docs[e.n] = doc;
      e.values![e.n++] = w;
      if (++work === 1024) {
        this.deadline.tick(work);
        work = 0;
      }
    }
    ix.postingsCache.put(key, e);
    return e;
  }

  /** Tells liveDf the live documents of `e`'s postings as of this version (keptWords.ts keeps them). */
  knownDf(e: CachedPostings, df: number): void {
    dfOf.set(e, { version: this.ix.version, n: e.n, df });
  }

  /** Live documents with any of the value ids of facet `f`, ascending. */
  facetDocs(f: number, ids: readonly number[]): Uint32Array {
    const ix = this.ix;
    const col = ix.facets[f]!;
    const live = ix.live.array;
    let acc: Uint32Array = EMPTY_DOCS;
    for (const v of ids) {
      const key = `f${f}:${v}`;
      const e = ix.postingsCache.get(key) ?? { docs: new Uint32Array(64), values: null, n: 0, reader: col.postings.reader(v) };
      const r = e.reader;
      r.resume();
      while (!r.done) {
        PostingsCache.grow(e);
        e.docs[e.n++] = r.readDelta();
        if ((e.n & 1023) === 0) this.deadline.tick(1024);
      }
      ix.postingsCache.put(key, e);
      const from = this.range === undefined ? 0 : lowerBound(e.docs, e.n, this.range.from);
      const to = this.range === undefined ? e.n : lowerBound(e.docs, e.n, this.range.to, from);
      const out = ix.scratchPool.u32(Math.min(to - from, col.live.array[v]!));
      let k = 0;
      for (let i = from; i < to; i++) {
        const d = e.docs[i]!;
        if (live[d] === 1) out[k++] = d;
      }
      this.deadline.tick(to - from);
      acc = acc.length === 0 ? out.subarray(0, k) : unionDocs(acc, out.subarray(0, k), ix.scratchPool.u32(acc.length + k));
    }
    return acc;
  }
}

/** The live documents among the postings keepLive() last read (their df). */
let keptDf = 0;

/**
 * Copies the postings of live documents with a weight > 0 (and, with `domain`, whose bit is
 * set) to `od`/`ov` from `k`; returns the new end, and leaves the live count in keptDf.
 * Without branches: each posting is written and kept (k moves) or overwritten by the next;
 * a filter that keeps half of the documents at random made a branch a coin toss, and this
 * loop twice as slow in the bench. A function of its own, so that it is compiled
 * for its few array types alone.
 */
function keepLive(
  docs: Uint32Array,
  values: Float32Array | Float64Array,
  n: number,
  live: Uint8Array,
  domain: Uint32Array | null,
  od: Uint32Array,
  ov: Float64Array,
  k: number,
): number {
  let df = 0;
  if (domain === null) {
    for (let i = 0; i < n; i++) {
      const d = docs[i]!;
      const alive = live[d]!;
      const v = values[i]!;
      df += alive;
      od[k] = d;
      ov[k] = v;
      k += alive & (v > 0 ? 1 : 0);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const d = docs[i]!;
      const alive = live[d]!;
      const v = values[i]!;
      df += alive;
      od[k] = d;
      ov[k] = v;
      k += alive & (v > 0 ? 1 : 0) & (domain[d >>> 5]! >>> (d & 31));
    }
  }
  keptDf = df;
  return k;
}
