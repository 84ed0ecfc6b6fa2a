/**
 * The windows top-k bounds are kept over (docs/search-engine.md "Top-k by bounds"): the
 * ordinals cut into windows of 64, and per window the largest weight of a list's postings
 * in it, rounded up to a byte (255 read as unbounded). topScores.ts keeps them per long
 * list; keptWords.ts per common word under a filter, over the postings of the documents the
 * filter keeps.
 */

/** Ordinals per window (as a shift). */
export const WINDOW_BITS = 6;

/** The windows of `ordinals` documents: none for an empty index (not 2^26 from an unsigned -1). */
export function windowsOf(ordinals: number): number {
  return Math.ceil(ordinals / (1 << WINDOW_BITS));
}

/** `max`, or a copy with room for `windows` windows (and an eighth more, for those to come). */
export function maximaRoom(max: Uint8Array | undefined, windows: number): Uint8Array {
  if (max !== undefined && max.length >= windows) return max;
  const grown = new Uint8Array(Math.max(windows, max?.length ?? 0) + (windows >>> 3));
  if (max !== undefined) grown.set(max);
  return grown;
}

/**
 * Folds postings [from, to) of a list into `max` (room for their windows): those of weight
 * above 0 whose document `keep` takes, all without it.
 */
export function foldMaxima(
  max: Uint8Array,
  docs: Uint32Array,
  values: Float32Array | Float64Array,
  from: number,
  to: number,
  keep?: (d: number) => boolean,
): void {
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (keep !== undefined && !(v > 0 && keep(docs[i]!))) continue;
    const k = docs[i]! >>> WINDOW_BITS;
    const w = Math.min(255, Math.ceil(v));
    if (w > max[k]!) max[k] = w;
  }
}

/**
 * Per window, where ties on the top weight of one list are decided (topScores.ts): the
 * largest weight of the postings folded in (`top`), the largest below it (`below`), and of
 * those at the top the ordinal whose tiebreak key is the smallest (`first`, -1: none). A hit
 * below the top scores at most what `below` does; one at the top has a key at least
 * `first`'s. Kept as ordinals, not keys, so that it stays true when ranks are renumbered
 * (ranks.ts refresh keeps their order), and true when a hit is deleted (it only lowers what
 * the window holds).
 */
export class WindowTies {
  top = new Float64Array(0);
  below = new Float64Array(0);
  first = new Int32Array(0);

  /** Makes room for `windows` windows (and an eighth more, for those to come). */
  room(windows: number): void {
    if (this.first.length >= windows) return;
    const n = windows + (windows >>> 3);
    const top = new Float64Array(n).fill(-Infinity);
    const below = new Float64Array(n).fill(-Infinity);
    const first = new Int32Array(n).fill(-1);
    top.set(this.top);
    below.set(this.below);
    first.set(this.first);
    this.top = top;
    this.below = below;
    this.first = first;
  }

  /**
   * Folds postings [from, to) of the list in (room made for their windows): those of weight
   * above 0 whose document `keep` takes.
   */
  fold(
    docs: Uint32Array,
    values: Float32Array | Float64Array,
    from: number,
    to: number,
    key: (d: number) => number,
    keep: (d: number) => boolean,
  ): void {
    const { top, below, first } = this;
    for (let i = from; i < to; i++) {
      const d = docs[i]!;
      const v = values[i]!;
      if (!(v > 0 && keep(d))) continue;
      const w = d >>> WINDOW_BITS;
      const t = top[w]!;
      if (v > t) {
        below[w] = t;
        top[w] = v;
        first[w] = d;
      } else if (v === t) {
        if (key(d) < key(first[w]!)) first[w] = d;
      } else if (v > below[w]!) below[w] = v;
    }
  }

  get bytes(): number {
    return this.top.byteLength + this.below.byteLength + this.first.byteLength;
  }
}
