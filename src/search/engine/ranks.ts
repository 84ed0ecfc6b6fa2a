/**
 * Ranks of string sort keys (and of ids), so that orders compare numbers instead of strings
 * (issue #14 point 8: ordering a million hits by title compared a million strings).
 *
 * `sorted` names the distinct strings known at the last refresh, in code point order, each
 * by an ordinal of the column (stringColumn.ts) that holds it. Each
 * ordinal's rank is the index of its string there, or, for a string added since, a half
 * rank: (number of sorted strings below it) − 0.5. Either way the rank is monotone in the
 * string: s < t implies rank(s) ≤ rank(t), and equal integer ranks mean equal strings. Two
 * strings added since the last refresh may share a half rank; an order then compares the
 * strings' bytes (sortPlan.ts rankedComponent). A missing value has rank NaN. An ordinal's string never
 * changes (an upsert takes a new ordinal), so ranks stay true until the next refresh, which
 * merges the new strings in: O(distinct + new · log new), run when a search finds more than
 * an eighth of the ordinals half-ranked, or when a feed has caught up (feed.ts).
 */
import { Growable, U32List } from './growable.js';
import { compareCodePoints } from './order.js';
import type { StringColumn } from './stringColumn.js';

export class RankedStrings {
  /**
   * The distinct strings known at the last refresh, in code point order, each named by an
   * ordinal that holds it (the column keeps an ordinal's bytes after a delete): 4 bytes per
   * string instead of an array of JS strings.
   */
  private sorted = new Uint32Array(0);
  readonly rank = new Growable(Float64Array, 1024, NaN);
  /** Ordinals given a half rank since the last refresh. */
  private pending = new U32List();
  /** Moves on every refresh: integer ranks of one generation index `distinct` of that generation. */
  generation = 0;

  constructor(
    /** The strings of the ordinals. */
    readonly column: StringColumn,
  ) {}

  get stale(): number {
    return this.pending.length;
  }

  /** How many distinct strings were known at the last refresh. */
  get size(): number {
    return this.sorted.length;
  }

  /** The distinct string of integer rank r (suggest.ts searches them). */
  distinct(r: number): string {
    return this.column.get(this.sorted[r]!)!;
  }

  /** The ordinals given a half rank since the last refresh (their strings are not in `distinct`). */
  pendingOrdinals(): Uint32Array {
    return this.pending.array.subarray(0, this.pending.length);
  }

  /** Ranks ordinal `ord`, whose string (or none) the column holds already. */
  set(ord: number): void {
    if (!this.column.has(ord)) {
      this.rank.set(ord, NaN);
      return;
    }
    const r = this.sorted.length === 0 ? -0.5 : this.rankOfOrdinal(ord);
    this.rank.set(ord, r);
    if (r !== Math.floor(r)) this.pending.push(ord);
  }

  private rankOfOrdinal(ord: number): number {
    const a = this.sorted;
    const col = this.column;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (col.compare(a[mid]!, ord) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < a.length && col.compare(a[lo]!, ord) === 0 ? lo : lo - 0.5;
  }

  /** The rank a string has or would have: an index of `sorted`, or between two of them. */
  rankOf(s: string): number {
    const a = this.sorted;
    const col = this.column;
    const { buf, len } = col.encode(s);
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (col.compareBytes(a[mid]!, buf, len) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < a.length && col.compareBytes(a[lo]!, buf, len) === 0 ? lo : lo - 0.5;
  }

  /**
   * Merges the strings added since the last refresh into `sorted` and re-ranks every
   * ordinal. The added strings are decoded for the sort and dropped after it.
   */
  refresh(ordinals: number): void {
    if (this.pending.length === 0) return;
    const pend = this.pending.array.subarray(0, this.pending.length);
    const col = this.column;
    const strings: string[] = [];
    const ords: number[] = [];
    for (let i = 0; i < pend.length; i++) {
      const s = col.get(pend[i]!);
      if (s !== undefined) {
        strings.push(s);
        ords.push(pend[i]!);
      }
    }
    const byString = ords.map((_, i) => i);
    const surrogate = strings.some((s) => /[\uD800-\uDFFF]/.test(s));
    byString.sort(surrogate ? (i, j) => compareCodePoints(strings[i]!, strings[j]!) : (i, j) => (strings[i]! < strings[j]! ? -1 : strings[i]! > strings[j]! ? 1 : 0));
    const old = this.sorted;
    // A few strings into many (a feed that has caught up, issue #14 point 6): find their
    // places by binary search instead of decoding every known string.
    if (byString.length * (32 - Math.clz32(old.length)) * 4 < old.length) {
      this.insertFew(ordinals, strings, ords, byString);
      return;
    }
    const merged = new Uint32Array(old.length + byString.length);
    let m = 0;
    const newOf = new Float64Array(old.length);
    /** New rank of each added ordinal (by its index in `ords`). */
    const rankOfAdded = new Float64Array(ords.length);
    let i = 0;
    let j = 0;
    let oldString = old.length > 0 ? col.get(old[0]!)! : '';
    /** The string of merged[m - 1]. */
    let last: string | undefined;
    while (i < old.length || j < byString.length) {
      const c = i === old.length ? 1 : j === byString.length ? -1 : compareCodePoints(oldString, strings[byString[j]!]!);
      if (c <= 0) {
        // c === 0: an added string that was known already (its ordinal was set before a refresh)
        if (c === 0) rankOfAdded[byString[j++]!] = m;
        newOf[i] = m;
        merged[m++] = old[i++]!;
        last = oldString;
        if (i < old.length) oldString = col.get(old[i]!)!;
      } else {
        const k = byString[j++]!;
        const s = strings[k]!;
        if (m === 0 || last !== s) {
          merged[m++] = ords[k]!;
          last = s;
        }
        rankOfAdded[k] = m - 1;
      }
    }
    this.sorted = merged.slice(0, m);
    const rank = this.rank.ensure(ordinals);
    for (let d = 0; d < ordinals; d++) {
      const r = rank[d]!;
      if (r === Math.floor(r)) rank[d] = newOf[r]!; // NaN stays NaN
    }
    for (let k = 0; k < ords.length; k++) rank[ords[k]!] = rankOfAdded[k]!;
    this.pending = new U32List();
    this.generation++;
  }

  /**
   * refresh() for a few added strings (`byString`: indexes of `strings` / `ords` in code
   * point order): each one's place among the known strings by binary search, comparing
   * bytes in place, then the known strings copied around them and every ordinal's rank
   * shifted by the added strings below it. O(added · log known) comparisons and two passes
   * over typed arrays; no known string is decoded (a refresh of 1,024 strings into 1 M
   * took 0.5–1.2 s by the merge, on a thread that serves searches).
   */
  private insertFew(ordinals: number, strings: string[], ords: number[], byString: number[]): void {
    const old = this.sorted;
    const col = this.column;
    const merged = new Uint32Array(old.length + byString.length);
    const newOf = new Uint32Array(old.length);
    const rankOfAdded = new Float64Array(ords.length);
    let m = 0;
    let i = 0;
    let last: string | undefined;
    for (const k of byString) {
      const ord = ords[k]!;
      let lo = i;
      let hi = old.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (col.compare(old[mid]!, ord) < 0) lo = mid + 1;
        else hi = mid;
      }
      for (; i < lo; i++) {
        newOf[i] = m;
        merged[m++] = old[i]!;
      }
      const s = strings[k]!;
      if (i < old.length && col.compare(old[i]!, ord) === 0) rankOfAdded[k] = m; // known already: old[i] goes to m next
      else if (last === s) rankOfAdded[k] = m - 1; // the same as the previous added string
      else {
        merged[m++] = ord;
        rankOfAdded[k] = m - 1;
        last = s;
      }
    }
    for (; i < old.length; i++) {
      newOf[i] = m;
      merged[m++] = old[i]!;
    }
    this.sorted = m === merged.length ? merged : merged.slice(0, m);
    const rank = this.rank.ensure(ordinals);
    for (let d = 0; d < ordinals; d++) {
      const r = rank[d]!;
      if (r === Math.floor(r)) rank[d] = newOf[r]!; // NaN stays NaN
    }
    for (let k = 0; k < ords.length; k++) rank[ords[k]!] = rankOfAdded[k]!;
    this.pending = new U32List();
    this.generation++;
  }
}

/**
 * Sorts strings in code point order. The built-in sort compares UTF-16 code units, which
 * differs from code point order only when a surrogate meets a unit from U+E000 to U+FFFF;
 * it is used unless a string has a surrogate.
 */
export function sortCodePoints(a: string[]): void {
  let surrogate = false;
  for (let i = 0; i < a.length && !surrogate; i++) surrogate = /[\uD800-\uDFFF]/.test(a[i]!);
  if (surrogate) a.sort(compareCodePoints);
  else a.sort();
}
