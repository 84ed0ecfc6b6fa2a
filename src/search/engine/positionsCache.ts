/**
 * Decoded positions of long term lists, kept between searches (docs/search-engine.md
 * "Phrases"): a phrase looks up the positions of its few candidate documents in them
 * (phrase.ts) instead of walking the term's whole list of postings with their positions,
 * which for a common word was most of a phrase's time. As postingsCache.ts: lists are
 * append-only and ordinals never reused, so an entry decodes only what was appended since
 * and never goes stale; liveness is the caller's; bounded in bytes, least recently used
 * first out; short lists are decoded per search and not kept.
 */
import type { Deadline } from './errors.js';
import type { ListReader } from './listPool.js';

/** Every (document, field) entry of a list with its positions, documents ascending. */
export interface DecodedPositions {
  /** Documents decoded so far. */
  n: number;
  docs: Uint32Array;
  /** Per document its first entry; first[n] = entries. */
  first: Uint32Array;
  entries: number;
  field: Uint8Array;
  /** Per entry its first position; start[entries] = positions. */
  start: Uint32Array;
  positions: number;
  pos: Uint32Array;
  reader: ListReader;
  /** The live documents among the first `n`, as of the index's `version` (phrase.ts keeps it). */
  df?: { version: number; n: number; live: number };
}

export class PositionsCache {
  private readonly entries = new Map<string, { entry: DecodedPositions; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly budget: number,
    private readonly minDocs: number,
  ) {}

  /** Bytes of the lists kept (their arrays' capacity). */
  get size(): number {
    return this.bytes;
  }

  /** Bytes the kept lists' contents take (≤ size: arrays keep room for what is appended). */
  get used(): number {
    let n = 0;
    for (const { entry: e } of this.entries.values()) n += 8 * e.n + 4 + 5 * e.entries + 4 + 4 * e.positions;
    return n;
  }

  /** The decoded positions of the list `reader` reads (a new reader: `fresh`), kept under `key` when long. */
  get(key: string, fresh: () => ListReader, deadline: Deadline): DecodedPositions {
    const kept = this.entries.get(key);
    let e: DecodedPositions;
    if (kept !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.bytes -= kept.bytes;
      e = kept.entry;
      e.reader.resume();
    } else {
      e = {
        n: 0,
        docs: new Uint32Array(16),
        first: new Uint32Array(17),
        entries: 0,
        field: new Uint8Array(16),
        start: new Uint32Array(17),
        positions: 0,
        pos: new Uint32Array(32),
        reader: fresh(),
      };
    }
    decodeMore(e, deadline, kept === undefined ? (len) => len * 2 : (len) => len + (len >>> 3) + 16);
    if (kept === undefined && e.n < this.minDocs) return e;
    trim(e);
    const bytes = e.docs.byteLength + e.first.byteLength + e.field.byteLength + e.start.byteLength + e.pos.byteLength;
    this.entries.set(key, { entry: e, bytes });
    this.bytes += bytes;
    for (const [k, x] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(k);
      this.bytes -= x.bytes;
    }
    return e;
  }
}

/**
 * Decodes what the list has beyond what `e` holds (SearchIndex.ts states the layout), arrays
 * grown to `more(length)`: doubled for a list decoded from its start, an eighth more for
 * what is appended to a kept one (trim()).
 */
function decodeMore(e: DecodedPositions, deadline: Deadline, more: (length: number) => number): void {
  const r = e.reader;
  let work = 0;
  while (!r.done) {
    const d = r.readDelta();
    const nf = r.read();
    if (e.n === e.docs.length) {
      const size = more(e.n);
      e.docs = grow(e.docs, size);
      e.first = grow(e.first, size + 1);
    }
    e.docs[e.n] = d;
    e.first[e.n] = e.entries;
    for (let f = 0; f < nf; f++) {
      const x = r.read();
      const fi = x & 31;
      const count = (x - fi) / 32;
      if (e.entries === e.field.length) {
        const size = more(e.entries);
        const field = new Uint8Array(size);
        field.set(e.field);
        e.field = field;
        e.start = grow(e.start, size + 1);
      }
      if (e.positions + count > e.pos.length) e.pos = grow(e.pos, Math.max(more(e.pos.length), e.positions + count));
      e.field[e.entries] = fi;
      e.start[e.entries++] = e.positions;
      let at = 0;
      for (let p = 0; p < count; p++) {
        at += r.read();
        e.pos[e.positions++] = at;
      }
    }
    e.n++;
    if (++work === 4096) {
      deadline.tick(work);
      work = 0;
    }
  }
  e.first[e.n] = e.entries;
  e.start[e.entries] = e.positions;
  deadline.tick(work);
}

/**
 * Capacity down to what is used where more than an eighth more is held (after a list was
 * decoded from its start, in doubling arrays): a cache of doubled arrays held half as many
 * lists, and at 1 M documents the common words of a phrase no longer fitted in it, so each
 * phrase decoded its words' lists afresh (docs/benchmarks.md "Phrases beside Xapian").
 */
function trim(e: DecodedPositions): void {
  const over = (length: number, used: number) => length > used + (used >>> 3) + 16;
  if (over(e.docs.length, e.n)) {
    e.docs = e.docs.slice(0, e.n);
    e.first = e.first.slice(0, e.n + 1);
  }
  if (over(e.field.length, e.entries)) {
    e.field = e.field.slice(0, e.entries);
    e.start = e.start.slice(0, e.entries + 1);
  }
  if (over(e.pos.length, e.positions)) e.pos = e.pos.slice(0, e.positions);
}

function grow(a: Uint32Array, size: number): Uint32Array {
  const b = new Uint32Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}
