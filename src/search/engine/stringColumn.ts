/**
 * One string per ordinal (ids, string sort keys, suggestion displays) as UTF-8 bytes in a
 * pool of byte chunks, not as JS strings, for memory at a million documents.
 *
 * A JS string costs 40–60 bytes beyond its text, and a million of them, made one by one
 * among the garbage of the documents they came from, pin that garbage's heap pages: at 1 M
 * items + 1 M persons the heap held twice its live bytes. Here a string costs its UTF-8
 * bytes, a length varint and 4 bytes of address.
 *
 * UTF-8 byte order is code point order, so strings compare in place (`compare`,
 * `compareBytes`) without being decoded. An ordinal's string never changes (an upsert takes a
 * new ordinal), and its bytes stay after a delete, so ranks (ranks.ts) may keep naming a
 * string by an ordinal whose document is gone.
 *
 * Each string starts at a multiple of 4 bytes and an ordinal names it by that 4-byte unit in
 * 32 bits, so a column holds 16 GiB (1.5 bytes of padding a string on average); byte
 * addresses in 32 bits stopped at 4 GiB, the titles of about 60 M items with their reloads.
 */
import { Growable } from './growable.js';
import type { ImageSink, ImageSource } from './indexImage.js';

const CHUNK_BITS = 20; // 1 MiB chunks
const CHUNK = 1 << CHUNK_BITS;
/** Strings start at multiples of UNIT bytes; an address is a number of units. */
const UNIT = 4;
/** Chunks 32-bit addresses of UNIT bytes reach: 16 GiB. */
const MAX_CHUNKS = (2 ** 32 * UNIT) / CHUNK;
const chunkOf = (at: number) => Math.floor(at / CHUNK);

export class StringColumn {
  private chunks: Buffer[] = [];
  /** Next free byte address, a multiple of UNIT; address 0 means "no string". */
  private top = UNIT;
  /** Per ordinal: the address of its length varint in UNITs, 0 when it has none. */
  private readonly at = new Growable(Uint32Array);
  private scratch = Buffer.alloc(256);

  /**
   * `firstChunk`: the first string goes into that chunk, the ones below stand empty. Only tests
   * give it, to write and read at addresses past 4 GiB without holding 4 GiB.
   */
  constructor(firstChunk = 0) {
    if (firstChunk > 0) {
      this.chunks = new Array<Buffer>(firstChunk).fill(Buffer.alloc(0));
      this.top = firstChunk * CHUNK;
    }
  }

  /** Bytes of the pool and the addresses. */
  get bytes(): number {
    let n = this.at.array.byteLength;
    for (const c of this.chunks) n += c.length;
    return n;
  }

  /**
   * The column into an image (indexImage.ts) as of `ordinals` ordinals: bytes below `top`
   * and the address of an ordinal given out are never written again.
   */
  image(sink: ImageSink, p: string, ordinals: number): void {
    const sizes = this.chunks.map((c) => c.length);
    sink.value(`${p}.top`, this.top);
    sink.value(`${p}.chunkSizes`, sizes);
    // A chunk filled to its end (or one long string's own) moved `top` to the next chunk's start.
    const full = this.top >= this.chunks.length * CHUNK;
    sink.chunks(`${p}.bytes`, this.chunks, full ? (sizes[sizes.length - 1] ?? 0) : this.top - (this.chunks.length - 1) * CHUNK);
    sink.view(`${p}.at`, this.at.array, Math.min(ordinals, this.at.array.length));
  }

  /** The column of an image (into an empty column). */
  restore(source: ImageSource, p: string): void {
    const sizes = source.value<number[]>(`${p}.chunkSizes`);
    this.chunks = source
      .chunks(`${p}.bytes`, sizes, (n) => Buffer.allocUnsafeSlow(n))
      .map((c) => (Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
    this.top = source.value<number>(`${p}.top`);
    this.at.restore(source.typed(`${p}.at`, 'u32'));
  }

  set(ord: number, s: string | undefined): void {
    if (s === undefined) {
      this.at.set(ord, 0);
      return;
    }
    const len = Buffer.byteLength(s, 'utf8');
    const head = len < 0x80 ? 1 : len < 0x4000 ? 2 : len < 0x200000 ? 3 : 5;
    const size = head + len;
    const current = chunkOf(this.top);
    if (this.chunks.length === 0 || current >= this.chunks.length || this.top - current * CHUNK + size > CHUNK) {
      // a new chunk; a string longer than a chunk gets one of its own size, and the next
      // string starts a new chunk
      const first = this.chunks.length === 0 ? UNIT : 0;
      this.top = this.chunks.length * CHUNK + first;
      this.chunks.push(Buffer.allocUnsafeSlow(Math.max(CHUNK, first + size)));
    }
    if (this.chunks.length > MAX_CHUNKS) throw new Error('StringColumn: more than 16 GiB of strings');
    const addr = this.top;
    const i = chunkOf(addr);
    const c = this.chunks[i]!;
    const start = addr - i * CHUNK;
    let o = start;
    let v = len;
    while (v >= 0x80) {
      c[o++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    c[o++] = v;
    c.write(s, o, len, 'utf8');
    this.top = start + size >= CHUNK ? this.chunks.length * CHUNK : addr + Math.ceil(size / UNIT) * UNIT;
    this.at.set(ord, addr / UNIT);
  }

  has(ord: number): boolean {
    return ord < this.at.array.length && this.at.array[ord] !== 0;
  }

  /** The string of an ordinal, undefined when it has none. */
  get(ord: number): string | undefined {
    if (ord >= this.at.array.length) return undefined;
    const unit = this.at.array[ord]!;
    if (unit === 0) return undefined;
    const addr = unit * UNIT;
    const i = chunkOf(addr);
    const c = this.chunks[i]!;
    let o = addr - i * CHUNK;
    let len = 0;
    let shift = 0;
    for (;;) {
      const b = c[o++]!;
      len += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    return c.toString('utf8', o, o + len);
  }

  /** The chunk, start and end of an ordinal's bytes (the ordinal must have a string). */
  private span(ord: number): [Buffer, number, number] {
    const addr = this.at.array[ord]! * UNIT;
    const i = chunkOf(addr);
    const c = this.chunks[i]!;
    let o = addr - i * CHUNK;
    let len = 0;
    let shift = 0;
    for (;;) {
      const b = c[o++]!;
      len += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    return [c, o, o + len];
  }

  /** Code point order of the strings of two ordinals that both have one. */
  compare(a: number, b: number): number {
    const [ca, sa, ea] = this.span(a);
    const [cb, sb, eb] = this.span(b);
    return ca.compare(cb, sb, eb, sa, ea);
  }

  /**
   * `s` as UTF-8 in a scratch buffer, for `compareBytes` and `equals`: valid until the next
   * call of `encode`.
   */
  encode(s: string): { buf: Buffer; len: number } {
    const len = Buffer.byteLength(s, 'utf8');
    if (len > this.scratch.length) this.scratch = Buffer.alloc(len * 2);
    this.scratch.write(s, 0, len, 'utf8');
    return { buf: this.scratch, len };
  }

  /** Code point order of an ordinal's string (it must have one) against encoded bytes. */
  compareBytes(ord: number, buf: Buffer, len: number): number {
    const [c, s, e] = this.span(ord);
    return c.compare(buf, 0, len, s, e);
  }

  /** Whether an ordinal's string (it must have one) starts with the encoded bytes. */
  startsWith(ord: number, buf: Buffer, len: number): boolean {
    const [c, s, e] = this.span(ord);
    return e - s >= len && c.compare(buf, 0, len, s, s + len) === 0;
  }
}
