/**
 * Relevance top-k without scoring every hit (docs/search-engine.md "Top-k by bounds"), for
 * a word, or an OR or an AND of words: the hits are found without scores (what the total,
 * the facets and the matched terms need), and only the hits that can be among the first `k`
 * are scored.
 *
 * A word is the sum of its leaves (evaluate.ts `word`: its folded term, then ½ × each of
 * its analysed forms), each leaf a list of postings with a weight (Σ field weight ×
 * min(tf, 3)) and a factor (its idf, halved for a form). The ordinals are cut into windows
 * of 64, and each long list keeps the largest weight of its postings per window (kept with
 * its decoded postings, postingsCache.ts; both are append-only, so it is brought up to date
 * by what was appended since). No hit of a window scores more than the sum over the leaves
 * of factor × that window's largest weight, the window's bound (as Lucene's block-max
 * bounds, over windows that every list shares so that the bounds of several lists add up).
 * The windows are visited from the highest bound down; the best `k` scores of the hits
 * seen so far give a threshold, and once no window left has a bound reaching it the rest
 * are not read. Ties count: every hit whose score reaches the threshold is kept, so that the
 * tiebreak decides among them as it would among all hits.
 *
 * The hits of the exact-title tier come first whatever their score (sortPlan.ts): they are
 * found apart (the exact-match hash of each hit) and always kept. What is returned are
 * candidates with their exact scores (summed in the order the evaluator sums them, so the
 * same numbers to the last bit), which the caller orders as it would all hits.
 */
import type { QueryNode } from '../../query/ast.js';
import { queryForms } from './analysis.js';
import type { Deadline } from './errors.js';
import { tokens } from './fold.js';
import type { Hits } from './hits.js';
import { hashString } from './order.js';
import { idf, liveDf, lowerBound, Postings } from './postings.js';
import type { CachedPostings } from './postingsCache.js';
import { hashString2, type SearchIndex } from './SearchIndex.js';
import type { OrdinalRange } from './shards.js';
import type { KeptWord, WordLeaf } from './keptWords.js';
import { exactKey, tiebreakKey } from './sortPlan.js';
import { foldMaxima, maximaRoom, WINDOW_BITS, windowsOf } from './windowMaxima.js';

/** Lists of at least this many postings keep their window maxima between searches. */
const KEEP_MAXIMA = 16_384;
/** Bounds are widened by this much, so that a sum rounded otherwise never exceeds them. */
const SLACK = 1 + 1e-9;
/** Buckets the windows are sorted into by bound. */
const BUCKETS = 256;
/** Windows are bounded from the postings when a window has fewer than 1/SPARSE of one. */
const SPARSE = 4;
/** Pages deeper than this order all hits as before. */
export const MAX_TOP = 1000;

/** One term (or analysed form) of a word, in the fields of `mask`; `half` for a form. */
type Leaf = WordLeaf;

/** A query of words this module can bound: their leaves, per word in the evaluator's order. */
export interface TopQuery {
  words: Leaf[][];
}

/**
 * The words of a relevance query of one word, or an OR or an AND of words (terms of one
 * token on no field or a text field, without a boost), or of such a query AND NOT others;
 * undefined for any other query, for an OR with a minimum or an AND with scoring-only
 * clauses (edismax), and for a word that may split into a compound (no document holds it:
 * evaluate.ts `compoundSplit`).
 */
export function topQuery(ix: SearchIndex, query: QueryNode<string>): TopQuery | undefined {
  // `X AND NOT Y` (more like this leaves its item out so): NOT adds no score, it only removes
  // hits, and the hits given to topCandidates are the whole query's; X's words bound them.
  if (query.kind === 'and' && query.should === undefined) {
    const positive = query.children.filter((c) => c.kind !== 'not');
    if (positive.length === 1 && query.children.length > 1) return topQuery(ix, positive[0]!);
  }
  const terms = query.kind === 'term' ? [query] : query.kind === 'or' || query.kind === 'and' ? query.children : [];
  if (terms.length === 0 || (query.kind === 'and' && terms.length < 2)) return undefined;
  // an OR with a minimum or an AND with scoring-only clauses (edismax mm, pf) is evaluated whole
  if ((query.kind === 'or' && (query.min ?? 1) > 1) || (query.kind === 'and' && query.should !== undefined)) return undefined;
  const allText = ix.schema.text.length === 32 ? 0xffffffff : (1 << ix.schema.text.length) - 1;
  const words: Leaf[][] = [];
  for (const t of terms) {
    // a boosted word (`goethe^2`) is not bounded by its postings' weights: evaluated whole
    if (t.kind !== 'term' || t.boost !== undefined) return undefined;
    let mask: number;
    if (t.field === null) mask = allText;
    else {
      const f = ix.textField.get(t.field);
      if (t.field === ix.schema.idField || ix.schema.constants?.[t.field] !== undefined || f === undefined) return undefined;
      mask = 1 << f;
    }
    const toks = tokens(t.text);
    if (toks.length !== 1) return undefined;
    const w = toks[0]!;
    const leaves: Leaf[] = [];
    const id = ix.terms.get(w);
    const forms = ix.analysed;
    const am = mask & ix.analysedMask;
    const analysed = forms !== undefined && am !== 0;
    if (id !== undefined) leaves.push({ id, forms: false, mask, half: false });
    else if (analysed) return undefined; // a compound, maybe
    if (analysed) {
      for (const f of queryForms(w)) {
        if (f !== w) {
          const fid = ix.terms.get(f);
          if (fid !== undefined) leaves.push({ id: fid, forms: false, mask: am, half: true });
        }
        const aid = forms.forms.get(f);
        if (aid !== undefined) leaves.push({ id: aid, forms: true, mask: am, half: true });
      }
    }
    words.push(leaves);
  }
  return { words };
}

/** A leaf read for one search. */
interface List {
  docs: Uint32Array;
  values: Float32Array | Float64Array;
  n: number;
  factor: number;
  half: boolean;
  idf: number;
  /** The window maxima (a kept word's under its filter), or the list to read them from (maxima()). */
  max: Uint8Array | CachedPostings;
  /** Where the last window's walk left off. */
  at: number;
}

/**
 * The hits of an OR of words left unmade (a search whose total is not asked, uncounted.ts):
 * a visited window's hits are read from the words' lists, as a kept word's are, those that
 * `keep` passes (the query's NOT clauses).
 */
export interface ListHits {
  readonly unmade: true;
  readonly keep: (d: number) => boolean;
}

interface Maxima {
  max: Uint8Array;
  /** Postings folded in. */
  n: number;
}

/** Window maxima of the long cached lists, dropped with their list. */
const maximaOf = new WeakMap<CachedPostings, Maxima>();
/**
 * The largest weight of `e`'s postings per window of ordinals, rounded up, 255 for 255 and
 * above (read as unbounded).
 */
function maxima(e: CachedPostings, windows: number): Uint8Array {
  let m = maximaOf.get(e);
  if (m === undefined || m.max.length < windows) {
    m = { max: maximaRoom(m?.max, windows), n: m?.n ?? 0 };
    if (e.n >= KEEP_MAXIMA) maximaOf.set(e, m);
  }
  foldMaxima(m.max, e.docs, e.values!, m.n, e.n);
  m.n = e.n;
  return m.max;
}

/**
 * Candidates for the first `k` hits of `hits` (the query's hits, ascending, or a word's kept
 * answer, keptWords.ts) by relevance, with their exact scores, ascending; undefined when the
 * query must be scored whole (a word no live document holds may be a compound). With
 * `range` (a shard of a scattered search, docs/search-engine.md "Shards"; `hits` are its
 * hits), only the windows of its ordinals are bounded and visited: the candidates for its own
 * first `k`, whose merge with the other shards' has the first `k` of all. From a kept word,
 * a visited window's hits are read from the word's lists (a weight above 0, live, kept by
 * the filter, in the range): the same hits, without a pass over all of them; so too from the
 * lists of an OR whose hits were not made (ListHits).
 */
export function topCandidates(
  ix: SearchIndex,
  query: QueryNode<string>,
  top: TopQuery,
  hits: Uint32Array | KeptWord | ListHits,
  k: number,
  clock: Deadline,
  range?: OrdinalRange,
): Hits | undefined {
  const unmade = !(hits instanceof Uint32Array) && 'unmade' in hits ? hits : undefined;
  const kept = hits instanceof Uint32Array || 'unmade' in hits ? undefined : hits;
  const docs = hits instanceof Uint32Array ? hits : undefined;
  const postings = new Postings(ix, clock);
  const windows = windowsOf(ix.ordinals);
  // the windows [w0, w1) that hold the range's ordinals
  const w0 = range === undefined ? 0 : Math.min(windows, range.from >>> WINDOW_BITS);
  const w1 = range === undefined ? windows : Math.min(windows, Math.ceil(range.to / (1 << WINDOW_BITS)));
  const words: List[][] = [];
  const analysed = ix.analysed !== undefined;
  for (const leaves of top.words) {
    const lists: List[] = [];
    for (let i = 0; i < leaves.length; i++) {
      const l = leaves[i]!;
      const e = kept?.lists[i] ?? postings.decoded(l.id, l.mask, false, l.forms);
      const df = liveDf(ix, e);
      // a word no live document holds may be a compound (evaluate.ts word)
      if (i === 0 && !l.half && df === 0 && analysed && (l.mask & ix.analysedMask) !== 0) return undefined;
      const w = idf(ix.size, df);
      lists.push({
        docs: e.docs,
        values: e.values!,
        n: e.n,
        idf: w,
        half: l.half,
        factor: l.half ? 0.5 * w : w,
        max: kept?.maxima?.[i] ?? e,
        at: 0,
      });
      clock.tick(1);
    }
    words.push(lists);
  }
  const all = words.flat();
  // A query of few postings against many windows (a rare word) bounds only the windows its
  // postings are in (sparseBounds), not every window of the index: that pass, and the
  // arrays of a byte and a double per window, grow with the index, not with the query.
  let postingCount = 0;
  for (const l of all) postingCount += l.n;
  const sparse = kept === undefined && postingCount * SPARSE < w1 - w0 ? sparseBounds(all, w0, w1) : undefined;
  // the windows below as slots [lo, hi): a window each, or the sparse windows in order
  const wins = sparse?.wins;
  const lo = sparse === undefined ? w0 : 0;
  const hi = sparse === undefined ? w1 : sparse.wins.length;
  let bound: Float64Array;
  if (sparse !== undefined) {
    bound = sparse.bound;
    clock.tick(postingCount + 4 * (hi - lo));
  } else {
    // the loops over the windows below, once per list and a few times more
    clock.tick((w1 - w0) * (all.length + 4));
    // The scratch pool's (docs/search-engine.md "Memory layout"): a fresh array of every
    // window (134 KB at 1.1 M items) per search and shard cost its page faults each time.
    bound = ix.scratchPool.f64(windows).fill(0, w0, w1);
    for (const l of all) {
      const max = l.max instanceof Uint8Array ? l.max : maxima(l.max, windows);
      const f = l.factor;
      for (let w = w0; w < w1; w++) {
        const m = max[w]!;
        if (m !== 0) bound[w]! += m === 255 ? Infinity : f * m;
      }
    }
  }

  // the exact-title tier: kept whatever the score
  const key = exactKey(ix, query);
  const ea = ix.exactA.array;
  const eb = ix.exactB.array;
  const a = key === null ? 0 : hashString(key);
  const b = key === null ? 0 : hashString2(key);
  const tier = (d: number) => key !== null && ea[d] === a && eb[d] === b;

  const outDocs: number[] = [];
  const outScores: number[] = [];
  if (key !== null && docs !== undefined) {
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      if (ea[d] === a && eb[d] === b) {
        outDocs.push(d);
        outScores.push(scoreOf(words, d, true));
      }
    }
    clock.tick(docs.length);
  } else if (key !== null && kept !== undefined) {
    for (const d of kept.tier) {
      if (range !== undefined && (d < range.from || d >= range.to)) continue;
      outDocs.push(d);
      outScores.push(scoreOf(words, d, true));
    }
  } else if (key !== null && unmade !== undefined) {
    for (const d of unmadeTier(ix, top, words, unmade.keep, tier, range)) {
      outDocs.push(d);
      outScores.push(scoreOf(words, d, true));
    }
  }
  const keep = kept?.keep ?? unmade?.keep;
  const inWindow = keep === undefined ? undefined : windowHits(all, keep, ix.live.array, range);

  // bounds per slot, sorted into buckets from the highest down
  let highest = 0;
  for (let i = lo; i < hi; i++) if (bound[i]! > highest && bound[i]! < Infinity) highest = bound[i]!;
  if (highest === 0) highest = 1;
  const bucketOf = (x: number) => (x === Infinity ? BUCKETS : Math.min(BUCKETS - 1, Math.floor((x / highest) * BUCKETS)));
  const start = new Uint32Array(BUCKETS + 2);
  for (let i = lo; i < hi; i++) if (bound[i]! > 0) start[BUCKETS - bucketOf(bound[i]!) + 1]!++;
  for (let i = 0; i <= BUCKETS; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, BUCKETS + 1);
  const order = new Uint32Array(start[BUCKETS + 1]!);
  for (let i = lo; i < hi; i++) if (bound[i]! > 0) order[fill[BUCKETS - bucketOf(bound[i]!)]!++] = i;

  // Ties on score are ordered by the tiebreak's key (sortPlan.ts tiebreakKey) where a kept
  // word of one list knows, per window, its top weight, the weight below, and the smallest
  // key at the top (windowMaxima.ts WindowTies): the threshold is then the k-th best
  // (score, key), and a window is skipped when its top scores no more than the threshold,
  // the weight below scores less, and its smallest key at the top comes after the
  // threshold's. A hit's score is its one product (scoreOf), no larger for a smaller weight;
  // without ties, every key is 0 and every tie is kept.
  const ties = kept?.ties;
  const keyOf = (ties === undefined ? undefined : tiebreakKey(ix)) ?? (() => 0);
  const one = all[0]!;
  const scoreOfWeight = (v: number) => (one.half ? 0.5 * (one.idf * v) : one.idf * v);
  // the best k (score, key) so far (a heap, the worst on top), and the hits that reached it then
  const heapScores = new Float64Array(k);
  const heapKeys = new Float64Array(k);
  let size = 0;
  /** Whether (a, x) is worse than (b, y): a lower score, or the same and a later key. */
  const worse = (a: number, x: number, b: number, y: number) => a < b || (a === b && x > y);
  /** Whether (s, key) reaches the threshold: as good as the k-th best, or fewer than k seen. */
  const reaches = (s: number, key: number) => size < k || !worse(s, key, heapScores[0]!, heapKeys[0]!);
  const threshold = () => (size < k ? -Infinity : heapScores[0]!);
  const push = (s: number, key: number) => {
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(s, key, heapScores[p]!, heapKeys[p]!)) break;
        heapScores[i] = heapScores[p]!;
        heapKeys[i] = heapKeys[p]!;
        i = p;
      }
      heapScores[i] = s;
      heapKeys[i] = key;
      return;
    }
    if (!worse(heapScores[0]!, heapKeys[0]!, s, key)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && worse(heapScores[r]!, heapKeys[r]!, heapScores[l]!, heapKeys[l]!) ? r : l;
      if (!worse(heapScores[c]!, heapKeys[c]!, s, key)) break;
      heapScores[i] = heapScores[c]!;
      heapKeys[i] = heapKeys[c]!;
      i = c;
    }
    heapScores[i] = s;
    heapKeys[i] = key;
  };
  const seenDocs: number[] = [];
  const seenScores: number[] = [];
  const seenKeys: number[] = [];
  for (let g = 0; g <= BUCKETS; g++) {
    // every window of bucket `g` on has a bound below the top of its range
    const bucket = BUCKETS - g;
    const top = bucket === BUCKETS ? Infinity : ((bucket + 1) / BUCKETS) * highest * SLACK;
    if (top < threshold()) break;
    for (let o = start[g]!; o < start[g + 1]!; o++) {
      const slot = order[o]!;
      if (bound[slot]! * SLACK < threshold()) continue;
      const w = wins === undefined ? slot : wins[slot]!;
      // no hit folded in (a hit is folded in when added), or none that can come before the k-th
      if (
        ties !== undefined &&
        (ties.first[w]! < 0 ||
          (size === k &&
            scoreOfWeight(ties.top[w]!) <= heapScores[0]! &&
            scoreOfWeight(ties.below[w]!) < heapScores[0]! &&
            keyOf(ties.first[w]!) > heapKeys[0]!))
      )
        continue;
      const from = w << WINDOW_BITS;
      for (const l of all) l.at = lowerBound(l.docs, l.n, from, 0);
      const window = inWindow === undefined ? docs! : inWindow(from);
      let h = lowerBound(window, window.length, from, 0);
      const end = from + (1 << WINDOW_BITS);
      for (; h < window.length && window[h]! < end; h++) {
        const d = window[h]!;
        if (tier(d)) continue;
        const s = scoreOf(words, d, false);
        const key = keyOf(d);
        if (reaches(s, key)) {
          push(s, key);
          seenDocs.push(d);
          seenScores.push(s);
          seenKeys.push(key);
        }
      }
      clock.tick(64);
    }
  }
  for (let i = 0; i < seenDocs.length; i++) {
    if (reaches(seenScores[i]!, seenKeys[i]!)) {
      outDocs.push(seenDocs[i]!);
      outScores.push(seenScores[i]!);
    }
  }
  const idx = outDocs.map((_, i) => i).sort((x, y) => outDocs[x]! - outDocs[y]!);
  return { docs: Uint32Array.from(idx, (i) => outDocs[i]!), scores: Float64Array.from(idx, (i) => outScores[i]!) };
}

/**
 * The windows of [w0, w1) in which a list has a posting of weight above 0, ascending, and
 * the bound of each (as the window maxima give it: Σ factor × the largest weight rounded up,
 * unbounded from 255), read from the postings.
 */
function sparseBounds(lists: readonly List[], w0: number, w1: number): { wins: Uint32Array; bound: Float64Array } {
  const from = w0 << WINDOW_BITS;
  const seen: number[] = [];
  for (const l of lists) {
    for (let p = lowerBound(l.docs, l.n, from, 0); p < l.n; p++) {
      const w = l.docs[p]! >>> WINDOW_BITS;
      if (w >= w1) break;
      if (l.values[p]! > 0) seen.push(w);
    }
  }
  const sorted = Uint32Array.from(seen).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
  const wins = sorted.subarray(0, n);
  const bound = new Float64Array(n);
  for (const l of lists) {
    let j = 0;
    let w = -1;
    let m = 0;
    const add = () => {
      if (m === 0) return;
      while (wins[j] !== w) j++;
      bound[j]! += m === 255 ? Infinity : l.factor * m;
    };
    for (let p = lowerBound(l.docs, l.n, from, 0); p < l.n; p++) {
      const pw = l.docs[p]! >>> WINDOW_BITS;
      if (pw >= w1) break;
      if (pw !== w) {
        add();
        w = pw;
        m = 0;
      }
      const v = Math.min(255, Math.ceil(l.values[p]!));
      if (v > m) m = v;
    }
    add();
  }
  return { wins, bound };
}

/**
 * The hits of a window read from a word's lists (`lists`, each read from its first posting
 * in the window, `at`, which the caller sets): the ordinals with a posting of weight above 0
 * in one of them, live, kept by the filter and in `range`, ascending (a window has 64
 * ordinals: a bit each).
 */
function windowHits(lists: readonly List[], keep: (d: number) => boolean, live: Uint8Array, range: OrdinalRange | undefined) {
  const out = new Uint32Array(1 << WINDOW_BITS);
  const lo = range?.from ?? 0;
  const hi = range?.to ?? Infinity;
  return (from: number): Uint32Array => {
    const end = from + (1 << WINDOW_BITS);
    let low = 0;
    let high = 0;
    for (const l of lists) {
      for (let p = l.at; p < l.n && l.docs[p]! < end; p++) {
        if (!(l.values[p]! > 0)) continue;
        const bit = l.docs[p]! - from;
        if (bit < 32) low |= 1 << bit;
        else high |= 1 << (bit - 32);
      }
    }
    let n = 0;
    for (let bit = 0; bit < 1 << WINDOW_BITS; bit++) {
      if (((bit < 32 ? low >>> bit : high >>> (bit - 32)) & 1) === 0) continue;
      const d = from + bit;
      if (live[d] === 1 && d >= lo && d < hi && keep(d)) out[n++] = d;
    }
    return out.subarray(0, n);
  };
}

/**
 * The exact-title tier of an OR whose hits were not made, ascending: a document whose title's
 * words are the query's (sortPlan.ts exactKey: the words on no field or the first) holds each
 * of them in its title, so it is among the postings of any one of them; the shortest list of
 * such a word is read, each posting tested by the exact-match hash (`tier`), liveness, `keep`
 * and the range.
 */
function unmadeTier(
  ix: SearchIndex,
  top: TopQuery,
  words: List[][],
  keep: (d: number) => boolean,
  tier: (d: number) => boolean,
  range: OrdinalRange | undefined,
): number[] {
  // a word's first leaf is its folded term (topQuery; the caller asks that every word has
  // one); on no field or the title its mask holds the title's bit
  let shortest: List | undefined;
  top.words.forEach((leaves, w) => {
    if ((leaves[0]!.mask & 1) === 0) return;
    const l = words[w]![0]!;
    if (shortest === undefined || l.n < shortest.n) shortest = l;
  });
  const out: number[] = [];
  if (shortest === undefined) return out;
  const live = ix.live.array;
  const lo = range?.from ?? 0;
  const hi = range?.to ?? Infinity;
  for (let p = lowerBound(shortest.docs, shortest.n, lo, 0); p < shortest.n; p++) {
    const d = shortest.docs[p]!;
    if (d >= hi) break;
    if (shortest.values[p]! > 0 && live[d] === 1 && tier(d) && keep(d)) out.push(d);
  }
  return out;
}

/**
 * The score of hit `d` as the evaluator sums it: per word its leaves in order, then the
 * words in order, each term scored idf × weight and a form halved after. With `search`, the
 * lists are searched from their start; else each walks on from where the window's last hit
 * left it (hits come ascending within a window).
 */
function scoreOf(words: List[][], d: number, search: boolean): number {
  let total = 0;
  for (const lists of words) {
    let sum = 0;
    let present = false;
    for (const l of lists) {
      let p = search ? lowerBound(l.docs, l.n, d, 0) : l.at;
      while (p < l.n && l.docs[p]! < d) p++;
      if (!search) l.at = p;
      if (p < l.n && l.docs[p] === d) {
        const v = l.values[p]!;
        if (v > 0) {
          const s = l.idf * v;
          sum += l.half ? 0.5 * s : s;
          present = true;
        }
      }
    }
    if (present) total += sum;
  }
  return total;
}
