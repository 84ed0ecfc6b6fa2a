/**
 * Ranks of string sort keys (and of ids), so that orders compare numbers instead of strings
 * (ordering a million hits by title compared a million strings).
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
 *
 * A refresh is the same in every replica of a pool that holds the same documents at the same
 * ordinals: `sorted` is the distinct strings of the ordinals below the refresh, each rank its
 * string's index there, whatever refreshes came before. So one replica refreshes into shared
 * memory (`refresh(…, true)`, `shared()`) and the others take that (`adopt`), ranking their
 * newer ordinals against it in the room behind it: one copy of the refreshed ranks per node
 * instead of one per thread (docs/search-engine.md "One copy per node").
 */
import { Growable, U32List } from './growable.js';
import { compareCodePoints } from './order.js';
import type { StringColumn } from './stringColumn.js';
import type { ImageSink, ImageSource } from './indexImage.js';

/** A refresh made in shared memory, for the other replicas to take (RankedStrings.adopt). */
export interface SharedRanks {
  /** The ranks of ordinals below `covered`, then room (NaN) that new ordinals' ranks are written into alike. */
  rank: Float64Array<ArrayBuffer>;
  sorted: Uint32Array<ArrayBuffer>;
  /** The ordinals the refresh ranked. */
  covered: number;
}

/** Room behind a shared refresh for ranks of new ordinals, as indexFiles.ts gives an image's columns. */
function withRoom(ordinals: number): number {
  return ordinals + Math.max(4096, ordinals >>> 3);
}

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
  /** The ordinals the last refresh (or the refresh adopted) ranked; 0 since a restore. */
  private covered = 0;
  /** The last refresh was made in shared memory (refresh(…, true)), and nothing written below `covered` since. */
  private sharedRefresh: SharedRanks | undefined;

  constructor(
    /** The strings of the ordinals. */
    readonly column: StringColumn,
  ) {}

  /**
   * The ranks into an image (indexImage.ts) as of `ordinals` ordinals: a refresh rewrites
   * every rank, so they are copied; `sorted` is replaced by a refresh, never changed.
   */
  image(sink: ImageSink, p: string, ordinals: number): void {
    sink.view(`${p}.sorted`, this.sorted);
    sink.copy(`${p}.rank`, this.rank.array, Math.min(ordinals, this.rank.array.length));
    sink.view(`${p}.pending`, this.pending.array, this.pending.length);
    sink.value(`${p}.generation`, this.generation);
  }

  /** The ranks of an image (into empty ones over the restored column). */
  restore(source: ImageSource, p: string): void {
    this.sorted = source.typed(`${p}.sorted`, 'u32');
    const rank = source.lent(`${p}.rank`, 'f64');
    // a new ordinal's rank is written once, the same in every replica that has not refreshed
    // (the generation's `sorted`): in place, in the room behind a replica's view; a refresh copies
    this.rank.restore(rank.array, rank.lent, source.length(`${p}.rank`, 'f64'));
    this.pending = new U32List();
    this.pending.restore(source.typed(`${p}.pending`, 'u32'));
    this.generation = source.value<number>(`${p}.generation`);
    this.covered = 0;
    this.sharedRefresh = undefined;
  }

  /** The last refresh, made in shared memory, for the other replicas (adopt); undefined if it was not. */
  shared(): SharedRanks | undefined {
    return this.sharedRefresh;
  }

  /**
   * Takes another replica's refresh (`shared()`) of the same documents at the same ordinals
   * instead of refreshing: its ranks and `sorted` are viewed in place, and the ordinals from
   * `covered` on are ranked against it, written into the room behind it (every replica
   * writes the same rank there, as `set` does over an image's room). False, and nothing
   * changed, when this one has refreshed as far already or does not hold that many ordinals.
   */
  adopt(refresh: SharedRanks, ordinals: number): boolean {
    if (refresh.covered <= this.covered || refresh.covered > ordinals) return false;
    this.sorted = refresh.sorted;
    this.rank.restore(refresh.rank, true, refresh.covered);
    this.pending = new U32List();
    for (let d = refresh.covered; d < ordinals; d++) this.set(d);
    this.covered = refresh.covered;
    this.sharedRefresh = undefined;
    this.generation++;
    return true;
  }

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
   * ordinal. No string is decoded: the added ordinals are sorted by comparing their bytes
   * in place (UTF-8 byte order is code point order), and each is placed among the known
   * strings by binary search, then the known strings are copied around them and every
   * ordinal's rank shifted by the added strings below it: O(added · log known)
   * comparisons and two passes over typed arrays. (The merge before decoded every known
   * string, a million JS strings at a time: 0.5–1.2 s for 1,024 new strings into 1 M on
   * the thread that serves searches, and a few hundred MB of garbage at the first build.)
   * `share`: into new shared memory, with room behind, for the other replicas (`shared()`),
   * instead of into this thread's own copy of the ranks.
   */
  refresh(ordinals: number, share = false): void {
    if (this.pending.length === 0) return;
    const col = this.column;
    const pend = this.pending.array.subarray(0, this.pending.length);
    let n = 0;
    const added = new Uint32Array(pend.length);
    for (let i = 0; i < pend.length; i++) if (col.has(pend[i]!)) added[n++] = pend[i]!;
    const byString = added.subarray(0, n).sort((a, b) => col.compare(a, b));
    const old = this.sorted;
    const merged = share ? sharedU32(old.length + byString.length) : new Uint32Array(old.length + byString.length);
    const newOf = new Uint32Array(old.length);
    // Every rank is rewritten: never in bytes other threads read, so into this thread's own
    // copy, or into new shared memory that no thread reads yet.
    let rank: Float64Array<ArrayBuffer>;
    if (share) {
      rank = new Float64Array(sharedBuffer(withRoom(ordinals) * 8)).fill(NaN);
      const before = this.rank.array;
      rank.set(before.length <= ordinals ? before : before.subarray(0, ordinals));
    } else {
      this.rank.ensure(ordinals);
      rank = this.rank.own();
    }
    let m = 0;
    let i = 0;
    /** The added ordinal last put into `merged`, -1 for none. */
    let last = -1;
    /** Pairs: an added ordinal, its new rank. */
    const ranked = new Uint32Array(2 * byString.length);
    let p = 0;
    for (let k = 0; k < byString.length; k++) {
      const ord = byString[k]!;
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
      let r: number;
      if (i < old.length && col.compare(old[i]!, ord) === 0)
        r = m; // known already: old[i] goes to m next
      else if (last >= 0 && col.compare(last, ord) === 0)
        r = m - 1; // the same as the previous added string
      else {
        merged[m++] = ord;
        r = m - 1;
        last = ord;
      }
      ranked[p++] = ord;
      ranked[p++] = r;
    }
    for (; i < old.length; i++) {
      newOf[i] = m;
      merged[m++] = old[i]!;
    }
    this.sorted = m === merged.length ? merged : share ? merged.subarray(0, m) : merged.slice(0, m);
    for (let d = 0; d < ordinals; d++) {
      const r = rank[d]!;
      if (r === Math.floor(r)) rank[d] = newOf[r]!; // NaN stays NaN
    }
    for (let k = 0; k < p; k += 2) rank[ranked[k]!] = ranked[k + 1]!;
    this.pending = new U32List();
    this.generation++;
    this.covered = ordinals;
    if (share) {
      this.rank.restore(rank, true, ordinals);
      this.sharedRefresh = { rank, sorted: this.sorted, covered: ordinals };
    } else this.sharedRefresh = undefined;
  }
}

function sharedU32(length: number): Uint32Array<ArrayBuffer> {
  return new Uint32Array(sharedBuffer(length * 4));
}

/** Typed as the index's other arrays, which view shared memory alike (indexImage.ts ImageSource.typed). */
function sharedBuffer(bytes: number): ArrayBuffer {
  return new SharedArrayBuffer(bytes) as unknown as ArrayBuffer;
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
