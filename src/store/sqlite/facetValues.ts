/**
 * The distinct values of one facet, kept as one UTF-8 buffer with offsets
 * instead of millions of JS strings (at 1 M persons the name facet has about
 * as many values, and as strings they took most of the server's memory;
 * issue #5: ≤ 400 MB). Values are added in ascending code point order (the
 * order SQLite's BINARY collation gives), so a value's id is its rank: facet
 * ties broken by value are ties broken by id, and a value is found by binary
 * search.
 */
export class FacetValues {
  private bytes = Buffer.alloc(1 << 16);
  private used = 0;
  private starts = new Uint32Array(1 << 10);
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** Appends a value; values must come in ascending code point order, each once. */
  push(value: string): number {
    const length = Buffer.byteLength(value, 'utf8');
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    if (this.n + 2 > this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.n] = this.used;
    this.used += this.bytes.write(value, this.used, 'utf8');
    this.starts[++this.n] = this.used;
    return this.n - 1;
  }

  /** Drops the spare capacity once all values are in. */
  seal(): void {
    this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
    this.starts = this.starts.slice(0, this.n + 1);
  }

  get(id: number): string {
    return this.bytes.toString('utf8', this.starts[id]!, this.starts[id + 1]!);
  }

  /** The id of a value, or undefined. UTF-8 byte order is code point order. */
  find(value: string): number | undefined {
    const wanted = Buffer.from(value, 'utf8');
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.bytes.compare(wanted, 0, wanted.length, this.starts[mid]!, this.starts[mid + 1]!);
      // Buffer#compare(target, ...) compares target against this range: 1 means the stored value is greater.
      if (c === 0) return mid;
      if (c > 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return undefined;
  }
}
