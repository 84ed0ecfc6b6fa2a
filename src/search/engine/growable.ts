/**
 * Typed arrays that grow by doubling: the per-document and per-term columns of the index.
 * One typed array per column, never a JS object per document, for memory at a million
 * documents (docs/search-engine.md "Memory layout").
 */
type TypedCtor<T> = { new (length: number): T };
type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/**
 * The next capacity of a column of `length` that must hold index `needed - 1`: doubling
 * while small, then by a quarter. Doubling past a million documents left up to half of
 * every per-document column empty, and a load that crossed 2^20 documents doubled them
 * all at once (old and new arrays side by side while copying): most of the server's
 * peak over its 1.5 GB budget (docs/search-engine.md "Memory layout"). Growing by a quarter still copies
 * each element a bounded number of times (amortised O(1) per append).
 */
export function grownLength(length: number, needed: number): number {
  let n = Math.max(length, 1);
  while (n < needed) n = n < 1 << 20 ? n * 2 : n + Math.ceil(n / 4 / 65536) * 65536;
  return n;
}

export class Growable<T extends Typed> {
  array: T;
  /**
   * True while `array` views memory other threads view too (a column of an index image in
   * shared memory: docs/search-engine.md "One copy per node"): the first write copies it
   * (`own`), so that every thread holds one copy until it changes the column.
   */
  private lent = false;
  /**
   * While lent: writes at this index and beyond (a new ordinal's value, in the room behind a
   * replica's column) go in place; writes below copy first. Infinity: every write copies.
   */
  private appendFrom = Number.POSITIVE_INFINITY;

  constructor(
    private readonly ctor: TypedCtor<T>,
    initial = 1024,
    private readonly fill = 0,
  ) {
    this.array = new ctor(initial);
    if (fill !== 0) this.array.fill(fill);
  }

  /** Makes index `i` writable. */
  ensure(i: number): T {
    if (i >= this.array.length) {
      const grown = new this.ctor(grownLength(this.array.length, i + 1));
      grown.set(this.array);
      if (this.fill !== 0) grown.fill(this.fill, this.array.length);
      this.array = grown;
      this.lent = false;
      this.appendFrom = Number.POSITIVE_INFINITY;
    } else if (this.lent && i < this.appendFrom) this.own();
    return this.array;
  }

  /** The array, to write into within its length: a lent one is copied first. */
  own(): T {
    if (this.lent) {
      this.array = this.array.slice() as T;
      this.lent = false;
      this.appendFrom = Number.POSITIVE_INFINITY;
    }
    return this.array;
  }

  /** The array with index `i` readable: grown (with `fill`) only when it is shorter; never copied to be read. */
  readable(i: number): T {
    return i < this.array.length ? this.array : this.ensure(i);
  }

  set(i: number, v: number): void {
    this.ensure(i)[i] = v;
  }

  /**
   * Takes saved values (an index image, indexImage.ts) as the column: grown, with `fill`, when a
   * write needs room; `lent`: they are shared with other threads, copied at the first write
   * below `appendFrom` (the written length, where the view has room behind it: the replicas of
   * a pool write each new ordinal's value there alike, docs/search-engine.md "One copy per node").
   */
  restore(saved: T, lent = false, appendFrom = Number.POSITIVE_INFINITY): void {
    this.array = saved;
    this.lent = lent;
    this.appendFrom = appendFrom;
  }
}

/** An append-only list of uint32 (per-document facet value ids). */
export class U32List {
  private data = new Uint32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(grownLength(this.data.length, this.length + 1));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }

  get array(): Uint32Array {
    return this.data;
  }

  /** Takes saved values (an index image) as the list: its first `length`, the rest room to push into in place. */
  restore(saved: Uint32Array<ArrayBuffer>, length = saved.length): void {
    this.data = saved;
    this.length = length;
  }
}
