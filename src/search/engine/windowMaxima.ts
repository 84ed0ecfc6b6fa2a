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
