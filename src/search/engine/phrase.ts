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

/** Positions by document: per document (ascending) its (field, positions) entries (positionsCache.ts's layout). */
type DocPositions = Omit<DecodedPositions, 'reader' | 'entries' | 'positions'>;

/** The positions of one word in the candidates of a phrase, entries ascending by (doc, field). */
interface Positions {
  n: number;
  doc: Uint32Array;
  field: Uint8Array;
  start: Uint32Array;
  pos: Uint32Array;
}

const EMPTY: { docs: Uint32Array; scores: Float64Array } = { docs: EMPTY_DOCS, scores: new Float64Array(0) };

export class PhraseEvaluator {
  constructor(
    private readonly ix: SearchIndex,
    private readonly deadline: Deadline,
  ) {}

  /** A source's decoded positions (positionsCache.ts). */
  private all(s: Source): DecodedPositions {
    const pool = s.forms ? this.ix.analysed!.pool : this.ix.text;
    return this.ix.positionsCache.get(`${s.forms ? 'a' : 't'}${s.id}`, () => pool.reader(s.id), this.deadline);
  }

  /**
   * Each phrase's hits: per document Σ idf of its words × Σ over fields of weight ×
   * min(count, 3), where a word's df is that of the live documents holding one of its
   * sources in any field. Phrases of the same sources (a phrase and the phrase of its
   * forms, when its words have no other form in the index) are matched once, each
   * summing the fields of its own mask.
   */
  evaluate(specs: readonly PhraseSpec[], slop: number): Array<{ docs: Uint32Array; scores: Float64Array }> {
    const results: Array<{ docs: Uint32Array; scores: Float64Array }> = specs.map(() => EMPTY);
    const groups = new Map<string, number[]>();
    specs.forEach((spec, k) => {
      const key = spec.words.map((w) => w.map((x) => `${x.forms ? 'a' : 't'}${x.id}`).join(',')).join(' ');
      const g = groups.get(key);
      if (g === undefined) groups.set(key, [k]);
      else g.push(k);
    });
    const live = this.ix.live.array;
    for (const members of groups.values()) {
      const words = specs[members[0]!]!.words;
      if (words.some((w) => w.length === 0)) continue;
      let mask = 0;
      for (const k of members) mask |= specs[k]!.mask;
      const lists: Uint32Array[] = [];
      let idfSum = 0;
      for (const sources of words) {
        let docs: Uint32Array;
        if (sources.length === 1) {
          const a = this.all(sources[0]!);
          docs = a.docs.subarray(0, a.n);
        } else {
          docs = EMPTY_DOCS;
          for (const x of sources) {
            const a = this.all(x);
            docs = unionDocs(docs, a.docs.subarray(0, a.n), new Uint32Array(docs.length + a.n));
          }
        }
        let df = 0;
        for (let i = 0; i < docs.length; i++) df += live[docs[i]!]!;
        this.deadline.tick(docs.length);
        idfSum += idf(this.ix.size, df);
        lists.push(docs);
      }
      const cands = this.intersectAll(lists);
      let n = 0;
      for (let i = 0; i < cands.length; i++) if (live[cands[i]!] === 1) cands[n++] = cands[i]!;
      if (n === 0) continue;
      const c = cands.subarray(0, n);
      // a word of one source is matched in its decoded positions in place; the positions of
      // several sources are united first, for the candidates only
      const positions = words.map((sources) =>
        sources.length === 1 ? this.all(sources[0]!) : byDocument(unite(sources.map((x) => this.decode(x, c, mask)))),
      );
      const masks = members.map((k) => specs[k]!.mask);
      this.match(positions, c, idfSum, slop, masks).forEach((r, i) => (results[members[i]!] = r));
    }
    return results;
  }

  /** The documents in every list (ascending), the shortest list leading. */
  private intersectAll(lists: Uint32Array[]): Uint32Array {
    const sorted = [...lists].sort((a, b) => a.length - b.length);
    // a copy: the lists are the cache's (positionsCache.ts), and the caller filters in place
    let acc = sorted[0]!.slice();
    for (let i = 1; i < sorted.length && acc.length > 0; i++) {
      const b = sorted[i]!;
      const out = new Uint32Array(acc.length);
      let k = 0;
      let j = 0;
      for (let a = 0; a < acc.length; a++) {
        const d = acc[a]!;
        // galloping: the leading list is usually much shorter
        if (j < b.length && b[j]! < d) {
          let step = 1;
          while (j + step < b.length && b[j + step]! < d) step *= 2;
          let lo = j + (step >> 1);
          let hi = Math.min(j + step, b.length);
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (b[mid]! < d) lo = mid + 1;
            else hi = mid;
          }
          j = lo;
        }
        if (j < b.length && b[j] === d) out[k++] = d;
      }
      this.deadline.tick(acc.length);
      acc = out.subarray(0, k);
    }
    return acc;
  }

  /**
   * The positions of a source in the documents `cands` (ascending), fields of `mask`, looked
   * up in its decoded positions (positionsCache.ts) by a galloping search per candidate.
   */
  private decode(s: Source, cands: Uint32Array, mask: number): Positions {
    const all = this.all(s);
    const n = cands.length;
    let cap = 16;
    let doc = new Uint32Array(cap);
    let field = new Uint8Array(cap);
    let start = new Uint32Array(cap + 1);
    let pos = new Uint32Array(64);
    let e = 0;
    let np = 0;
    let j = 0;
    const docs = all.docs;
    const total = all.n;
    for (let c = 0; c < n && j < total; c++) {
      const d = cands[c]!;
      if (docs[j]! < d) j = gallop(docs, j, total, d);
      if (j === total || docs[j] !== d) continue;
      for (let x = all.first[j]!, end = all.first[j + 1]!; x < end; x++) {
        const fi = all.field[x]!;
        if (((mask >>> fi) & 1) === 0) continue;
        const p0 = all.start[x]!;
        const count = all.start[x + 1]! - p0;
        if (e === cap) {
          cap *= 2;
          doc = grow32(doc, cap);
          const f8 = new Uint8Array(cap);
          f8.set(field);
          field = f8;
          start = grow32(start, cap + 1);
        }
        if (np + count > pos.length) pos = grow32(pos, Math.max(pos.length * 2, np + count));
        pos.set(all.pos.subarray(p0, p0 + count), np);
        np += count;
        doc[e] = d;
        field[e] = fi;
        start[++e] = np;
      }
    }
    this.deadline.tick(n);
    return { n: e, doc, field, start, pos };
  }

  /**
   * Per candidate and field of `masks`' fields where every word has positions, the count of
   * matches, up to 3; per mask, the candidates with a match in its fields, scored
   * idfSum × Σ over those fields (ascending) of weight × count.
   */
  private match(
    words: readonly DocPositions[],
    cands: Uint32Array,
    idfSum: number,
    slop: number,
    masks: readonly number[],
  ): Array<{ docs: Uint32Array; scores: Float64Array }> {
    const weights = this.ix.weights;
    const k = words.length;
    const outs = masks.map(() => new Scratch());
    const acc = new Float64Array(masks.length);
    let any = 0;
    for (const m of masks) any |= m;
    const at = new Int32Array(k);
    const lo = new Int32Array(k);
    const hi = new Int32Array(k);
    const pos = words.map((w) => w.pos);
    const w0 = words[0]!;
    for (let c = 0; c < cands.length; c++) {
      const d = cands[c]!;
      let ok = true;
      for (let i = 0; i < k && ok; i++) {
        const w = words[i]!;
        let x = at[i]!;
        if (x < w.n && w.docs[x]! < d) x = gallop(w.docs, x, w.n, d);
        at[i] = x;
        ok = x < w.n && w.docs[x] === d;
      }
      if (!ok) continue;
      let matched = false;
      for (let e = w0.first[at[0]!]!, end = w0.first[at[0]! + 1]!; e < end; e++) {
        const field = w0.field[e]!;
        if (((any >>> field) & 1) === 0) continue;
        let all = true;
        for (let i = 1; i < k && all; i++) {
          const w = words[i]!;
          all = false;
          for (let x = w.first[at[i]!]!, xe = w.first[at[i]! + 1]!; x < xe; x++) {
            if (w.field[x] === field) {
              lo[i] = w.start[x]!;
              hi[i] = w.start[x + 1]!;
              all = true;
              break;
            }
          }
        }
        if (!all) continue;
        let tf = 0;
        for (let q = w0.start[e]!, qe = w0.start[e + 1]!; q < qe && tf < TF_CAP; q++) {
          const p = w0.pos[q]!;
          if (slop === 0 ? exactAt(pos, lo, hi, p) : sloppyAt(pos, lo, hi, p, slop)) tf++;
        }
        if (tf === 0) continue;
        if (!matched) acc.fill(0);
        matched = true;
        for (let m = 0; m < masks.length; m++) if ((masks[m]! >>> field) & 1) acc[m]! += weights[field]! * tf;
      }
      if (matched) for (let m = 0; m < masks.length; m++) if (acc[m]! > 0) outs[m]!.push(d, acc[m]!);
    }
    this.deadline.tick(cands.length);
    return outs.map((out) => {
      const docs = out.docs.slice(0, out.n);
      const scores = out.vals.slice(0, out.n);
      for (let i = 0; i < scores.length; i++) scores[i] = idfSum * scores[i]!;
      return { docs, scores };
    });
  }
}

/** Whether words 1… are at `at` + i (word i's positions in pos[i][lo[i]..hi[i]), ascending). */
function exactAt(pos: readonly Uint32Array[], lo: Int32Array, hi: Int32Array, at: number): boolean {
  for (let i = 1; i < pos.length; i++) if (!containsSorted(pos[i]!, lo[i]!, hi[i]!, at + i)) return false;
  return true;
}

/**
 * Whether word 0 at `at` begins a sloppy match: positions of words 1… (each in
 * pos[lo[i]..hi[i]), ascending), all distinct and other than `at`, whose offsets pᵢ − i lie
 * with `at` within `slop` of each other. A search over the choices, each narrowed to the
 * window the choices before it leave.
 */
function sloppyAt(pos: readonly Uint32Array[], lo: Int32Array, hi: Int32Array, at: number, slop: number): boolean {
  const chosen: number[] = [at];
  const walk = (i: number, min: number, max: number): boolean => {
    if (i === pos.length) return true;
    const l = { pos: pos[i]! };
    // offset p − i within [max − slop, min + slop]
    const from = max - slop + i;
    const to = min + slop + i;
    for (let q = lowerBound(l.pos, lo[i]!, hi[i]!, from); q < hi[i]! && l.pos[q]! <= to; q++) {
      const p = l.pos[q]!;
      if (chosen.includes(p)) continue;
      chosen.push(p);
      const off = p - i;
      if (walk(i + 1, Math.min(min, off), Math.max(max, off))) return true;
      chosen.pop();
    }
    return false;
  };
  return walk(1, at, at);
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

function grow32(a: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}

/** Per (doc, field) the union of the lists' positions (the sources of one word): an occurrence counts once. */
function unite(lists: readonly Positions[]): Positions {
  const entries: Array<{ doc: number; field: number; pos: number[] }> = [];
  const byKey = new Map<number, { doc: number; field: number; pos: number[] }>();
  for (const l of lists) {
    for (let e = 0; e < l.n; e++) {
      const k = l.doc[e]! * 32 + l.field[e]!;
      let x = byKey.get(k);
      if (x === undefined) {
        x = { doc: l.doc[e]!, field: l.field[e]!, pos: [] };
        byKey.set(k, x);
        entries.push(x);
      }
      for (let q = l.start[e]!; q < l.start[e + 1]!; q++) x.pos.push(l.pos[q]!);
    }
  }
  entries.sort((a, b) => a.doc - b.doc || a.field - b.field);
  const start = [0];
  const pos: number[] = [];
  for (const x of entries) {
    const sorted = [...new Set(x.pos)].sort((a, b) => a - b);
    for (const p of sorted) pos.push(p);
    start.push(pos.length);
  }
  return {
    n: entries.length,
    doc: Uint32Array.from(entries.map((x) => x.doc)),
    field: Uint8Array.from(entries.map((x) => x.field)),
    start: Uint32Array.from(start),
    pos: Uint32Array.from(pos),
  };
}

/** Entries by (doc, field) regrouped per document. */
function byDocument(p: Positions): DocPositions {
  const docs = new Uint32Array(p.n);
  const first = new Uint32Array(p.n + 1);
  let n = 0;
  for (let e = 0; e < p.n; e++) {
    if (n === 0 || docs[n - 1] !== p.doc[e]) {
      docs[n] = p.doc[e]!;
      first[n++] = e;
    }
  }
  first[n] = p.n;
  return { n, docs, first, field: p.field, start: p.start, pos: p.pos };
}
