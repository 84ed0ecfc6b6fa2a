/**
 * Writes the strings of a dictionary's image as front-coded blocks (frontCoded.ts describes
 * the layout).
 */
import { BLOCK, FrontCoded } from './frontCoded.js';

/** Writes strings, given in code point order with their ids, as a FrontCoded's arrays. */
export class FrontCodedBuilder {
  private bytes = new Uint8Array(1 << 16);
  private size = 0;
  private readonly heads: Uint32Array;
  private readonly order: Uint32Array;
  private readonly position: Uint32Array;
  private prev = new Uint8Array(256);
  private prevLength = 0;
  private count = 0;

  constructor(private readonly n: number) {
    this.heads = new Uint32Array(Math.ceil(n / BLOCK) + 1);
    this.order = new Uint32Array(n);
    this.position = new Uint32Array(n);
  }

  private room(extra: number): void {
    if (this.size + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.size + extra, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }

  private varint(v: number): void {
    while (v >= 0x80) {
      this.bytes[this.size++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.bytes[this.size++] = v;
  }

  /** The next string (bytes `s[0, len)`, not below the one before) and its id. */
  push(s: Uint8Array, len: number, id: number): void {
    const i = this.count++;
    if (i >= this.n) throw new RangeError(`front-coded strings: more than ${this.n}`);
    let shared = 0;
    if (i % BLOCK === 0) this.heads[i / BLOCK] = this.size;
    else {
      const m = Math.min(len, this.prevLength);
      while (shared < m && s[shared] === this.prev[shared]) shared++;
    }
    this.room(len - shared + 10);
    this.varint(shared);
    this.varint(len - shared);
    this.bytes.set(s.subarray(shared, len), this.size);
    this.size += len - shared;
    if (len > this.prev.length) this.prev = new Uint8Array(Math.max(len, this.prev.length * 2));
    this.prev.set(s.subarray(0, len));
    this.prevLength = len;
    this.order[i] = id;
    if (id >= this.n || id < 0) throw new RangeError(`front-coded strings: id ${id} of ${this.n}`);
    this.position[id] = i;
  }

  finish(): FrontCoded {
    if (this.count !== this.n) throw new RangeError(`front-coded strings: ${this.count} of ${this.n}`);
    this.heads[this.heads.length - 1] = this.size;
    return new FrontCoded(this.bytes.slice(0, this.size), this.heads, this.order, this.position);
  }
}
