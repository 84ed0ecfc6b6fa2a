/**
 * A sorted set of strings as front-coded blocks of UTF-8 bytes, with the id of each: the
 * part of a dictionary (dictionary.ts) that an index image holds, viewed in place where the
 * image lies (in shared memory for every search thread of a process: docs/search-engine.md
 * "One copy per node"), never decoded into JS strings as a whole.
 *
 * Layout (sections of an image, indexImage.ts):
 * - `bytes`: blocks of BLOCK strings in code point order (UTF-8 byte order is code point
 *   order). Each string is `shared, rest, rest bytes` (varints): the bytes it shares with the
 *   string before it in its block, and what follows. The first of a block shares nothing, so
 *   a block decodes alone.
 * - `heads`: the byte offset of each block, and the end (blocks + 1).
 * - `order`: per position in the sorted order, the string's id.
 * - `position`: per id, its position in the sorted order (id → string).
 *
 * A lookup is a binary search over the blocks' first strings, compared in place with the
 * word's bytes, then a walk of one block. Why: the vocabulary as JS strings, a Map of them and
 * two sorted arrays cost about 100 bytes a term beyond its text in every thread's heap
 * (docs/benchmarks.md "Note: dictionaries in shared memory"); this costs about 8 bytes a
 * term beyond the front-coded text, once per process.
 */
import { stringOfUnits, utf16OfUtf8, utf8OfUnits, wellFormed, type Units } from './codeUnits.js';
import { compareCodePoints } from './order.js';
import type { SortedRun } from './sortedRun.js';

/** Strings per block: a lookup decodes at most this many; the heads cost 4 bytes per block. */
export const BLOCK = 16;

/** How far a decoding of the blocks has come: the string decoded last and where the next begins. */
class Cursor {
  /** The string decoded last, as UTF-8 bytes `buf[0, len)`; the next one shares a prefix of them. */
  buf: Buffer = Buffer.alloc(256);
  len = 0;
  /** The byte offset where reading goes on (after the string decoded last, or inside a head). */
  at = 0;
  /** Whether `buf[0, len)` is ASCII (then a byte is a code unit). */
  ascii = true;
  /** The position of the string decoded last (walks only; -1 before block 0). */
  pos = -1;
}

export class FrontCoded implements SortedRun {
  static readonly EMPTY = new FrontCoded(new Uint8Array(0), Uint32Array.of(0), new Uint32Array(0), new Uint32Array(0));

  /** Lookups' decoding (find, bounds, prefixes, by id). */
  private readonly main = new Cursor();
  /** unitsAt's own decoding, so that a walk goes on in order across the lookups it makes (nearTerms.ts). */
  private readonly walk = new Cursor();
  /** The query, as UTF-8 bytes; grown when too short. */
  private q: Buffer = Buffer.alloc(256);
  private qLength = 0;
  /** The last block decoded whole into strings (sequential reads: a walk, a prefix). */
  private cachedBlock = -1;
  private readonly cached: string[] = [];

  constructor(
    readonly bytes: Uint8Array,
    readonly heads: Uint32Array,
    readonly order: Uint32Array,
    readonly position: Uint32Array,
  ) {
    const n = order.length;
    if (heads.length !== Math.ceil(n / BLOCK) + 1 || position.length !== n || heads[heads.length - 1] !== bytes.length)
      throw new RangeError(
        `front-coded strings: ${n} strings, ${heads.length} heads, ${position.length} positions, ${bytes.length} bytes do not fit`,
      );
  }

  get length(): number {
    return this.order.length;
  }

  private readVarint(c: Cursor): number {
    const b = this.bytes;
    let at = c.at;
    let v = 0;
    let shift = 0;
    for (;;) {
      const x = b[at++]!;
      v += (x & 0x7f) * 2 ** shift;
      if (x < 0x80) break;
      shift += 7;
    }
    c.at = at;
    return v;
  }

  /**
   * Decodes the next string of a block into `c` (whose first bytes hold the one before); its
   * length. Byte by byte: the strings are short, and Buffer's copy and write cost more per call
   * than these loops do per string (measured on the spellchecker's walk).
   */
  private next(c: Cursor = this.main): number {
    const shared = this.readVarint(c);
    const rest = this.readVarint(c);
    const len = shared + rest;
    if (len > c.buf.length) {
      const grown = Buffer.alloc(Math.max(len, c.buf.length * 2));
      grown.set(c.buf.subarray(0, shared));
      c.buf = grown;
    }
    const b = this.bytes;
    const d = c.buf;
    let at = c.at;
    let ascii = shared === 0 || c.ascii;
    for (let i = shared; i < len; i++) {
      const x = b[at++]!;
      d[i] = x;
      if (x >= 0x80) ascii = false;
    }
    c.at = at;
    c.ascii = ascii;
    c.len = len;
    return len;
  }

  /** The string in the main cursor's `buf[0, len)`. */
  private decode(len: number): string {
    const c = this.main.buf;
    if (this.main.ascii && len <= 32) {
      let s = '';
      for (let i = 0; i < len; i++) s += String.fromCharCode(c[i]!);
      return s;
    }
    return c.toString('utf8', 0, len);
  }

  /** Puts `s` as UTF-8 into `q`. */
  private query(s: string): void {
    const n = s.length;
    if (n * 3 > this.q.length) this.q = Buffer.alloc(n * 3 + 64);
    const q = this.q;
    for (let i = 0; i < n; i++) {
      const x = s.charCodeAt(i);
      if (x >= 0x80) {
        this.qLength = q.write(s, 0, 'utf8');
        return;
      }
      q[i] = x;
    }
    this.qLength = n;
  }

  /** Puts `units[0, n)` as UTF-8 into `q`; false (and `q` undefined) if they hold a lone surrogate, which has no UTF-8. */
  private queryUnits(units: Uint16Array, n: number): boolean {
    if (n * 3 > this.q.length) this.q = Buffer.alloc(n * 3 + 64);
    this.qLength = utf8OfUnits(units, n, this.q);
    return this.qLength >= 0;
  }

  /** Block k's first string compared with the query's first `limit` bytes (the whole query by default). */
  private compareHead(k: number, limit = this.qLength): number {
    const c = this.main;
    c.at = this.heads[k]!;
    this.readVarint(c); // shares nothing
    const len = this.readVarint(c);
    const at = c.at;
    const n = Math.min(len, limit);
    const b = this.bytes;
    const q = this.q;
    for (let i = 0; i < n; i++) {
      const d = b[at + i]! - q[i]!;
      if (d !== 0) return d;
    }
    return len >= limit ? 0 : len - limit;
  }

  /** The main cursor's `buf[0, len)` compared with the query's first `limit` bytes. */
  private compareCur(len: number, limit = this.qLength): number {
    const n = Math.min(len, limit);
    const c = this.main.buf;
    const q = this.q;
    for (let i = 0; i < n; i++) {
      const d = c[i]! - q[i]!;
      if (d !== 0) return d;
    }
    return len >= limit ? 0 : len - limit;
  }

  /**
   * The last block whose first string, cut to the query's first `limit` bytes, is below the
   * query (`strict`) or not above it (-1: none). Cut strings keep the order, so the blocks
   * that qualify come first.
   */
  private lastBlock(limit: number, strict: boolean): number {
    let lo = 0;
    let hi = this.heads.length - 1; // blocks
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compareHead(mid, limit);
      if (strict ? c < 0 : c <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** The id of `s`, if it is one of the strings. */
  find(s: string): number | undefined {
    const n = this.order.length;
    // no term holds a lone surrogate (fold.ts takes letters and digits), and UTF-8 has none
    if (n === 0 || !wellFormed(s)) return undefined;
    this.query(s);
    const q = this.qLength;
    // the first string not below s is in the last block whose head is below s, or heads the next
    const k = this.lastBlock(q, true);
    if (k >= 0) {
      this.main.at = this.heads[k]!;
      const end = Math.min(n, (k + 1) * BLOCK);
      for (let i = k * BLOCK; i < end; i++) {
        const len = this.next();
        // 0: the string starts with s (cut to s's length it is s), so it is s or above it
        if (this.compareCur(len, q) >= 0) return this.compareCur(len, q) === 0 && len === q ? this.order[i] : undefined;
      }
    }
    if ((k + 1) * BLOCK >= n) return undefined;
    this.main.at = this.heads[k + 1]!;
    const len = this.next();
    return len === q && this.compareCur(len, q) === 0 ? this.order[(k + 1) * BLOCK] : undefined;
  }

  lowerBound(s: string): number {
    if (this.order.length === 0) return 0;
    if (!wellFormed(s)) {
      // a lone surrogate has no UTF-8 bytes (a prefix cut inside a code point): by the strings
      let lo = 0;
      let hi = this.order.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareCodePoints(this.at(mid), s) < 0) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
    this.query(s);
    return this.boundIn(this.lastBlock(this.qLength, true), this.qLength, false);
  }

  /**
   * From the second string of block k on, the first position whose string cut to `limit`
   * bytes is above the query (`past`) or not below it; (k + 1)·BLOCK (at most the count)
   * when none is. Block k is the last whose head is below the query (for not below) or not
   * above it (for above), so the answer is never before it.
   */
  private boundIn(k: number, limit: number, past: boolean): number {
    if (k < 0) return 0;
    this.main.at = this.heads[k]!;
    const end = Math.min(this.order.length, (k + 1) * BLOCK);
    for (let i = k * BLOCK; i < end; i++) {
      const c = this.compareCur(this.next(), limit);
      if (past ? c > 0 : c >= 0) return i;
    }
    return end;
  }

  prefixEnd(from: number, p: string, end: number): number {
    if (!wellFormed(p)) {
      // a prefix cut inside a code point is no prefix of bytes: by the strings (rare: folded terms are almost all BMP)
      let lo = from;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.at(mid).startsWith(p)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
    if (from >= end) return from;
    this.query(p);
    return this.queryPrefixEnd(from, end);
  }

  prefixEndUnits(from: number, units: Uint16Array, n: number, end: number): number {
    if (from >= end) return from;
    if (!this.queryUnits(units, n)) return this.prefixEnd(from, stringOfUnits(units, n), end);
    return this.queryPrefixEnd(from, end);
  }

  /** prefixEnd for the prefix in `q` (well-formed, so a prefix of bytes), from < end. */
  private queryPrefixEnd(from: number, end: number): number {
    const limit = this.qLength;
    // First within from's block, walked in bytes: a walk's skips are mostly short (nearTerms.ts).
    const k = (from / BLOCK) | 0;
    const blockEnd = Math.min(end, (k + 1) * BLOCK);
    this.main.at = this.heads[k]!;
    let i = k * BLOCK;
    for (; i < blockEnd; i++) {
      const len = this.next();
      if (i >= from && this.compareCur(len, limit) !== 0) break;
    }
    if (i < blockEnd || i >= end) return i;
    // The run goes on past block k: gallop over the next blocks' heads, then bisect, then walk one block.
    const blocks = this.heads.length - 1;
    let lo = k; // the last block known to have its head not above p (cut to p's length)
    let hi = k + 1;
    for (let step = 1; hi < blocks && this.compareHead(hi, limit) <= 0; step *= 2) {
      lo = hi;
      hi = Math.min(blocks, k + 1 + step * 2);
    }
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (this.compareHead(mid, limit) <= 0) lo = mid;
      else hi = mid;
    }
    return Math.min(Math.max(this.boundIn(lo, limit, true), from), end);
  }

  /** The string at position `i` (its block decoded whole and kept: walks read on in order). */
  at(i: number): string {
    const k = (i / BLOCK) | 0;
    if (k !== this.cachedBlock) {
      this.main.at = this.heads[k]!;
      const end = Math.min(this.order.length, (k + 1) * BLOCK);
      for (let j = k * BLOCK, n = 0; j < end; j++, n++) {
        const len = this.next();
        this.cached[n] = this.decode(len);
      }
      this.cachedBlock = k;
    }
    return this.cached[i - k * BLOCK]!;
  }

  unitsAt(i: number, out: Units): number {
    const w = this.walk;
    const first = ((i / BLOCK) | 0) * BLOCK;
    // on from the string decoded last when it lies before i in i's block (or ends the block before)
    if (w.pos > i || w.pos < first - 1) {
      w.at = this.heads[first / BLOCK]!;
      w.pos = first - 1;
    }
    for (; w.pos < i; w.pos++) this.next(w);
    return utf16OfUtf8(w.buf, w.len, w.ascii, out);
  }

  /** The string of id `id`: decoded up to its position only, unless its block is at hand. */
  stringOf(id: number): string {
    const i = this.position[id]!;
    const k = (i / BLOCK) | 0;
    if (k === this.cachedBlock) return this.cached[i - k * BLOCK]!;
    this.main.at = this.heads[k]!;
    let len = 0;
    for (let j = k * BLOCK; j <= i; j++) len = this.next();
    return this.decode(len);
  }

  /** The UTF-8 bytes of the string at position `i` into `out` from 0 (grown if need be); their length. */
  bytesAt(i: number, out: { buf: Buffer }): number {
    const k = (i / BLOCK) | 0;
    this.main.at = this.heads[k]!;
    let len = 0;
    for (let j = k * BLOCK; j <= i; j++) len = this.next();
    if (out.buf.length < len) out.buf = Buffer.alloc(Math.max(len, out.buf.length * 2));
    out.buf.set(this.main.buf.subarray(0, len));
    return len;
  }
}
