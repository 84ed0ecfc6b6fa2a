/**
 * Reading postings for one search (evaluate.ts): the text postings of a term with their
 * weights, with positions for phrases, and the ordinals of facet values; long lists are
 * kept decoded between searches (postingsCache.ts). Scores as evaluate.ts states them.
 */
import type { Deadline } from './errors.js';
import { EMPTY_DOCS, Scratch, unionDocs } from './hits.js';
import { PostingsCache, type CachedPostings } from './postingsCache.js';
import type { SearchIndex } from './SearchIndex.js';

export const TF_CAP = 3;

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export class Postings {
  constructor(
    private readonly ix: SearchIndex,
    private readonly deadline: Deadline,
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
    out.reserve(e.n);
    out.n = keepLive(docs, values, e.n, ix.live.array, domain, out.docs, out.vals, out.n);
    const df = keptDf;
    this.deadline.tick(e.n);
    return df;
  }

  /**
   * Every posting of term `id` (with `forms`: of an analysed form) decoded so far, live or
   * not, each with its weight in the fields of `mask` (0 outside them): the cached list
   * brought up to date (or, for a short list, decoded now and not kept). Read only.
   */
  decoded(id: number, mask: number, best: boolean, forms = false): CachedPostings {
    const ix = this.ix;
    const key = `${forms ? 'a' : 't'}${id}:${mask}:${best ? 1 : 0}`;
    const e = ix.postingsCache.get(key) ?? {
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

  /** Consecutive words in one value of a field of `mask`. */
  phrase(words: readonly string[], mask: number): { docs: Uint32Array; scores: Float64Array } {
    const ix = this.ix;
    const lists: PositionList[] = [];
    for (const w of words) {
      const id = ix.terms.get(w);
      if (id === undefined) return { docs: EMPTY_DOCS, scores: new Float64Array(0) };
      lists.push(this.readPositions(id, mask));
    }
    return this.consecutive(lists);
  }

  /**
   * Consecutive positions in one value of a field, the i-th of `lists[i]`: per document
   * Σ idf(df of each list) × Σ over fields of weight × min(count, 3).
   */
  consecutive(lists: readonly PositionList[]): { docs: Uint32Array; scores: Float64Array } {
    const ix = this.ix;
    if (lists.some((l) => l.n === 0)) return { docs: EMPTY_DOCS, scores: new Float64Array(0) };
    let idfSum = 0;
    for (const l of lists) idfSum += idf(ix.size, l.df);
    const out = new Scratch();
    const first = lists[0]!;
    const ptr = new Int32Array(lists.length);
    let lastDoc = -1;
    let acc = 0;
    const flush = () => {
      if (lastDoc >= 0 && acc > 0) out.push(lastDoc, acc);
    };
    for (let e = 0; e < first.n; e++) {
      const doc = first.doc[e]!;
      const field = first.field[e]!;
      let ok = true;
      for (let i = 1; i < lists.length && ok; i++) {
        const l = lists[i]!;
        let p = ptr[i]!;
        while (p < l.n && (l.doc[p]! < doc || (l.doc[p] === doc && l.field[p]! < field))) p++;
        ptr[i] = p;
        ok = p < l.n && l.doc[p] === doc && l.field[p] === field;
      }
      if (!ok) continue;
      let tf = 0;
      for (let q = first.start[e]!; q < first.start[e + 1]!; q++) {
        const at = first.pos[q]!;
        let all = true;
        for (let i = 1; i < lists.length && all; i++) {
          const l = lists[i]!;
          all = containsSorted(l.pos, l.start[ptr[i]!]!, l.start[ptr[i]! + 1]!, at + i);
        }
        if (all) tf++;
      }
      if (tf === 0) continue;
      if (doc !== lastDoc) {
        flush();
        lastDoc = doc;
        acc = 0;
      }
      acc += ix.weights[field]! * Math.min(tf, TF_CAP);
      this.deadline.tick();
    }
    flush();
    const docs = out.docs.slice(0, out.n);
    const scores = out.vals.slice(0, out.n);
    for (let i = 0; i < scores.length; i++) scores[i] = idfSum * scores[i]!;
    return { docs, scores };
  }

  /**
   * (doc, field) entries of a term (with `forms`: of an analysed form) in live documents
   * and fields of `mask`, with positions; with `alive`, the live documents with it in any
   * field are pushed there.
   */
  readPositions(id: number, mask: number, forms = false, alive?: number[]): PositionList {
    // A search reads a word's positions once (its exact phrase, then the phrase of its forms)
    const key = `${forms ? 'a' : 't'}${id}`;
    let e = this.positions.get(key);
    if (e === undefined) {
      const docs: number[] = [];
      e = { list: this.decodePositions(id, forms, docs), alive: docs };
      this.positions.set(key, e);
    }
    if (alive !== undefined) for (const d of e.alive) alive.push(d);
    return onlyFields(e.list, mask);
  }

  /** Positions of a term (or form) read in this search, in every field, with its live documents. */
  private readonly positions = new Map<string, { list: PositionList; alive: number[] }>();

  private decodePositions(id: number, forms: boolean, alive: number[]): PositionList {
    const mask = 0xffffffff;
    const ix = this.ix;
    const r = (forms ? ix.analysed!.pool : ix.text).reader(id);
    const live = ix.live.array;
    const docs: number[] = [];
    const fields: number[] = [];
    const start: number[] = [0];
    const pos: number[] = [];
    let df = 0;
    while (!r.done) {
      const doc = r.readDelta();
      const nf = r.read();
      const isLive = live[doc] === 1;
      if (isLive) {
        df++;
        alive.push(doc);
      }
      for (let f = 0; f < nf; f++) {
        const x = r.read();
        const field = x & 31;
        const np = (x - field) / 32;
        const keep = isLive && ((mask >>> field) & 1) === 1;
        let at = 0;
        for (let p = 0; p < np; p++) {
          at += r.read();
          if (keep) pos.push(at);
        }
        if (keep) {
          docs.push(doc);
          fields.push(field);
          start.push(pos.length);
        }
      }
      this.deadline.tick();
    }
    return {
      n: docs.length,
      doc: Uint32Array.from(docs),
      field: Uint8Array.from(fields),
      start: Uint32Array.from(start),
      pos: Uint32Array.from(pos),
      df,
    };
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
      const out = ix.scratchPool.u32(Math.min(e.n, col.live.array[v]!));
      let k = 0;
      for (let i = 0; i < e.n; i++) {
        const d = e.docs[i]!;
        if (live[d] === 1) out[k++] = d;
      }
      this.deadline.tick(e.n);
      acc = acc.length === 0 ? out.subarray(0, k) : unionDocs(acc, out.subarray(0, k), ix.scratchPool.u32(acc.length + k));
    }
    return acc;
  }
}

/** The entries of a position list in the fields of `mask` (the list itself when it has no others). */
function onlyFields(l: PositionList, mask: number): PositionList {
  let all = true;
  for (let e = 0; e < l.n && all; e++) all = ((mask >>> l.field[e]!) & 1) === 1;
  if (all) return l;
  const doc: number[] = [];
  const field: number[] = [];
  const start: number[] = [0];
  const pos: number[] = [];
  for (let e = 0; e < l.n; e++) {
    if (((mask >>> l.field[e]!) & 1) === 0) continue;
    doc.push(l.doc[e]!);
    field.push(l.field[e]!);
    for (let q = l.start[e]!; q < l.start[e + 1]!; q++) pos.push(l.pos[q]!);
    start.push(pos.length);
  }
  return {
    n: doc.length,
    doc: Uint32Array.from(doc),
    field: Uint8Array.from(field),
    start: Uint32Array.from(start),
    pos: Uint32Array.from(pos),
    df: l.df,
  };
}

/**
 * The union of position lists (of the forms of one word, evaluate.ts): per (doc, field) the
 * union of their positions; `df` the number of distinct documents in `alive`.
 */
export function unionPositions(lists: readonly PositionList[], alive: readonly number[]): PositionList {
  const df = new Set(alive).size;
  if (lists.length === 1) return { ...lists[0]!, df };
  const entries: Array<{ doc: number; field: number; pos: number[] }> = [];
  const byKey = new Map<number, { doc: number; field: number; pos: number[] }>();
  for (const l of lists) {
    for (let e = 0; e < l.n; e++) {
      const k = l.doc[e]! * 32 + l.field[e]!;
      let x = byKey.get(k);
      if (x === undefined) {
        x = { doc: l.doc[e]!, field: l.field[e]!, pos: [] };
        byKey.set(k, x);
        entries.push(x);
      }
      for (let q = l.start[e]!; q < l.start[e + 1]!; q++) x.pos.push(l.pos[q]!);
    }
  }
  entries.sort((a, b) => a.doc - b.doc || a.field - b.field);
  const start = [0];
  const pos: number[] = [];
  for (const x of entries) {
    const sorted = [...new Set(x.pos)].sort((a, b) => a - b);
    for (const p of sorted) pos.push(p);
    start.push(pos.length);
  }
  return {
    n: entries.length,
    doc: Uint32Array.from(entries.map((x) => x.doc)),
    field: Uint8Array.from(entries.map((x) => x.field)),
    start: Uint32Array.from(start),
    pos: Uint32Array.from(pos),
    df,
  };
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

export interface PositionList {
  n: number;
  doc: Uint32Array;
  field: Uint8Array;
  start: Uint32Array;
  pos: Uint32Array;
  df: number;
}

function containsSorted(a: Uint32Array, lo: number, hi: number, x: number): boolean {
  hi--;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
