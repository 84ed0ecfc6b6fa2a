/**
 * Decoded postings of long lists, kept between searches (measured in the bench: a very common
 * word has postings in most documents, and decoding them with their positions on every
 * search cost more than the rest of the search together).
 *
 * Lists are append-only and ordinals never reused (SearchIndex.ts), so an entry never goes
 * stale: it keeps its reader and decodes only what was appended since, and liveness is
 * checked when the entry is used. Entries are bounded in bytes, least recently used first
 * out. Short lists are cheap to decode and not kept.
 */
import type { ListReader } from './listPool.js';

export interface CachedPostings {
  /** Every ordinal of the list decoded so far (live or not), ascending; capacity ≥ n. */
  docs: Uint32Array;
  /**
   * Per ordinal: what the list's decoder computed (a weight), or null. Float32 where every
   * such value is exact in it (SearchIndex.weightsFit32), which keeps 8 bytes a posting
   * instead of 12.
   */
  values: Float32Array | Float64Array | null;
  n: number;
  reader: ListReader;
}

export class PostingsCache {
  private readonly entries = new Map<string, { entry: CachedPostings; bytes: number }>();
  private bytes = 0;

  constructor(
    /** Bytes kept (asked at each change: it may grow with the index). */
    private readonly budget: () => number,
    private readonly minPostings: number,
  ) {}

  get(key: string): CachedPostings | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // most recently used last
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.entry;
  }

  /** Keeps (or re-measures) an entry when it is long enough, then evicts down to the budget. */
  put(key: string, entry: CachedPostings): void {
    const old = this.entries.get(key);
    if (old) this.bytes -= old.bytes;
    else if (entry.n < this.minPostings) return;
    const bytes = entry.docs.byteLength + (entry.values ? entry.values.byteLength : 0);
    this.entries.set(key, { entry, bytes });
    this.bytes += bytes;
    const budget = this.budget();
    for (const [k, e] of this.entries) {
      if (this.bytes <= budget) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  /**
   * Room for one more posting: twice the room while a list is short, a quarter more past a
   * million postings, so that a long list holds at most a quarter more than it needs (doubled,
   * a list of 18 M postings took 268 MB for 144 and no longer fit the budget).
   */
  static grow(e: CachedPostings): void {
    if (e.n < e.docs.length) return;
    const n = e.docs.length;
    const docs = new Uint32Array(n < 2 ** 20 ? n * 2 : n + Math.ceil(n / 4));
    docs.set(e.docs);
    e.docs = docs;
    if (e.values) {
      const values = e.values instanceof Float32Array ? new Float32Array(e.docs.length) : new Float64Array(e.docs.length);
      values.set(e.values);
      e.values = values;
    }
  }
}
