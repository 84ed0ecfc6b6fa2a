/**
 * Ranks of string sort keys (and of ids), so that orders compare numbers instead of strings
 * (issue #14 point 8: ordering a million hits by title compared a million strings).
 *
 * `sorted` holds the distinct strings known at the last refresh, in code point order. Each
 * ordinal's rank is the index of its string there, or, for a string added since, a half
 * rank: (number of sorted strings below it) − 0.5. Either way the rank is monotone in the
 * string: s < t implies rank(s) ≤ rank(t), and equal integer ranks mean equal strings. Two
 * strings added since the last refresh may share a half rank; an order then compares the
 * strings themselves (order.ts). A missing value has rank NaN. An ordinal's string never
 * changes (an upsert takes a new ordinal), so ranks stay true until the next refresh, which
 * merges the new strings in: O(distinct + new · log new), run when a search finds more than
 * an eighth of the ordinals half-ranked, or when a feed has caught up (feed.ts).
 */
import { Growable, U32List } from './growable.js';
import { compareCodePoints } from './order.js';

export class RankedStrings {
  private sorted: string[] = [];
  readonly rank = new Growable(Float64Array, 1024, NaN);
  /** Ordinals given a half rank since the last refresh. */
  private pending = new U32List();
  /** Moves on every refresh: integer ranks of one generation index `distinct` of that generation. */
  generation = 0;

  constructor(
    /** The string of an ordinal (undefined once deleted). */
    private readonly valueOf: (ord: number) => string | undefined,
  ) {}

  get stale(): number {
    return this.pending.length;
  }

  /** The distinct strings known at the last refresh, in code point order (suggest.ts searches them). */
  get distinct(): readonly string[] {
    return this.sorted;
  }

  /** The ordinals given a half rank since the last refresh (their strings are not in `distinct`). */
  pendingOrdinals(): Uint32Array {
    return this.pending.array.subarray(0, this.pending.length);
  }

  set(ord: number, s: string | undefined): void {
    if (s === undefined) {
      this.rank.set(ord, NaN);
      return;
    }
    const r = this.rankOf(s);
    this.rank.set(ord, r);
    if (r !== Math.floor(r)) this.pending.push(ord);
  }

  /** The rank a string has or would have: an index of `sorted`, or between two of them. */
  rankOf(s: string): number {
    const a = this.sorted;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCodePoints(a[mid]!, s) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < a.length && a[lo] === s ? lo : lo - 0.5;
  }

  /** Merges the strings added since the last refresh into `sorted` and re-ranks every ordinal. */
  refresh(ordinals: number): void {
    if (this.pending.length === 0) return;
    const pend = this.pending.array.subarray(0, this.pending.length);
    const added: string[] = [];
    for (let i = 0; i < pend.length; i++) {
      const s = this.valueOf(pend[i]!);
      if (s !== undefined) added.push(s);
    }
    sortCodePoints(added);
    const old = this.sorted;
    const merged: string[] = [];
    const newOf = new Float64Array(old.length);
    /** New rank of each added string. */
    const index = new Map<string, number>();
    let i = 0;
    let j = 0;
    while (i < old.length || j < added.length) {
      const c = i === old.length ? 1 : j === added.length ? -1 : compareCodePoints(old[i]!, added[j]!);
      if (c < 0) {
        newOf[i] = merged.length;
        merged.push(old[i++]!);
      } else if (c === 0) {
        // an added string that was known already (e.g. its ordinal was set before a refresh)
        index.set(added[j++]!, merged.length);
        newOf[i] = merged.length;
        merged.push(old[i++]!);
      } else {
        const s = added[j++]!;
        if (merged.length === 0 || merged[merged.length - 1] !== s) merged.push(s);
        index.set(s, merged.length - 1);
      }
    }
    this.sorted = merged;
    const rank = this.rank.ensure(ordinals);
    for (let d = 0; d < ordinals; d++) {
      const r = rank[d]!;
      if (r === Math.floor(r)) rank[d] = newOf[r]!; // NaN stays NaN
    }
    for (let k = 0; k < pend.length; k++) {
      const s = this.valueOf(pend[k]!);
      if (s !== undefined) rank[pend[k]!] = index.get(s)!;
    }
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
