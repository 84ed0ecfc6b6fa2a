/**
 * Strings to dense ids (the terms of the text, the values of a facet), with prefix lookup
 * for prefix and wildcard queries.
 *
 * Prefix lookup needs the strings in order, while loads keep adding new ones. A sorted
 * array plus an unsorted tail of recent additions gives both: a lookup binary-searches
 * the sorted part and scans the tail. The tail is merged in by a lookup that finds it
 * longer than max(1024, sqrt of the size), never by `intern`: merging on every 1024th new
 * string made a load quadratic in the vocabulary (a third of the build at 1 M items).
 */
import type { ImageSink, ImageSource } from './indexImage.js';
import { compareCodePoints } from './order.js';

export class Dictionary {
  private readonly ids = new Map<string, number>();
  private strings: string[] = [];
  private sorted: string[] = [];
  private recent: string[] = [];

  /**
   * The dictionary into an image (indexImage.ts): its strings by id (append-only), and the
   * sorted part and the tail as ids, so that a restore sorts nothing.
   */
  image(sink: ImageSink, p: string): void {
    const n = this.strings.length;
    const sorted = this.sorted; // a merge makes a new array, never changes this one
    const recent = this.recent.slice();
    const ids = this.ids;
    sink.strings(`${p}.strings`, this.strings, n);
    sink.later(`${p}.sorted`, 'u32', () => Uint32Array.from(sorted, (s) => ids.get(s)!));
    sink.later(`${p}.recent`, 'u32', () => Uint32Array.from(recent, (s) => ids.get(s)!));
  }

  /** The dictionary of an image (into an empty one). */
  restore(source: ImageSource, p: string): void {
    const strings = source.strings(`${p}.strings`);
    this.strings = strings;
    this.ids.clear();
    for (let i = 0; i < strings.length; i++) this.ids.set(strings[i]!, i);
    const of = (a: Uint32Array): string[] => {
      const out = new Array<string>(a.length);
      for (let i = 0; i < a.length; i++) {
        const s = strings[a[i]!];
        if (s === undefined) throw new RangeError(`dictionary ${p}: id ${a[i]} of ${strings.length}`);
        out[i] = s;
      }
      return out;
    };
    this.sorted = of(source.typed(`${p}.sorted`, 'u32'));
    this.recent = of(source.typed(`${p}.recent`, 'u32'));
    if (this.ids.size !== strings.length || this.sorted.length + this.recent.length !== strings.length)
      throw new RangeError(`dictionary ${p}: its parts do not add up`);
  }

  get size(): number {
    return this.strings.length;
  }

  get(s: string): number | undefined {
    return this.ids.get(s);
  }

  /** The id of `s`, adding it if new; `added` tells which. */
  intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.ids.set(s, id);
      this.strings.push(s);
      this.recent.push(s);
    }
    return id;
  }

  string(id: number): string {
    return this.strings[id]!;
  }

  private merge(): void {
    this.recent.sort(compareCodePoints);
    const out = new Array<string>(this.sorted.length + this.recent.length);
    let i = 0;
    let j = 0;
    let n = 0;
    const a = this.sorted;
    const b = this.recent;
    while (i < a.length && j < b.length) out[n++] = compareCodePoints(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
    while (i < a.length) out[n++] = a[i++]!;
    while (j < b.length) out[n++] = b[j++]!;
    this.sorted = out;
    this.recent = [];
  }

  /**
   * Every string: `sorted` in code point order, plus the few recent additions not merged in
   * yet (unsorted; merged first when there are many, as for `withPrefix`). For walks over the
   * vocabulary (spellcheck.ts); the arrays are the dictionary's own, to read, not to change.
   */
  view(): { sorted: readonly string[]; recent: readonly string[] } {
    if (this.recent.length > Math.max(1024, Math.sqrt(this.sorted.length))) this.merge();
    return { sorted: this.sorted, recent: this.recent };
  }

  /**
   * Ids of the strings starting with `prefix` that `accept` takes, in code point order of the
   * strings; throws `tooMany()` past `limit` accepted strings.
   */
  withPrefix(prefix: string, accept: (s: string) => boolean, limit: number, tooMany: () => Error): number[] {
    if (this.recent.length > Math.max(1024, Math.sqrt(this.sorted.length))) this.merge();
    const out: string[] = [];
    const a = this.sorted;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCodePoints(a[mid]!, prefix) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < a.length && a[i]!.startsWith(prefix); i++) {
      if (accept(a[i]!)) {
        out.push(a[i]!);
        if (out.length > limit) throw tooMany();
      }
    }
    for (const s of this.recent) {
      if (s.startsWith(prefix) && accept(s)) {
        out.push(s);
        if (out.length > limit) throw tooMany();
      }
    }
    out.sort(compareCodePoints);
    return out.map((s) => this.ids.get(s)!);
  }

  /** Every string in insertion order (for facet scans). */
  get all(): readonly string[] {
    return this.strings;
  }
}
