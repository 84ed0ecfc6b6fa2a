/**
 * Hits (sorted live ordinals with their scores) and the set algebra over them: AND, OR and
 * NOT of a query (evaluate.ts) with scores added.
 */

import type { ScratchPool } from './scratchPool.js';

export interface Hits {
  docs: Uint32Array;
  /** Parallel to docs; null when the sort needs no scores. */
  scores: Float64Array | null;
}

export const EMPTY_DOCS: Uint32Array = new Uint32Array(0);

let zeroBuffer = new Float64Array(1024);

/** n zero scores, shared: score arrays are never written once made. */
export function zeros(n: number): Float64Array {
  if (zeroBuffer.length < n) zeroBuffer = new Float64Array(Math.max(n, zeroBuffer.length * 2));
  return zeroBuffer.subarray(0, n);
}

/** Whether `a` was made by zeros() (then every score is 0, without reading them). */
export function isZeros(a: Float64Array): boolean {
  return a.buffer === zeroBuffer.buffer;
}

export function allZero(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== 0) return false;
  return true;
}

/** Growable scratch lists, reused within one search; grown from `pool` when given (scratchPool.ts). */
export class Scratch {
  docs: Uint32Array = new Uint32Array(1024);
  vals: Float64Array = new Float64Array(1024);
  n = 0;
  constructor(private readonly pool?: ScratchPool) {}
  /** Room for `extra` more entries. */
  reserve(extra: number): void {
    if (this.n + extra <= this.docs.length) return;
    const size = Math.max(this.n + extra, this.docs.length * 2);
    const d = this.pool ? this.pool.u32(size) : new Uint32Array(size);
    d.set(this.docs.subarray(0, this.n));
    this.docs = d;
    const s = this.pool ? this.pool.f64(size) : new Float64Array(size);
    s.set(this.vals.subarray(0, this.n));
    this.vals = s;
  }
  push(doc: number, v: number): void {
    if (this.n === this.docs.length) this.reserve(1);
    this.docs[this.n] = doc;
    this.vals[this.n++] = v;
  }
}

/**
 * a AND b. With `pool`, the result's arrays are the search's scratch arrays
 * (scratchPool.ts): the merges of an OR of common words made megabytes of garbage per search.
 */
export function intersectHits(a: Hits, b: Hits, scoring: boolean, pool?: ScratchPool): Hits {
  const n = Math.min(a.docs.length, b.docs.length);
  const docs = pool ? pool.u32(n) : new Uint32Array(n);
  const scores = scoring ? (pool ? pool.f64(n) : new Float64Array(n)) : null;
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.docs.length && j < b.docs.length) {
    const x = a.docs[i]!;
    const y = b.docs[j]!;
    if (x < y) i++;
    else if (y < x) j++;
    else {
      if (scores) scores[k] = a.scores![i]! + b.scores![j]!;
      docs[k++] = x;
      i++;
      j++;
    }
  }
  return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
}

/** a OR b (`pool` as for intersectHits). */
export function unionHits(a: Hits, b: Hits, scoring: boolean, pool?: ScratchPool): Hits {
  const n = a.docs.length + b.docs.length;
  const docs = pool ? pool.u32(n) : new Uint32Array(n);
  const scores = scoring ? (pool ? pool.f64(n) : new Float64Array(n)) : null;
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.docs.length || j < b.docs.length) {
    const x = i < a.docs.length ? a.docs[i]! : Infinity;
    const y = j < b.docs.length ? b.docs[j]! : Infinity;
    if (x < y) {
      if (scores) scores[k] = a.scores![i]!;
      docs[k++] = x;
      i++;
    } else if (y < x) {
      if (scores) scores[k] = b.scores![j]!;
      docs[k++] = y;
      j++;
    } else {
      if (scores) scores[k] = a.scores![i]! + b.scores![j]!;
      docs[k++] = x;
      i++;
      j++;
    }
  }
  return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
}

/** a AND NOT b (scores of a; `pool` as for intersectHits). */
export function differenceHits(a: Hits, b: Hits, scoring: boolean, pool?: ScratchPool): Hits {
  const n = a.docs.length;
  const docs = pool ? pool.u32(n) : new Uint32Array(n);
  const scores = scoring ? (pool ? pool.f64(n) : new Float64Array(n)) : null;
  let j = 0;
  let k = 0;
  for (let i = 0; i < a.docs.length; i++) {
    const x = a.docs[i]!;
    while (j < b.docs.length && b.docs[j]! < x) j++;
    if (j < b.docs.length && b.docs[j] === x) continue;
    if (scores) scores[k] = a.scores![i]!;
    docs[k++] = x;
  }
  return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
}

/** a OR b, into `out` (room for a.length + b.length); returns the part of `out` written. */
export function unionDocs(a: Uint32Array, b: Uint32Array, out: Uint32Array): Uint32Array {
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    out[k++] = x <= y ? x : y;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out.subarray(0, k);
}
