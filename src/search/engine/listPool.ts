/**
 * Many append-only lists of varint-encoded unsigned integers in one pool of bytes: the
 * postings of every term and of every facet value, compact at a million documents
 * (docs/search-engine.md "Memory layout").
 *
 * The classic layout (as Lucene's in-memory indexing): each list is a chain of blocks in
 * big byte chunks; a list's first block is small (16 bytes) and each next one twice as big,
 * up to 32 KiB, so rare terms cost little and common terms few hops. The last 4 bytes of a
 * block hold the address of the next one. Per list, typed arrays keep its head, where the
 * next byte goes (tail), where the current block ends, and the block level; there is no JS
 * object per list or per posting. Numbers are LEB128 varints (7 bits a byte), so small
 * deltas (the usual case) take one byte.
 *
 * Addresses (docs/search-engine.md "Memory layout"): every block starts at a multiple of 16
 * bytes (its sizes are), so a link and a list's head name a block by its 16-byte slot in 32
 * bits, which reaches 64 GiB; the tails and block ends are byte addresses in Float64Arrays
 * (exact to 2^53). A pool of byte addresses in 32 bits stopped at 4 GiB, the item postings
 * of about 30 M items. A reader keeps its place relative to its chunk (a block never crosses
 * one), so its loop works on small integers whatever the address.
 */
import { Growable } from './growable.js';
import type { ImageSink, ImageSource } from './indexImage.js';

const CHUNK_BITS = 22; // 4 MiB chunks
const CHUNK = 1 << CHUNK_BITS;
const MAX_LEVEL = 11; // 16 << 11 = 32 KiB
const sizeOf = (level: number) => 16 << level;
/** Bytes of a slot: the unit of a block's address. */
const SLOT = 16;
/** Chunks a pool addresses with 32-bit slot numbers: 64 GiB. */
const MAX_CHUNKS = (2 ** 32 * SLOT) / CHUNK;
const POOL_FULL =
  'the search index holds 64 GiB of postings in one pool, all that 32-bit block addresses reach: docs/search-engine.md "Not done yet"';
/** The chunk of a byte address. */
const chunkOf = (at: number) => Math.floor(at / CHUNK);
/** Stands for the chunks below a pool's first (`ListPool` of a `firstChunk`, for tests). */
const NO_CHUNK = new Uint8Array(0);

export class ListPool {
  private chunks: Uint8Array[] = [];
  /** Next free byte address; the first slot is never a block (slot 0 means "none"). */
  private top = SLOT;
  /** Per list: the slot of its first block. */
  private readonly head = new Growable(Uint32Array);
  /** Per list: the byte address where its next byte goes. */
  private readonly tail = new Growable(Float64Array);
  /** Per list: the byte address of its current block's link (its last 4 bytes). */
  private readonly end = new Growable(Float64Array);
  private readonly level = new Growable(Uint8Array);
  /** Last value written with `pushDelta` per list (delta encoding of ascending numbers). */
  private readonly last = new Growable(Uint32Array);
  private lists = 0;
  /**
   * Per chunk, 1 while it is a view of shared memory (restored from a shared image:
   * docs/search-engine.md "One copy per process"); such a chunk is copied before the first
   * write into it (the tail of a list whose block lies in it), so the shared bytes never change.
   * Null when no chunk is shared.
   */
  private shared: Uint8Array | null = null;

  /**
   * `firstChunk`: the pool's first block goes into that chunk, the ones below stand empty. Only
   * tests give it, to write and read at addresses past 4 GiB without holding 4 GiB.
   */
  constructor(private readonly firstChunk = 0) {
    if (firstChunk > 0) {
      this.chunks = new Array<Uint8Array>(firstChunk).fill(NO_CHUNK);
      this.top = firstChunk * CHUNK;
    }
  }

  get count(): number {
    return this.lists;
  }

  /** Bytes held by the pool and its per-list columns. */
  get bytes(): number {
    return (this.chunks.length - this.firstChunk) * CHUNK + this.head.array.byteLength * 6 + this.level.array.byteLength;
  }

  /**
   * The pool into an image (indexImage.ts): bytes below `top` and a list's bytes below its
   * tail are never written again, so the chunks are read by the writer later; the per-list
   * tails, ends, levels and last values change, and are copied.
   */
  image(sink: ImageSink, p: string): void {
    sink.value(`${p}.top`, this.top);
    sink.value(`${p}.lists`, this.lists);
    sink.value(`${p}.chunks`, this.chunks.length);
    sink.view(`${p}.head`, this.head.array, this.lists);
    sink.copy(`${p}.tail`, this.tail.array, this.lists);
    sink.copy(`${p}.end`, this.end.array, this.lists);
    sink.copy(`${p}.level`, this.level.array, this.lists);
    sink.copy(`${p}.last`, this.last.array, this.lists);
    sink.chunks(`${p}.bytes`, this.chunks, this.top - (this.chunks.length - 1) * CHUNK);
  }

  /** The pool of an image (into an empty pool). */
  restore(source: ImageSource, p: string): void {
    const count = source.value<number>(`${p}.chunks`);
    this.chunks = source.chunks(`${p}.bytes`, new Array<number>(count).fill(CHUNK));
    // The last chunk is a private copy (ImageSource.chunks): appends go there. Replicas write
    // the tails of lists in shared chunks in place, each the same bytes (ImageSource.replicated).
    this.shared = source.shared && !source.replicated && count > 1 ? new Uint8Array(count).fill(1, 0, count - 1) : null;
    this.top = source.value<number>(`${p}.top`);
    this.lists = source.value<number>(`${p}.lists`);
    this.head.restore(source.typed(`${p}.head`, 'u32'));
    for (const [column, name, type] of [
      [this.tail, 'tail', 'f64'],
      [this.end, 'end', 'f64'],
      [this.level, 'level', 'u8'],
      [this.last, 'last', 'u32'],
    ] as const) {
      const { array, lent } = source.lent(`${p}.${name}`, type);
      (column as Growable<typeof array>).restore(array, lent);
    }
  }

  /** A new, empty list; its id. */
  create(): number {
    const id = this.lists++;
    const block = this.alloc(0);
    this.head.set(id, block / SLOT);
    this.tail.set(id, block);
    this.end.set(id, block + sizeOf(0) - 4);
    this.level.set(id, 0);
    this.last.set(id, 0);
    return id;
  }

  /** Chunk `i`, to write into: a shared one is copied first. */
  private writable(i: number): Uint8Array {
    const shared = this.shared;
    if (shared !== null && i < shared.length && shared[i] === 1) {
      this.chunks[i] = this.chunks[i]!.slice();
      shared[i] = 0;
    }
    return this.chunks[i]!;
  }

  /** A new block of `level`: its byte address (a multiple of SLOT). */
  private alloc(level: number): number {
    const size = sizeOf(level);
    // a block never crosses a chunk: start a new chunk when the current one is full or absent
    const c = chunkOf(this.top);
    if (c >= this.chunks.length || this.top - c * CHUNK + size > CHUNK) {
      // A link is a 32-bit slot number: a pool stops at 64 GiB (docs/search-engine.md "Not done
      // yet"). Past it, an address would wrap around onto other lists: refused instead.
      if (this.chunks.length + 1 > MAX_CHUNKS) throw new RangeError(POOL_FULL);
      this.chunks.push(new Uint8Array(CHUNK));
      this.top = (this.chunks.length - 1) * CHUNK + (this.chunks.length === 1 ? SLOT : 0);
    }
    const at = this.top;
    this.top += size;
    return at;
  }

  private writeByte(list: number, b: number): void {
    const tail = this.tail.own();
    let at = tail[list]!;
    if (at === this.end.array[list]) {
      const level = Math.min(this.level.array[list]! + 1, MAX_LEVEL);
      const next = this.alloc(level);
      this.writeLink(at, next / SLOT);
      this.level.own()[list] = level;
      this.end.own()[list] = next + sizeOf(level) - 4;
      at = next;
    }
    const c = chunkOf(at);
    this.writable(c)[at - c * CHUNK] = b;
    tail[list] = at + 1;
  }

  /** Writes the slot of a block's next block into its last 4 bytes, at byte address `at`. */
  private writeLink(at: number, slot: number): void {
    const i = chunkOf(at);
    const c = this.writable(i);
    const o = at - i * CHUNK;
    c[o] = slot & 0xff;
    c[o + 1] = (slot >>> 8) & 0xff;
    c[o + 2] = (slot >>> 16) & 0xff;
    c[o + 3] = slot >>> 24;
  }

  /** Appends an unsigned integer (< 2^32). */
  push(list: number, value: number): void {
    let v = value >>> 0;
    const tail = this.tail.own();
    const at = tail[list]!;
    if (this.end.array[list]! - at >= 5) {
      // fast path: the whole varint fits in the current block
      const i = chunkOf(at);
      const c = this.writable(i);
      const o0 = at - i * CHUNK;
      let o = o0;
      while (v >= 0x80) {
        c[o++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      c[o++] = v;
      tail[list] = at + (o - o0);
      return;
    }
    while (v >= 0x80) {
      this.writeByte(list, (v & 0x7f) | 0x80);
      v >>>= 7;
    }
    this.writeByte(list, v);
  }

  /** Appends `value - previous pushDelta value` (values must not decrease). */
  pushDelta(list: number, value: number): void {
    this.push(list, value - this.last.array[list]!);
    this.last.own()[list] = value;
  }

  /** A reader positioned at the start of the list; reuse it with `reset` to avoid garbage. */
  reader(list: number): ListReader {
    const r = new ListReader(this);
    r.reset(list);
    return r;
  }

  /** @internal Chunk `i`. */
  chunk(i: number): Uint8Array {
    return this.chunks[i]!;
  }

  /** @internal The byte address of the block a link at `offset` of chunk `i` names. */
  next(i: number, offset: number): number {
    const c = this.chunks[i]!;
    return ((c[offset]! | (c[offset + 1]! << 8) | (c[offset + 2]! << 16) | (c[offset + 3]! << 24)) >>> 0) * SLOT;
  }

  /** @internal The byte address of a list's first block. */
  headOf(list: number): number {
    return this.head.array[list]! * SLOT;
  }

  /** @internal */
  tailOf(list: number): number {
    return this.tail.array[list]!;
  }
}

/**
 * Reads one list front to back. `done` is true once every value has been read. Its place is
 * an offset into the chunk of the current block (`buf`), which a block never leaves.
 */
export class ListReader {
  private buf: Uint8Array = NO_CHUNK;
  /** The chunk `buf` is. */
  private index = 0;
  private pos = 0;
  /** Offset in `buf` of the current block's link. */
  private blockEnd = 0;
  private level = 0;
  /** Offset in `buf` where the list ends, or -1 when it ends in another chunk. */
  private stop = -1;
  /** The chunk and offset where the list ends. */
  private stopChunk = 0;
  private stopOffset = 0;
  private acc = 0;
  private list = 0;

  constructor(private readonly pool: ListPool) {}

  /** Lets a reader that is done go on with what was appended to its list since (append-only). */
  resume(): void {
    this.setStop(this.pool.tailOf(this.list));
    // The block's chunk may have been copied since (a shared chunk written into): read the copy.
    if (this.pos < this.blockEnd) this.buf = this.pool.chunk(this.index);
  }

  reset(list: number): void {
    this.list = list;
    this.level = 0;
    this.acc = 0;
    this.setStop(this.pool.tailOf(list));
    this.enter(this.pool.headOf(list));
  }

  private setStop(tail: number): void {
    const c = chunkOf(tail);
    this.stopChunk = c;
    this.stopOffset = tail - c * CHUNK;
    this.stop = c === this.index ? this.stopOffset : -1;
  }

  /** Moves to the block at byte address `at` (of the current level). */
  private enter(at: number): void {
    const c = chunkOf(at);
    this.index = c;
    this.buf = this.pool.chunk(c);
    this.pos = at - c * CHUNK;
    this.blockEnd = this.pos + sizeOf(this.level) - 4;
    this.stop = c === this.stopChunk ? this.stopOffset : -1;
  }

  get done(): boolean {
    return this.pos === this.stop;
  }

  private byte(): number {
    if (this.pos === this.blockEnd) {
      const next = this.pool.next(this.index, this.blockEnd);
      this.level = Math.min(this.level + 1, MAX_LEVEL);
      this.enter(next);
    }
    return this.buf[this.pos++]!;
  }

  /** The next value; only call when not `done`. */
  read(): number {
    let b = this.byte();
    if (b < 0x80) return b;
    let v = b & 0x7f;
    let shift = 7;
    for (;;) {
      b = this.byte();
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  }

  /** The next value of a list written with pushDelta. */
  readDelta(): number {
    this.acc += this.read();
    return this.acc;
  }
}
