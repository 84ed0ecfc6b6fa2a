/**
 * Strings to dense ids (the terms of the text, the values of a facet, the analysed forms,
 * the spellings), with prefix lookup for prefix and wildcard queries and walks in code point
 * order for the spellchecker (nearTerms.ts).
 *
 * Two parts. The strings of the index image the dictionary was restored from (ids below
 * `base.length`) are front-coded blocks viewed where the image lies (frontCoded.ts): in shared
 * memory, once for every search thread of a process, not JS strings in each thread's heap
 * (docs/search-engine.md "Memory layout"). The strings added since (every string of an index
 * built from the store) are JS strings in this thread: a Map, and a sorted array plus an
 * unsorted tail of recent additions. A lookup binary-searches the sorted part and scans the
 * tail. The tail is merged in by a lookup that finds it longer than max(1024, sqrt of the
 * size), never by `intern`: merging on every 1024th new string made a load quadratic in the
 * vocabulary (a third of the build at 1 M items). The next image writes both parts as one.
 */
import type { ImageSink, ImageSource } from './indexImage.js';
import { FrontCoded } from './frontCoded.js';
import { FrontCodedBuilder } from './frontCodedBuilder.js';
import { ArrayRun, type SortedRun } from './sortedRun.js';
import { compareCodePoints } from './order.js';

/** The most strings a dictionary decodes into one array for facet scans (strings()). */
export const DECODED_MAX = 65_536;

export class Dictionary {
  /** The image's strings, ids 0 .. base.length. */
  private base = FrontCoded.EMPTY;
  /** Strings added since the image: id → string is `added[id - base.length]`. */
  private readonly ids = new Map<string, number>();
  private added: string[] = [];
  private sorted: string[] = [];
  private recent: string[] = [];
  /** Every string by id, decoded when first asked (strings(): small facets only). */
  private decoded: string[] | null = null;

  /**
   * The dictionary into an image (indexImage.ts): front-coded blocks of all its strings in
   * code point order, the id of each and the position of each id (frontCoded.ts), so that a
   * restore sorts and decodes nothing. Made by the writer from what no later change touches:
   * the base is immutable, the added strings append-only (a merge makes a new sorted array).
   */
  image(sink: ImageSink, p: string): void {
    const base = this.base;
    const n = this.size;
    const sorted = this.sorted;
    const recent = this.recent.slice();
    const ids = this.ids;
    let built: FrontCoded | undefined;
    const build = (): FrontCoded => {
      if (built !== undefined) return built;
      if (n === base.length) return (built = base);
      const more = [...sorted, ...recent].map((s) => Buffer.from(s, 'utf8'));
      more.sort(Buffer.compare); // UTF-8 byte order is code point order
      const out = new FrontCodedBuilder(n);
      const b = { buf: Buffer.alloc(256) };
      let i = 0;
      let j = 0;
      let len = i < base.length ? base.bytesAt(i, b) : 0;
      while (i < base.length || j < more.length) {
        if (j >= more.length || (i < base.length && Buffer.compare(b.buf.subarray(0, len), more[j]!) <= 0)) {
          out.push(b.buf, len, base.order[i]!);
          if (++i < base.length) len = base.bytesAt(i, b);
        } else {
          const s = more[j++]!;
          out.push(s, s.length, ids.get(s.toString('utf8'))!);
        }
      }
      return (built = out.finish());
    };
    sink.later(`${p}.bytes`, 'u8', () => build().bytes);
    sink.later(`${p}.heads`, 'u32', () => build().heads);
    sink.later(`${p}.order`, 'u32', () => build().order);
    sink.later(`${p}.position`, 'u32', () => build().position);
  }

  /** The dictionary of an image (into an empty one): viewed in place, nothing decoded. */
  restore(source: ImageSource, p: string): void {
    try {
      this.base = new FrontCoded(
        source.typed(`${p}.bytes`, 'u8'),
        source.typed(`${p}.heads`, 'u32'),
        source.typed(`${p}.order`, 'u32'),
        source.typed(`${p}.position`, 'u32'),
      );
    } catch (e) {
      if (e instanceof RangeError) throw new RangeError(`dictionary ${p}: ${e.message}`, { cause: e });
      throw e;
    }
    this.ids.clear();
    this.added = [];
    this.sorted = [];
    this.recent = [];
    this.decoded = null;
  }

  get size(): number {
    return this.base.length + this.added.length;
  }

  get(s: string): number | undefined {
    return this.ids.get(s) ?? this.base.find(s);
  }

  /** The id of `s`, adding it if new. */
  intern(s: string): number {
    let id = this.get(s);
    if (id === undefined) {
      id = this.size;
      this.ids.set(s, id);
      this.added.push(s);
      this.recent.push(s);
    }
    return id;
  }

  string(id: number): string {
    const n = this.base.length;
    return id < n ? this.base.stringOf(id) : this.added[id - n]!;
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
   * Every string: `runs` each in code point order (the image's, then the sorted ones added
   * since), plus the few recent additions not merged in yet (unsorted; merged first when there
   * are many, as for `withPrefix`). For walks over the vocabulary (spellcheck.ts); what it
   * returns is the dictionary's own, to read, not to change.
   */
  view(): { runs: readonly SortedRun[]; recent: readonly string[] } {
    if (this.recent.length > Math.max(1024, Math.sqrt(this.sorted.length))) this.merge();
    const runs: SortedRun[] = [];
    if (this.base.length > 0) runs.push(this.base);
    if (this.sorted.length > 0) runs.push(new ArrayRun(this.sorted));
    return { runs, recent: this.recent };
  }

  /**
   * Ids of the strings starting with `prefix` that `accept` takes, in code point order of the
   * strings; throws `tooMany()` past `limit` accepted strings.
   */
  withPrefix(prefix: string, accept: (s: string) => boolean, limit: number, tooMany: () => Error): number[] {
    const { runs, recent } = this.view();
    const out: Array<[string, number]> = [];
    const take = (s: string, id: number) => {
      if (!accept(s)) return;
      out.push([s, id]);
      if (out.length > limit) throw tooMany();
    };
    const base = this.base;
    for (const run of runs) {
      const from = run.lowerBound(prefix);
      const end = run.prefixEnd(from, prefix, run.length);
      for (let i = from; i < end; i++) {
        const s = run.at(i);
        take(s, run === base ? base.order[i]! : this.ids.get(s)!);
      }
    }
    for (const s of recent) if (s.startsWith(prefix)) take(s, this.ids.get(s)!);
    out.sort((a, b) => compareCodePoints(a[0], b[0]));
    return out.map((e) => e[1]);
  }

  /**
   * Code point order of the strings of two ids, without decoding them when both are the
   * image's (their positions in its sorted order): a facet ordered by count then value
   * compares many values of equal count.
   */
  compareIds(a: number, b: number): number {
    const base = this.base;
    const n = base.length;
    if (a < n && b < n) return base.position[a]! - base.position[b]!;
    // a string added since the image: as strings (a small dictionary's decoded ones)
    if (this.size > DECODED_MAX) return compareCodePoints(this.string(a), this.string(b));
    const all = this.all;
    return compareCodePoints(all[a]!, all[b]!);
  }

  /**
   * id → string for facet scans: for a dictionary of at most DECODED_MAX strings over an
   * array decoded once per thread when first asked; for a larger one (a facet of a million
   * names) each string decoded when asked, because the array would keep tens of MB of JS
   * strings in every search thread's heap, outside the shared index (docs/search-engine.md
   * "Memory layout"), and every full collection of that heap would mark them.
   */
  strings(): (id: number) => string {
    if (this.size <= DECODED_MAX) {
      const all = this.all;
      return (id) => all[id]!;
    }
    return (id) => this.string(id);
  }

  /** Every string by id, decoded once (small dictionaries only: strings()). */
  private get all(): readonly string[] {
    const base = this.base;
    if (base.length === 0) return this.added;
    let d = this.decoded;
    if (d === null) {
      d = new Array<string>(base.length);
      for (let i = 0; i < base.length; i++) d[base.order[i]!] = base.at(i);
      this.decoded = d;
    }
    while (d.length < this.size) d.push(this.added[d.length - base.length]!);
    return d;
  }
}
