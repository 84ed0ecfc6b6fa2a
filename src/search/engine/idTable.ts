/**
 * Id -> live ordinal, as an open-addressing hash table of ordinals over the ids' StringColumn
 * (stringColumn.ts), instead of a Map of JS strings (memory at a million documents: a Map entry and its
 * key string cost about 80 bytes per document; this table costs 8–16).
 *
 * The table holds every ordinal added since it was last rebuilt; a deleted ordinal stays in
 * it but no longer matches (its document is not live), and a rebuild, when the table is two
 * thirds full, keeps only the live ones. Linear probing; the hash is the one SearchIndex keeps per
 * ordinal (`idHash`) anyway.
 *
 * Over an image shared with other threads (ImageSource.lent), the ordinals added since go into
 * a small table of this thread's own (`added`), looked up first, and the shared slots stay
 * one copy for the node (docs/search-engine.md "One copy per node"): copying them at the first
 * add cost each thread 4–8 bytes per document until the next generation (8 MiB per kind at
 * 1.1 M items + 1 M persons, 512 MiB for the items at 50 M). An id has at most one live
 * ordinal, so it is found in either table. A rebuild takes the live ordinals of both into one
 * table of its own.
 */
import type { Growable } from './growable.js';
import { hashString } from './order.js';
import type { StringColumn } from './stringColumn.js';
import type { ImageSink, ImageSource } from './indexImage.js';

export class IdTable {
  private slots = new Int32Array(1024);
  /** The slots view an index image shared with other threads: never written, adds go to `added`. */
  private lent = false;
  private count = 0;
  /** While the slots are lent: the ordinals added since, at most half full (null: none yet). */
  private added: Int32Array | null = null;
  private addedCount = 0;

  constructor(
    private readonly ids: StringColumn,
    private readonly hash: Growable<Uint32Array>,
    private readonly live: Growable<Uint8Array>,
  ) {}

  /** The table into an image (indexImage.ts): adds write into it, so it is copied (with the added ordinals in it). */
  image(sink: ImageSink, p: string): void {
    if (this.added === null) sink.copy(`${p}.slots`, this.slots);
    else {
      const merged = this.slots.slice();
      for (const s of this.added) if (s !== 0) this.insert(merged, s - 1);
      sink.view(`${p}.slots`, merged);
    }
    sink.value(`${p}.count`, this.count + this.addedCount);
  }

  /** The slots (shared while lent); for the tests of sharing. */
  get table(): Int32Array {
    return this.slots;
  }

  /** The table of an image (over the restored columns). */
  restore(source: ImageSource, p: string): void {
    const { array: slots, lent } = source.lent(`${p}.slots`, 'i32');
    if (slots.length < 1024 || (slots.length & (slots.length - 1)) !== 0)
      throw new RangeError(`id table ${p}: ${slots.length} slots is not a power of two`);
    this.slots = slots;
    this.lent = lent;
    this.count = source.value<number>(`${p}.count`);
    this.added = null;
    this.addedCount = 0;
  }

  /** The live ordinal of an id, or undefined. */
  get(id: string): number | undefined {
    const h = hashString(id);
    return (this.added === null ? undefined : this.find(this.added, id, h)) ?? this.find(this.slots, id, h);
  }

  private find(slots: Int32Array, id: string, h: number): number | undefined {
    const mask = slots.length - 1;
    const hash = this.hash.array;
    const live = this.live.array;
    let encoded: { buf: Buffer; len: number } | undefined;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i]!;
      if (s === 0) return undefined;
      const ord = s - 1;
      if (hash[ord] === h && live[ord] === 1) {
        encoded ??= this.ids.encode(id);
        if (this.ids.compareBytes(ord, encoded.buf, encoded.len) === 0) return ord;
      }
    }
  }

  /** Adds a new ordinal, its hash and id already set in the columns. */
  add(ord: number): void {
    if ((this.count + this.addedCount + 1) * 3 > this.slots.length * 2) this.rebuild();
    else if (this.lent) {
      // the shared slots are not written (see above): a table of this thread's own
      if (this.added === null || (this.addedCount + 1) * 2 > this.added.length) this.growAdded();
      this.insert(this.added!, ord);
      this.addedCount++;
      return;
    }
    this.insert(this.slots, ord);
    this.count++;
  }

  private growAdded(): void {
    let size = 1024;
    while (size < 4 * (this.addedCount + 1)) size *= 2;
    const added = new Int32Array(size);
    if (this.added !== null) for (const s of this.added) if (s !== 0) this.insert(added, s - 1);
    this.added = added;
  }

  private insert(slots: Int32Array, ord: number): void {
    const mask = slots.length - 1;
    let i = this.hash.array[ord]! & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = ord + 1;
  }

  /**
   * A table of the live ordinals, at most half full. (It was a quarter full and rebuilt
   * at half: 32 MB per index at 1 M documents where 16 MB keep probes as short.)
   */
  private rebuild(): void {
    const live = this.live.array;
    const tables = this.added === null ? [this.slots] : [this.slots, this.added];
    let n = 0;
    for (const t of tables) for (const s of t) if (s !== 0 && live[s - 1] === 1) n++;
    let size = 1024;
    while (size < 2 * (n + 1)) size *= 2;
    const slots = new Int32Array(size);
    for (const t of tables) for (const s of t) if (s !== 0 && live[s - 1] === 1) this.insert(slots, s - 1);
    this.slots = slots;
    this.lent = false;
    this.count = n;
    this.added = null;
    this.addedCount = 0;
  }
}
