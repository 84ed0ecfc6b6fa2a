/**
 * Large typed arrays of one search kept for the next ones (at a million
 * documents, a common term's hits, a filter's output and a facet filter's ordinals are
 * megabytes per search; allocated afresh each time, their garbage showed as wall-clock tails
 * of tens of milliseconds of garbage collection).
 *
 * A search runs to completion on its thread (search.ts), so an index can hand its searches
 * the same arrays: `begin()` at the start of a search, then the i-th request of a kind gets
 * the i-th kept array (grown when too small). Nothing a search returns may point into them.
 * Arrays come uninitialised (what an earlier search wrote): callers write before they read.
 * Small arrays are left to the young generation; past `budget` bytes kept, arrays are
 * allocated as before, so the pool costs at most `budget` bytes per index.
 */
export class ScratchPool {
  private readonly u32s: Uint32Array[] = [];
  private readonly f64s: Float64Array[] = [];
  private nextU32 = 0;
  private nextF64 = 0;
  private kept = 0;

  /** `minLength`: shorter arrays are allocated, not kept (default 16,384). */
  constructor(
    private readonly budget: number,
    private readonly minLength = 16_384,
  ) {}

  /** A new search: every kept array is free again. */
  begin(): void {
    this.nextU32 = 0;
    this.nextF64 = 0;
  }

  /** `n` uint32 slots, not zeroed. */
  u32(n: number): Uint32Array {
    if (n < this.minLength) return new Uint32Array(n);
    const i = this.nextU32++;
    const b = this.u32s[i];
    if (b !== undefined && b.length >= n) return b.subarray(0, n);
    const grown = this.grow(b?.byteLength ?? 0, n, 4, i === this.u32s.length || b !== undefined);
    if (grown === 0) return new Uint32Array(n);
    const a = new Uint32Array(grown);
    if (i === this.u32s.length) this.u32s.push(a);
    else this.u32s[i] = a;
    return a.subarray(0, n);
  }

  /** `n` float64 slots, not zeroed. */
  f64(n: number): Float64Array {
    if (n < this.minLength) return new Float64Array(n);
    const i = this.nextF64++;
    const b = this.f64s[i];
    if (b !== undefined && b.length >= n) return b.subarray(0, n);
    const grown = this.grow(b?.byteLength ?? 0, n, 8, i === this.f64s.length || b !== undefined);
    if (grown === 0) return new Float64Array(n);
    const a = new Float64Array(grown);
    if (i === this.f64s.length) this.f64s.push(a);
    else this.f64s[i] = a;
    return a.subarray(0, n);
  }

  /** Bytes kept. */
  get bytes(): number {
    return this.kept;
  }

  /** The length to keep in place of an array of `oldBytes` (a quarter more than asked), or 0: over budget, or no slot. */
  private grow(oldBytes: number, n: number, size: number, slot: boolean): number {
    const length = n + (n >>> 2);
    if (!slot || this.kept - oldBytes + length * size > this.budget) return 0;
    this.kept += length * size - oldBytes;
    return length;
  }
}
