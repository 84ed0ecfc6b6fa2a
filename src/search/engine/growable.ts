/**
 * Typed arrays that grow by doubling: the per-document and per-term columns of the index.
 * One typed array per column, never a JS object per document (issue #14 point 8: memory).
 */
type TypedCtor<T> = { new (length: number): T };
type Typed = Uint8Array | Uint32Array | Int32Array | Float64Array;

export class Growable<T extends Typed> {
  array: T;

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
      let n = this.array.length * 2;
      while (n <= i) n *= 2;
      const grown = new this.ctor(n);
      grown.set(this.array as never);
      if (this.fill !== 0) grown.fill(this.fill, this.array.length);
      this.array = grown;
    }
    return this.array;
  }

  set(i: number, v: number): void {
    this.ensure(i)[i] = v;
  }
}

/** An append-only list of uint32 (per-document facet value ids). */
export class U32List {
  private data = new Uint32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }

  get array(): Uint32Array {
    return this.data;
  }
}
