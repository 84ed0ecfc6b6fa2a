/**
 * Dense bitsets of long facet values, kept between searches (measured in the bench: a very
 * common word with a filter on a common sector read the sector of each of 553,000 hits,
 * 22 % of the search).
 *
 * Bit d of a value's set is 1 when ordinal d was ever given the value, live or not: a
 * value's postings are append-only and ordinals are never reused (SearchIndex.ts), so a set
 * never goes stale; it reads only what was appended since, and liveness is the caller's
 * (the hits it tests are live). A set costs ordinals / 8 bytes (137 KB at 1.1 M), less than
 * the value's decoded postings once it has more than ordinals / 32 of them; shorter values
 * are not given one (`worth`). Sets are bounded in bytes, least recently used first out.
 */
import type { Deadline } from './errors.js';
import type { FacetColumn } from './facetColumn.js';
import type { ListReader } from './listPool.js';

interface Entry {
  bits: Uint32Array;
  reader: ListReader;
}

export class FacetBits {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /**
   * `budget`: bytes kept; `minPostings`: a value needs at least this many live documents,
   * and at least one ordinal in 64, to be given a set; `minHits`: fewer hits than this are
   * filtered by reading their values (Evaluator.filter), without asking for a set.
   */
  constructor(
    private readonly budget: number,
    private readonly minPostings: number,
    readonly minHits: number,
  ) {}

  /** Whether a value with `live` live documents among `ordinals` is given a set. */
  worth(live: number, ordinals: number): boolean {
    return live >= Math.max(this.minPostings, ordinals >>> 6);
  }

  /** The set of value `v` of facet `f` (`col`), covering at least `ordinals` ordinals. Read only. */
  get(f: number, v: number, col: FacetColumn, ordinals: number, deadline: Deadline): Uint32Array {
    const key = `${f}:${v}`;
    const words = (ordinals + 31) >>> 5;
    let e = this.entries.get(key);
    if (e) {
      // most recently used last
      this.entries.delete(key);
      this.bytes -= e.bits.byteLength;
    } else {
      e = { bits: new Uint32Array(words + (words >>> 3)), reader: col.postings.reader(v) };
    }
    if (e.bits.length < words) {
      const grown = new Uint32Array(words + (words >>> 3));
      grown.set(e.bits);
      e.bits = grown;
    }
    const bits = e.bits;
    const r = e.reader;
    r.resume();
    let n = 0;
    while (!r.done) {
      const d = r.readDelta();
      bits[d >>> 5]! |= 1 << (d & 31);
      if ((++n & 4095) === 0) deadline.tick(4096);
    }
    deadline.tick(n & 4095);
    if (bits.byteLength <= this.budget) {
      this.entries.set(key, e);
      this.bytes += bits.byteLength;
      for (const [k, old] of this.entries) {
        if (this.bytes <= this.budget) break;
        this.entries.delete(k);
        this.bytes -= old.bits.byteLength;
      }
    }
    return bits;
  }

  /** Bytes kept. */
  get size(): number {
    return this.bytes;
  }
}

/** Whether bit `d` of `bits` is set (a set shorter than `d` has it clear). */
export function hasBit(bits: Uint32Array, d: number): boolean {
  return ((bits[d >>> 5] ?? 0) >>> (d & 31)) & 1 ? true : false;
}
