/**
 * A cache bounded by a byte budget that drops the least recently used
 * entries first, by the "second chance" approximation of LRU: a hit only
 * marks its entry; when room is needed, the oldest entry goes unless it is
 * marked, in which case it is unmarked and moved to the young end once.
 *
 * Why not a strict LRU (delete and re-insert on every hit): that stored the
 * caller's key, a string new with each request, in the long-lived table, so
 * on every hit a young string was kept alive and promoted by the garbage
 * collector; for cached `parents` answers it was a visible share of the
 * collector's time, as the bench measured. A mark is a boolean on an old object.
 */
interface Entry<V> {
  readonly key: string;
  readonly value: V;
  readonly size: number;
  used: boolean;
}

export class LruCache<V> {
  /** In insertion order: the first is the oldest. */
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    const added: Entry<V> = { key, value, size, used: false };
    this.entries.set(key, added);
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.values().next().value as Entry<V>;
      this.entries.delete(oldest.key);
      // The entry just set never makes room for itself.
      if (oldest.used || oldest === added) {
        oldest.used = false;
        this.entries.set(oldest.key, oldest);
      } else {
        this.bytes -= oldest.size;
      }
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Bytes held, as sizeOf counts them. */
  get size(): number {
    return this.bytes;
  }
}
