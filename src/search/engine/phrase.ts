/**
 * Phrases and sloppy phrases (docs/search-engine.md "Phrases"): the documents holding every
 * word of a phrase are found first, by intersecting the words' document lists (the rarest
 * leading, galloping through the others); only then are positions looked at, and only
 * those of these candidates. Both come from the words' decoded positions, kept between
 * searches for long lists (positionsCache.ts), so a common word's list is not walked per
 * search. A phrase and the phrase of its words' analysed forms (evaluate.ts) with the same
 * terms are matched once.
 *
 * Matching, per (document, field) of a phrase's fields: word i at position pᵢ; with slop N,
 * a match is a choice of distinct positions, one per word, whose offsets pᵢ − i lie within
 * N of each other (max − min ≤ N: Lucene's sloppy phrase, where moving a word counts its
 * distance, so `"a b"~1` finds `a x b` and `"a b"~2` finds `b a`); slop 0 is the exact
 * phrase. Its count is the number of positions of the first word that begin a match,
 * counted up to 3 (scores take min(count, 3), so a fourth is never looked for).
 */
import type { Deadline } from './errors.js';
import { EMPTY_DOCS, Scratch, unionDocs } from './hits.js';
import { idf, TF_CAP } from './postings.js';
import type { DecodedPositions } from './positionsCache.js';
import type { SearchIndex } from './SearchIndex.js';
import type { OrdinalRange } from './shards.js';

/** A term (or, with `forms`, an analysed form) by its id. */
export interface Source {
  id: number;
  forms: boolean;
}

/** A phrase to evaluate: per word, the terms or forms that stand for it; its fields. */
export interface PhraseSpec {
  words: ReadonlyArray<readonly Source[]>;
  mask: number;
}

const EMPTY: { docs: Uint32Array; scores: Float64Array } = { docs: EMPTY_DOCS, scores: new Float64Array(0) };

export class PhraseEvaluator {
  /**
   * `span`: only the documents in this range of ordinals are candidates (a shard of a
   * scattered search, docs/search-engine.md "Shards"); the words' document frequencies stay
   * those of the whole index, so the scores are those of the whole evaluation.
   */
  constructor(
    private readonly ix: SearchIndex,
    private readonly deadline: Deadline,
    private readonly span?: OrdinalRange,
  ) {}

  /** A source's decoded positions (positionsCache.ts). */
  private all(s: Source): DecodedPositions {
    const pool = s.forms ? this.ix.analysed!.pool : this.ix.text;
    return this.ix.positionsCache.get(`${s.forms ? 'a' : 't'}${s.id}`, () => pool.reader(s.id), this.deadline);
  }

  /**
   * Each phrase's hits: per document Σ idf of its words × Σ over fields of weight ×
   * min(count, 3), where a word's df is that of the live documents holding one of its
   * sources in any field. A phrase whose words' sources are each among those of another
   * phrase's words (the exact phrase beside the phrase of its words' forms, evaluate.ts)
   * is matched in the same pass over the other's candidates: one intersection of the
   * lists, and per candidate the positions located once. Phrases of the same sources are
   * matched once, each summing the fields of its own mask.
   */
  evaluate(specs: readonly PhraseSpec[], slop: number): Array<{ docs: Uint32Array; scores: Float64Array }> {
    const results: Array<{ docs: Uint32Array; scores: Float64Array }> = specs.map(() => EMPTY);
    const keys = specs.map((spec) => spec.words.map((w) => w.map((x) => `${x.forms ? 'a' : 't'}${x.id}`)));
    // the phrases with most sources lead a group; each other joins the first whose words' sources hold its own
    const order = specs.map((_, k) => k).sort((x, y) => sourceCount(specs[y]!) - sourceCount(specs[x]!));
    const groups: Array<{ lead: number; members: number[] }> = [];
    for (const k of order) {
      if (specs[k]!.words.some((w) => w.length === 0)) continue;
      const g = groups.find((g) => holds(keys[g.lead]!, keys[k]!));
      if (g === undefined) groups.push({ lead: k, members: [k] });
      else g.members.push(k);
    }
    for (const { lead, members } of groups) {
      const ws = specs[lead]!.words.map((sources) => sources.map((x) => this.all(x)));
      // per member, which of the lead's sources (flattened, word by word) it reads; members
      // reading the same ones share their counts
      const flat = keys[lead]!.flat();
      const uses = new Map<string, { use: Uint8Array; idfSum: number; members: number[] }>();
      for (const k of members) {
        const use = new Uint8Array(flat.length);
        let at = 0;
        keys[lead]!.forEach((w, i) => {
          for (const key of w) use[at++] = keys[k]![i]!.includes(key) ? 1 : 0;
        });
        const id = use.join('');
        const u = uses.get(id);
        if (u !== undefined) {
          u.members.push(k);
          continue;
        }
        let idfSum = 0;
        at = 0;
        for (const w of ws) {
          idfSum += idf(this.ix.size, this.liveDf(w.filter((_, s) => use[at + s] === 1)));
          at += w.length;
        }
        uses.set(id, { use, idfSum, members: [k] });
      }
      const cands = this.candidates(ws);
      if (cands.length === 0) continue;
      const sets = [...uses.values()].map((u) => ({ use: u.use, idfSum: u.idfSum, masks: u.members.map((k) => specs[k]!.mask) }));
      const out = this.match(ws, cands, slop, sets);
      [...uses.values()].forEach((u, i) => u.members.forEach((k, m) => (results[k] = out[i]![m]!)));
    }
    return results;
  }

  /**
   * The live documents holding one of a word's sources: for one source, counted once per
   * version of the index and kept on its decoded entry (a common word's list is most of
   * the documents, and counting it per search cost as much as the phrase); for several,
   * the longest's count, then per other source the live documents none before it holds.
   */
  private liveDf(sources: readonly DecodedPositions[]): number {
    if (sources.length === 1) return this.sourceDf(sources[0]!);
    const sorted = [...sources].sort((a, b) => b.n - a.n);
    const live = this.ix.live.array;
    let df = this.sourceDf(sorted[0]!);
    const at = new Int32Array(sorted.length);
    for (let j = 1; j < sorted.length; j++) {
      const s = sorted[j]!;
      at.fill(0);
      for (let x = 0; x < s.n; x++) {
        const d = s.docs[x]!;
        if (live[d] !== 1) continue;
        let seen = false;
        for (let i = 0; i < j && !seen; i++) {
          const o = sorted[i]!;
          let y = at[i]!;
          if (y < o.n && o.docs[y]! < d) y = gallop(o.docs, y, o.n, d);
          at[i] = y;
          seen = y < o.n && o.docs[y] === d;
        }
        if (!seen) df++;
      }
      this.deadline.tick(s.n);
    }
    return df;
  }

  private sourceDf(e: DecodedPositions): number {
    const version = this.ix.version;
    if (e.df !== undefined && e.df.version === version && e.df.n === e.n) return e.df.live;
    const live = this.ix.live.array;
    const docs = e.docs;
    let df = 0;
    for (let i = 0; i < e.n; i++) df += live[docs[i]!]!;
    this.deadline.tick(e.n);
    e.df = { version, n: e.n, live: df };
    return df;
  }

  /**
   * The live documents holding every word (one of its sources), ascending: the word with
   * the fewest postings leads (its sources merged when several), each of its documents
   * looked up in the other words' lists by galloping from the last place found. Within the
   * span only: a shard's part of a phrase costs its share of the lead word's documents.
   */
  private candidates(ws: readonly DecodedPositions[][]): Uint32Array {
    const order = ws.map((_, i) => i).sort((a, b) => total(ws[a]!) - total(ws[b]!));
    const leadWord = ws[order[0]!]!;
    const lead = leadWord.length === 1 ? leadWord[0]!.docs.subarray(0, leadWord[0]!.n) : mergeDocs(leadWord);
    const from = this.span === undefined ? 0 : lowerBound(lead, 0, lead.length, this.span.from);
    const to = this.span === undefined ? lead.length : lowerBound(lead, from, lead.length, this.span.to);
    const others: DecodedPositions[][] = order.slice(1).map((i) => ws[i]!);
    const at: Int32Array[] = others.map((w) => new Int32Array(w.length));
    const live = this.ix.live.array;
    const out = this.ix.scratchPool.u32(to - from);
    let k = 0;
    for (let c = from; c < to; c++) {
      const d = lead[c]!;
      if (live[d] !== 1) continue;
      let all = true;
      for (let i = 0; i < others.length && all; i++) {
        const w = others[i]!;
        const cur = at[i]!;
        all = false;
        for (let s = 0; s < w.length; s++) {
          const e = w[s]!;
          let y = cur[s]!;
          if (y < e.n && e.docs[y]! < d) y = gallop(e.docs, y, e.n, d);
          cur[s] = y;
          if (y < e.n && e.docs[y] === d) {
            all = true;
            break;
          }
        }
      }
      if (all) out[k++] = d;
    }
    this.deadline.tick(to - from);
    return out.subarray(0, k);
  }

  /**
   * Per candidate, per set of sources `sets` reads and per field of its masks' fields where
   * every word has positions (of any of the word's sources in the set, united: an occurrence
   * counts once), the count of matches, up to 3; per mask, the candidates with a match in
   * its fields, scored the set's idfSum × Σ over those fields (ascending) of weight × count.
   */
  private match(
    ws: readonly DecodedPositions[][],
    cands: Uint32Array,
    slop: number,
    sets: ReadonlyArray<{ use: Uint8Array; idfSum: number; masks: readonly number[] }>,
  ): Array<Array<{ docs: Uint32Array; scores: Float64Array }>> {
    const weights = this.ix.weights;
    const k = ws.length;
    const outs = sets.map((set) => set.masks.map(() => new Scratch(this.ix.scratchPool)));
    const acc = new Float64Array(Math.max(...sets.map((set) => set.masks.length)));
    const anyOf = sets.map((set) => set.masks.reduce((a, m) => a | m, 0));
    // per word, its sources flattened: sources first[i] … first[i + 1] − 1
    const srcs: DecodedPositions[] = [];
    const first = new Int32Array(k + 1);
    for (let i = 0; i < k; i++) {
      first[i] = srcs.length;
      for (const e of ws[i]!) srcs.push(e);
    }
    first[k] = srcs.length;
    const at = new Int32Array(srcs.length);
    // per source, the fields where it has positions in the candidate (0: not in it)
    const fieldsOf = new Int32Array(srcs.length);
    const pos: Uint32Array[] = ws.map(() => EMPTY_DOCS);
    const united: Uint32Array[] = ws.map(() => new Uint32Array(64));
    const spare: Uint32Array[] = ws.map(() => new Uint32Array(64));
    const lo = new Int32Array(k);
    const hi = new Int32Array(k);
    const chosen = new Int32Array(k);
    for (let c = 0; c < cands.length; c++) {
      const d = cands[c]!;
      for (let s = 0; s < srcs.length; s++) {
        const e = srcs[s]!;
        let x = at[s]!;
        if (x < e.n && e.docs[x]! < d) x = gallop(e.docs, x, e.n, d);
        at[s] = x;
        let f = 0;
        if (x < e.n && e.docs[x] === d) for (let y = e.first[x]!, ye = e.first[x + 1]!; y < ye; y++) f |= 1 << e.field[y]!;
        fieldsOf[s] = f;
      }
      for (let u = 0; u < sets.length; u++) {
        const { use, idfSum, masks } = sets[u]!;
        // the fields where every word has positions
        let fields = anyOf[u]!;
        for (let i = 0; i < k && fields !== 0; i++) {
          let wf = 0;
          for (let s = first[i]!; s < first[i + 1]!; s++) if (use[s] === 1) wf |= fieldsOf[s]!;
          fields &= wf;
        }
        if (fields === 0) continue;
        let matched = false;
        for (let bits = fields; bits !== 0; bits &= bits - 1) {
          const field = 31 - Math.clz32(bits & -bits);
          for (let i = 0; i < k; i++) {
            let n = 0;
            for (let s = first[i]!; s < first[i + 1]!; s++) {
              if (use[s] === 0 || ((fieldsOf[s]! >>> field) & 1) === 0) continue;
              const e = srcs[s]!;
              const x = at[s]!;
              let y = e.first[x]!;
              while (e.field[y] !== field) y++;
              if (n++ === 0) {
                pos[i] = e.pos;
                lo[i] = e.start[y]!;
                hi[i] = e.start[y + 1]!;
              } else {
                // a second source with positions here: united in one of the word's two buffers
                const prev = pos[i]!;
                const into = prev === united[i] ? spare[i]! : united[i]!;
                const r = unitePositions(into, prev, lo[i]!, hi[i]!, e.pos, e.start[y]!, e.start[y + 1]!);
                if (prev === united[i]) spare[i] = prev;
                united[i] = r.buffer;
                pos[i] = r.buffer;
                lo[i] = 0;
                hi[i] = r.n;
              }
            }
          }
          let tf = 0;
          const p0 = pos[0]!;
          for (let q = lo[0]!, qe = hi[0]!; q < qe && tf < TF_CAP; q++) {
            const p = p0[q]!;
            if (slop === 0 ? exactAt(pos, lo, hi, p) : sloppyAt(pos, lo, hi, chosen, p, slop)) tf++;
          }
          if (tf === 0) continue;
          if (!matched) acc.fill(0);
          matched = true;
          for (let m = 0; m < masks.length; m++) if ((masks[m]! >>> field) & 1) acc[m]! += weights[field]! * tf;
        }
        if (matched) for (let m = 0; m < masks.length; m++) if (acc[m]! > 0) outs[u]![m]!.push(d, idfSum * acc[m]!);
      }
    }
    this.deadline.tick(cands.length);
    // the search's scratch arrays (scratchPool.ts), as a term's hits are
    return outs.map((set) => set.map((out) => ({ docs: out.docs.subarray(0, out.n), scores: out.vals.subarray(0, out.n) })));
  }
}

/** Whether words 1… are at `at` + i (word i's positions in pos[i][lo[i]..hi[i]), ascending). */
function exactAt(pos: readonly Uint32Array[], lo: Int32Array, hi: Int32Array, at: number): boolean {
  for (let i = 1; i < pos.length; i++) if (!containsSorted(pos[i]!, lo[i]!, hi[i]!, at + i)) return false;
  return true;
}

/**
 * Whether word 0 at `at` begins a sloppy match: positions of words 1… (each in
 * pos[i][lo[i]..hi[i]), ascending), all distinct and other than `at`, whose offsets pᵢ − i lie
 * with `at` within `slop` of each other. A search over the choices, each narrowed to the
 * window the choices before it leave; `chosen` holds them (a module function, not a closure
 * per call: this runs per position of every candidate).
 */
function sloppyAt(pos: readonly Uint32Array[], lo: Int32Array, hi: Int32Array, chosen: Int32Array, at: number, slop: number): boolean {
  chosen[0] = at;
  return sloppyFrom(pos, lo, hi, chosen, 1, at, at, slop);
}

function sloppyFrom(
  pos: readonly Uint32Array[],
  lo: Int32Array,
  hi: Int32Array,
  chosen: Int32Array,
  i: number,
  min: number,
  max: number,
  slop: number,
): boolean {
  if (i === pos.length) return true;
  const a = pos[i]!;
  const end = hi[i]!;
  // offset p − i within [max − slop, min + slop]
  const to = min + slop + i;
  for (let q = lowerBound(a, lo[i]!, end, max - slop + i); q < end && a[q]! <= to; q++) {
    const p = a[q]!;
    let taken = false;
    for (let j = 0; j < i && !taken; j++) taken = chosen[j] === p;
    if (taken) continue;
    chosen[i] = p;
    const off = p - i;
    if (sloppyFrom(pos, lo, hi, chosen, i + 1, Math.min(min, off), Math.max(max, off), slop)) return true;
  }
  return false;
}

/** The first index in a[from, hi) whose value is ≥ x, searched for in steps that double from `from`. */
function gallop(a: Uint32Array, from: number, hi: number, x: number): number {
  let step = 1;
  while (from + step < hi && a[from + step]! < x) step *= 2;
  return lowerBound(a, from + (step >> 1), Math.min(from + step, hi), x);
}

/** The first index in a[lo, hi) whose value is ≥ x. */
function lowerBound(a: Uint32Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function containsSorted(a: Uint32Array, lo: number, hi: number, x: number): boolean {
  const i = lowerBound(a, lo, hi, x);
  return i < hi && a[i] === x;
}

/** Sources of a phrase, all words together. */
function sourceCount(spec: PhraseSpec): number {
  let n = 0;
  for (const w of spec.words) n += w.length;
  return n;
}

/** Whether phrase `a`'s words (their sources' keys) hold phrase `b`'s, word by word. */
function holds(a: readonly string[][], b: readonly string[][]): boolean {
  return a.length === b.length && b.every((w, i) => w.every((key) => a[i]!.includes(key)));
}

/** Postings of a word's sources together (documents counted once per source). */
function total(sources: readonly DecodedPositions[]): number {
  let n = 0;
  for (const e of sources) n += e.n;
  return n;
}

/** The documents of several sources, each once, ascending. */
function mergeDocs(sources: readonly DecodedPositions[]): Uint32Array {
  let acc: Uint32Array = EMPTY_DOCS;
  for (const e of sources) acc = unionDocs(acc, e.docs.subarray(0, e.n), new Uint32Array(acc.length + e.n));
  return acc;
}

/** a[alo..ahi) ∪ b[blo..bhi) (both ascending), each position once, written to `buffer` (not `a`; a larger one when too small). */
function unitePositions(
  buffer: Uint32Array,
  a: Uint32Array,
  alo: number,
  ahi: number,
  b: Uint32Array,
  blo: number,
  bhi: number,
): { buffer: Uint32Array; n: number } {
  const need = ahi - alo + (bhi - blo);
  const out = buffer.length < need ? new Uint32Array(Math.max(need, buffer.length * 2)) : buffer;
  let n = 0;
  let i = alo;
  let j = blo;
  while (i < ahi || j < bhi) {
    const x = i < ahi ? a[i]! : 0xffffffff;
    const y = j < bhi ? b[j]! : 0xffffffff;
    const v = x <= y ? x : y;
    if (x === v) i++;
    if (y === v) j++;
    out[n++] = v;
  }
  return { buffer: out, n };
}
