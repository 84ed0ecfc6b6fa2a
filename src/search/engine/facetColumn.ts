/**
 * One facet of a SearchIndex: its values (dictionary.ts), per value a posting list of
 * ordinals and a live-document count, and per ordinal its value ids.
 *
 * Most facets give a document at most one value (type, sector, provider, language,
 * has_media, the persons' gender): for them the values of an ordinal are one dense column,
 * value id + 1 per ordinal (0: none), which a facet count or a filter reads with one load
 * per hit (in the bench, the p99 of a very common term with a filter and facets was
 * spent reading each hit's values). That column is as narrow as its values allow: 1 byte per
 * document while a facet has fewer than 256 values, 2 below 65,536, else 4, widened when a
 * value beyond comes; a count reads the column of every hit, and the narrower columns made
 * two facet counts of 370,000 hits a millisecond faster. The first document with two values
 * turns the column into CSR (`start`, `ids`) for good.
 */
import { Dictionary } from './dictionary.js';
import { Growable, U32List } from './growable.js';
import { ListPool } from './listPool.js';
import type { ImageSink, ImageSource } from './indexImage.js';

/** A single-valued column: value id + 1 per ordinal, in as few bytes as the values need. */
export type SingleColumn = Uint8Array | Uint16Array | Uint32Array;

export class FacetColumn {
  readonly values = new Dictionary();
  readonly postings = new ListPool();
  /** Live documents per value id. */
  readonly live = new Growable(Uint32Array);
  /** Some document has had a value: before that nothing below is written (no 4 bytes per document for a facet nobody has). */
  hasValues = false;
  /**
   * While `single`: ordinal -> value id + 1, 0 for none, covering every ordinal from the
   * first value on. Null once a document had two values.
   */
  single: Growable<SingleColumn> | null = new Growable<SingleColumn>(Uint8Array);
  /** Once multi-valued: the values of ordinal d are ids[start[d] .. start[d + 1]). */
  start: Growable<Uint32Array> | null = null;
  ids: U32List | null = null;

  /** The facet into an image (indexImage.ts) as of `ordinals` ordinals; what an ordinal holds is written once. */
  image(sink: ImageSink, p: string, ordinals: number): void {
    this.values.image(sink, `${p}.values`);
    this.postings.image(sink, `${p}.postings`);
    sink.copy(`${p}.live`, this.live.array, Math.min(this.values.size, this.live.array.length));
    sink.value(`${p}.hasValues`, this.hasValues);
    sink.value(`${p}.form`, this.single ? 'single' : 'multi');
    if (this.single) sink.view(`${p}.single`, this.single.array, Math.min(ordinals, this.single.array.length));
    else {
      sink.view(`${p}.start`, this.start!.array, Math.min(ordinals + 1, this.start!.array.length));
      sink.view(`${p}.ids`, this.ids!.array, this.ids!.length);
    }
  }

  /** The facet of an image (into an empty one). */
  restore(source: ImageSource, p: string): void {
    this.values.restore(source, `${p}.values`);
    this.postings.restore(source, `${p}.postings`);
    const live = source.lent(`${p}.live`, 'u32');
    this.live.restore(live.array, live.lent);
    this.hasValues = source.value<boolean>(`${p}.hasValues`);
    if (source.value<string>(`${p}.form`) === 'single') {
      const name = `${p}.single`;
      const column = source.has(name) ? source.sectionType(name) : 'u8';
      const single = new Growable<SingleColumn>(column === 'u32' ? Uint32Array : column === 'u16' ? Uint16Array : Uint8Array, 0);
      single.restore(source.typed(name, column === 'u32' ? 'u32' : column === 'u16' ? 'u16' : 'u8'));
      this.single = single;
      this.start = null;
      this.ids = null;
    } else {
      this.single = null;
      this.start = new Growable(Uint32Array, 0);
      this.start.restore(source.typed(`${p}.start`, 'u32'));
      this.ids = new U32List();
      // a replica's view has room behind the values (indexFiles.ts roomFor): pushed into in place
      this.ids.restore(source.typed(`${p}.ids`, 'u32'), source.length(`${p}.ids`, 'u32'));
    }
  }

  /** Records the distinct value strings of a new ordinal (ordinals come in ascending). */
  add(ord: number, values: readonly string[]): void {
    if (!this.hasValues && values.length === 0) return;
    this.hasValues = true;
    if (this.single && values.length > 1) this.toMulti(ord);
    if (this.single) {
      const v = values.length === 0 ? 0 : this.addValue(ord, values[0]!) + 1;
      this.widen(v);
      this.single.ensure(ord)[ord] = v;
      return;
    }
    const start = this.start!;
    const ids = this.ids!;
    start.set(ord, ids.length);
    for (const value of values) ids.push(this.addValue(ord, value));
    start.set(ord + 1, ids.length);
  }

  /** A deleted ordinal leaves the live counts of its values. */
  delete(ord: number): void {
    if (!this.hasValues) return;
    const live = this.live.own();
    if (this.single) {
      const v = this.single.array[ord] ?? 0;
      if (v > 0) live[v - 1]!--;
      return;
    }
    const start = this.start!.array;
    const ids = this.ids!.array;
    for (let j = start[ord]!; j < start[ord + 1]!; j++) live[ids[j]!]!--;
  }

  /** Whether ordinal `d` (one given out since the first value) has a value. */
  has(d: number): boolean {
    if (!this.hasValues) return false;
    if (this.single) return (this.single.array[d] ?? 0) > 0;
    const start = this.start!.array;
    return start[d + 1]! > start[d]!;
  }

  /** Bytes of the per-ordinal columns and the postings. */
  get bytes(): number {
    let n = this.postings.bytes;
    if (this.single) n += this.single.array.byteLength;
    if (this.start) n += this.start.array.byteLength + this.ids!.array.byteLength;
    return n;
  }

  private addValue(ord: number, value: string): number {
    const v = this.values.intern(value);
    if (v === this.postings.count) this.postings.create();
    this.postings.pushDelta(v, ord);
    this.live.set(v, (this.live.array[v] ?? 0) + 1);
    return v;
  }

  /** Makes the single column wide enough for `v`. */
  private widen(v: number): void {
    const a = this.single!.array;
    if (v <= (a instanceof Uint8Array ? 0xff : a instanceof Uint16Array ? 0xffff : Infinity)) return;
    const wider = new Growable<SingleColumn>(v <= 0xffff ? Uint16Array : Uint32Array, a.length);
    wider.array.set(a);
    this.single = wider;
  }

  /** The CSR form of the ordinals before `ord`. */
  private toMulti(ord: number): void {
    const single = this.single!.array;
    const start = new Growable(Uint32Array, Math.max(1024, ord + 2));
    const ids = new U32List();
    const s = start.array;
    for (let d = 0; d < ord; d++) {
      s[d] = ids.length;
      const v = single[d] ?? 0;
      if (v > 0) ids.push(v - 1);
    }
    s[ord] = ids.length;
    this.start = start;
    this.ids = ids;
    this.single = null;
  }
}
