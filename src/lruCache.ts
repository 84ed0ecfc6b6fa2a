/**
 * A least-recently-used cache bounded by a byte budget. A Map keeps
 * insertion order, so re-inserting on a hit makes the oldest entry first.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= this.sizeOf(old);
    }
    this.entries.set(key, value);
    this.bytes += size;
    for (const [oldKey, oldValue] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= this.sizeOf(oldValue);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.bytes;
  }
}
