/**
 * The occurrences of terms in one document, gathered in reusable typed arrays (no Map or
 * array per document) and written as postings (SearchIndex.ts states the layout), term by
 * term, with a counting sort that keeps them in field order, positions ascending. The index
 * has two: one for the folded terms, one for the analysed forms (analysis.ts).
 */
import { IdBuffer } from './analyzer.js';
import { Growable } from './growable.js';
import type { ListPool } from './listPool.js';

export class Occurrences {
  /** The distinct ids of the document, in order of first occurrence. */
  readonly distinct = new IdBuffer();
  slot = new Int32Array(1024);
  field = new Uint8Array(1024);
  pos = new Int32Array(1024);
  n = 0;
  private begin = new Int32Array(1024);
  private order = new Int32Array(1024);
  private fill = new Int32Array(1024);
  /** Per id: the ordinal + 1 that last saw it, and its slot in that document. */
  private readonly seen = new Growable(Int32Array);
  private readonly slotOf = new Growable(Int32Array);

  /** Starts a document. */
  clear(): void {
    this.n = 0;
    this.distinct.n = 0;
  }

  /** Room for `more` occurrences and ids below `ids`. */
  reserve(more: number, ids: number): void {
    const need = this.n + more;
    if (need > this.slot.length) {
      let size = this.slot.length;
      while (size < need) size *= 2;
      const slot = new Int32Array(size);
      slot.set(this.slot);
      const field = new Uint8Array(size);
      field.set(this.field);
      const pos = new Int32Array(size);
      pos.set(this.pos);
      this.slot = slot;
      this.field = field;
      this.pos = pos;
    }
    this.seen.ensure(ids);
    this.slotOf.ensure(ids);
  }

  /** One occurrence of `id` in document `ord` (after reserve()). */
  add(id: number, ord: number, field: number, pos: number): void {
    const seen = this.seen.array;
    const slotOf = this.slotOf.array;
    if (seen[id] !== ord + 1) {
      seen[id] = ord + 1;
      slotOf[id] = this.distinct.n;
      this.distinct.push(id);
    }
    const k = this.n++;
    this.slot[k] = slotOf[id]!;
    this.field[k] = field;
    this.pos[k] = pos;
  }

  /** Writes the document's postings to `pool`, counting each id once in `docs` when given. */
  write(ord: number, pool: ListPool, docs: Uint32Array | undefined): void {
    const n = this.n;
    const nd = this.distinct.n;
    if (this.begin.length < nd + 1) this.begin = new Int32Array((nd + 1) * 2);
    if (this.order.length < n) this.order = new Int32Array(n * 2);
    if (this.fill.length < nd) this.fill = new Int32Array(nd * 2);
    const begin = this.begin;
    const order = this.order;
    const fill = this.fill;
    const slotArr = this.slot;
    const fieldArr = this.field;
    const posArr = this.pos;
    // counting sort of the occurrences by slot (stable)
    begin.fill(0, 0, nd + 1);
    for (let k = 0; k < n; k++) begin[slotArr[k]! + 1]!++;
    for (let s = 0; s < nd; s++) begin[s + 1]! += begin[s]!;
    fill.set(begin.subarray(0, nd));
    for (let k = 0; k < n; k++) order[fill[slotArr[k]!]!++] = k;
    for (let s = 0; s < nd; s++) {
      const id = this.distinct.ids[s]!;
      const lo = begin[s]!;
      const hi = begin[s + 1]!;
      let fields = 0;
      for (let k = lo; k < hi; k++) if (k === lo || fieldArr[order[k]!] !== fieldArr[order[k - 1]!]) fields++;
      pool.pushDelta(id, ord);
      pool.push(id, fields);
      if (docs !== undefined) docs[id]!++;
      for (let k = lo; k < hi;) {
        const field = fieldArr[order[k]!]!;
        let e = k;
        while (e < hi && fieldArr[order[e]!] === field) e++;
        pool.push(id, (e - k) * 32 + field);
        let prev = 0;
        for (let m = k; m < e; m++) {
          const p = posArr[order[m]!]!;
          pool.push(id, p - prev);
          prev = p;
        }
        k = e;
      }
    }
  }
}
