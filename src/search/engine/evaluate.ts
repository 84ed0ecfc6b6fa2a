/**
 * A query tree (src/query/ast.ts) against a SearchIndex: every node becomes the sorted live
 * ordinals it matches, with a relevance score per ordinal when the sort needs one.
 *
 * What a field name means depends on the node (the schema may give one name several roles):
 *   term, phrase, prefix, wildcard:  the id field (exact id), a constant field, a text field
 *       (words), a facet (the exact value; prefix and wildcard over values, case-sensitive),
 *       or a numeric field (a term is an equal number) — the first role that applies;
 *   field:*  the document has a value there; ranges: a numeric field, else a queryable
 *       string sort key (folded bounds against the key);
 *   no field: every text field.
 * A term of several words (`Goethe-Haus`) is the phrase of its words, as before in FTS5.
 *
 * Scores (issue #14 point 7), summed over the positive leaves a document matches:
 *   term:     idf(df) × Σ over its fields of weight × min(tf, 3), where
 *             idf = ln(1 + (N − df + 0.5) / (df + 0.5)) with N live documents and df the live
 *             documents with the term in any field: both independent of history, so any
 *             backend that loads the same documents gets the same scores;
 *   phrase:   Σ idf of its words × Σ over fields of weight × min(phrase count, 3);
 *   prefix, wildcard: the weight of the best field matched (no idf: constant per field);
 *   anything else (facets, ids, numbers, ranges, field:*, *:*): 0.
 */
import type { QueryNode } from '../../query/ast.js';
import { fold, tokens } from '../fold.js';
import { Deadline, SearchRequestError } from './errors.js';
import type { SearchIndex } from './SearchIndex.js';
import { compareCodePoints } from './order.js';
import { literalPrefix } from './wildcard.js';
import { PostingsCache } from './postingsCache.js';

export interface Hits {
  docs: Uint32Array;
  /** Parallel to docs; null when the sort needs no scores. */
  scores: Float64Array | null;
}

/** More words than this from one wildcard is a query to narrow, not to run. */
export const MAX_WILDCARD_TERMS = 1000;
const TF_CAP = 3;
const EMPTY_DOCS: Uint32Array = new Uint32Array(0);

type Leaf = Extract<QueryNode<string>, { kind: 'term' | 'phrase' | 'prefix' | 'wildcard' }>;

let zeroBuffer = new Float64Array(1024);

/** n zero scores, shared: score arrays are never written once made. */
function zeros(n: number): Float64Array {
  if (zeroBuffer.length < n) zeroBuffer = new Float64Array(Math.max(n, zeroBuffer.length * 2));
  return zeroBuffer.subarray(0, n);
}

function allZero(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== 0) return false;
  return true;
}

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** Growable scratch lists, reused within one search. */
class Scratch {
  docs = new Uint32Array(1024);
  vals = new Float64Array(1024);
  n = 0;
  /** Room for `extra` more entries. */
  reserve(extra: number): void {
    if (this.n + extra <= this.docs.length) return;
    const size = Math.max(this.n + extra, this.docs.length * 2);
    const d = new Uint32Array(size);
    d.set(this.docs.subarray(0, this.n));
    this.docs = d;
    const s = new Float64Array(size);
    s.set(this.vals.subarray(0, this.n));
    this.vals = s;
  }
  push(doc: number, v: number): void {
    if (this.n === this.docs.length) this.reserve(1);
    this.docs[this.n] = doc;
    this.vals[this.n++] = v;
  }
}

export class Evaluator {
  /** Positive leaves (outside NOT) with what they matched, for matchedTerms. */
  readonly matched: Array<{ text: string; docs: Uint32Array }> = [];
  private readonly allText: number;

  constructor(
    private readonly ix: SearchIndex,
    private readonly scoring: boolean,
    private readonly deadline: Deadline,
  ) {
    this.allText = ix.schema.text.length === 32 ? 0xffffffff : (1 << ix.schema.text.length) - 1;
  }

  private hits(docs: Uint32Array, scores?: Float64Array): Hits {
    return { docs, scores: this.scoring ? (scores ?? zeros(docs.length)) : null };
  }

  /**
   * The hits with a value of facet `f` among `ids` (a filter). Reads the values of each hit
   * when there are fewer hits than postings to decode, else intersects with the postings;
   * every live document (`*:*`) is simply the postings.
   */
  filter(a: Hits, f: number, ids: readonly number[]): Hits {
    const col = this.ix.facets[f]!;
    if (ids.length === 0 || a.docs.length === 0) return this.hits(EMPTY_DOCS);
    let postings = 0;
    for (const v of ids) postings += col.live.array[v]!;
    if (a.docs === this.ix.allLive() && (a.scores === null || allZero(a.scores))) return this.hits(this.facetDocs(f, ids));
    if (a.docs.length > postings) return this.intersect(a, this.hits(this.facetDocs(f, ids)));
    const mark = new Uint8Array(col.values.size);
    for (const v of ids) mark[v] = 1;
    const start = col.start.array;
    const vals = col.ids.array;
    const docs = new Uint32Array(a.docs.length);
    const scores = a.scores ? new Float64Array(a.docs.length) : null;
    let k = 0;
    for (let i = 0; i < a.docs.length; i++) {
      const d = a.docs[i]!;
      for (let j = start[d]!, end = start[d + 1]!; j < end; j++) {
        if (mark[vals[j]!] === 1) {
          if (scores) scores[k] = a.scores![i]!;
          docs[k++] = d;
          break;
        }
      }
    }
    this.deadline.tick(a.docs.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  evaluate(node: QueryNode<string>, negated = false): Hits {
    this.deadline.tick();
    switch (node.kind) {
      case 'all':
        return this.hits(this.ix.allLive());
      case 'and': {
        const positive = node.children.filter((c) => c.kind !== 'not');
        let acc = positive.length === 0 ? this.hits(this.ix.allLive()) : this.evaluate(positive[0]!, negated);
        for (const c of positive.slice(1)) acc = this.intersect(acc, this.evaluate(c, negated));
        for (const c of node.children) if (c.kind === 'not') acc = this.difference(acc, this.evaluate(c.child, !negated));
        return acc;
      }
      case 'or': {
        let acc: Hits = this.hits(EMPTY_DOCS);
        for (const c of node.children) acc = this.union(acc, this.evaluate(c, negated));
        return acc;
      }
      case 'not':
        return this.difference(this.hits(this.ix.allLive()), this.evaluate(node.child, !negated));
      case 'exists':
        return this.hits(this.exists(node.field));
      case 'range':
        return this.hits(this.range(node));
      default: {
        const h = this.leaf(node);
        if (!negated) {
          const text = node.kind === 'prefix' ? `${node.text}*` : node.kind === 'wildcard' ? node.pattern : node.text;
          this.matched.push({ text, docs: h.docs });
        }
        return h;
      }
    }
  }

  // ---- set algebra over sorted ordinals, scores added ----

  intersect(a: Hits, b: Hits): Hits {
    const n = Math.min(a.docs.length, b.docs.length);
    const docs = new Uint32Array(n);
    const scores = this.scoring ? new Float64Array(n) : null;
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < a.docs.length && j < b.docs.length) {
      const x = a.docs[i]!;
      const y = b.docs[j]!;
      if (x < y) i++;
      else if (y < x) j++;
      else {
        if (scores) scores[k] = a.scores![i]! + b.scores![j]!;
        docs[k++] = x;
        i++;
        j++;
      }
    }
    this.deadline.tick(a.docs.length + b.docs.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  union(a: Hits, b: Hits): Hits {
    const docs = new Uint32Array(a.docs.length + b.docs.length);
    const scores = this.scoring ? new Float64Array(docs.length) : null;
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < a.docs.length || j < b.docs.length) {
      const x = i < a.docs.length ? a.docs[i]! : Infinity;
      const y = j < b.docs.length ? b.docs[j]! : Infinity;
      if (x < y) {
        if (scores) scores[k] = a.scores![i]!;
        docs[k++] = x;
        i++;
      } else if (y < x) {
        if (scores) scores[k] = b.scores![j]!;
        docs[k++] = y;
        j++;
      } else {
        if (scores) scores[k] = a.scores![i]! + b.scores![j]!;
        docs[k++] = x;
        i++;
        j++;
      }
    }
    this.deadline.tick(docs.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  difference(a: Hits, b: Hits): Hits {
    const docs = new Uint32Array(a.docs.length);
    const scores = this.scoring ? new Float64Array(a.docs.length) : null;
    let j = 0;
    let k = 0;
    for (let i = 0; i < a.docs.length; i++) {
      const x = a.docs[i]!;
      while (j < b.docs.length && b.docs[j]! < x) j++;
      if (j < b.docs.length && b.docs[j] === x) continue;
      if (scores) scores[k] = a.scores![i]!;
      docs[k++] = x;
    }
    this.deadline.tick(a.docs.length + b.docs.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  // ---- leaves ----

  private leaf(node: Leaf): Hits {
    const ix = this.ix;
    const schema = ix.schema;
    const field = node.field;
    const raw = node.kind === 'wildcard' ? node.pattern : node.text;
    if (field === null) return this.textLeaf(node, this.allText);
    if (field === schema.idField) {
      if (node.kind === 'prefix' || node.kind === 'wildcard') {
        throw new SearchRequestError(`${field}: takes a whole identifier, e.g. ${field}:"…"; wildcards are not supported on ${field}.`);
      }
      const ord = ix.byId.get(schema.normalizeId ? schema.normalizeId(raw) : raw);
      return this.hits(ord === undefined ? EMPTY_DOCS : Uint32Array.of(ord));
    }
    const constant = schema.constants?.[field];
    if (constant !== undefined) {
      const c = fold(constant);
      const ok =
        node.kind === 'prefix' ? c.startsWith(fold(raw)) : node.kind === 'wildcard' ? ix.wildcard(fold(raw))(c) : fold(raw) === c;
      return this.hits(ok ? ix.allLive() : EMPTY_DOCS);
    }
    const t = ix.textField.get(field);
    if (t !== undefined) return this.textLeaf(node, 1 << t);
    const f = ix.facetField.get(field);
    if (f !== undefined) return this.hits(this.facetLeaf(f, node));
    const num = ix.numberField.get(field);
    if (num !== undefined) {
      const spec = schema.numbers[num]!;
      const v = node.kind === 'term' || node.kind === 'phrase' ? parseNumber(spec, raw) : null;
      if (v === null) throw new SearchRequestError(`${field}: expects a number, e.g. ${spec.example}; got '${raw}'.`);
      const col = ix.numbers[num]!.array;
      return this.hits(this.scan((d) => col[d] === v));
    }
    throw new SearchRequestError(`${field}: takes a range only, e.g. ${field}:[a TO b].`);
  }

  private textLeaf(node: Leaf, mask: number): Hits {
    if (node.kind === 'wildcard') return this.expansion(this.wildcardTerms(node.pattern), mask);
    const toks = tokens(node.text);
    if (node.kind === 'prefix') {
      if (toks.length === 0) return this.hits(this.existsText(mask));
      const last = toks[toks.length - 1]!;
      const ids = this.ix.terms.withPrefix(last, () => true, Infinity, () => new Error('unreachable'));
      if (toks.length === 1) return this.expansion(ids, mask);
      // `"a b"*`-like prefixes (`goethe-ha*`): the phrase of the words, the last one a prefix
      if (ids.length > MAX_WILDCARD_TERMS) throw this.tooMany(node.text);
      let acc = this.hits(EMPTY_DOCS);
      for (const id of ids) acc = this.union(acc, this.phrase([...toks.slice(0, -1), this.ix.terms.string(id)], mask));
      return acc;
    }
    if (toks.length === 0) return this.hits(EMPTY_DOCS);
    if (toks.length === 1) return this.term(toks[0]!, mask);
    return this.phrase(toks, mask);
  }

  private tooMany(pattern: string): SearchRequestError {
    return new SearchRequestError(
      `The wildcard '${pattern}' matches more than ${MAX_WILDCARD_TERMS} different words; put more letters before the first * or ?.`,
    );
  }

  private wildcardTerms(pattern: string): number[] {
    const folded = fold(pattern.replace(/\\(.)/g, '$1'));
    if (/[^\p{L}\p{N}*?]/u.test(folded)) {
      throw new SearchRequestError(`The wildcard '${pattern}' spans several words; a wildcard matches within one word.`);
    }
    const accept = this.ix.wildcard(folded);
    return this.ix.terms.withPrefix(literalPrefix(folded), accept, MAX_WILDCARD_TERMS, () => this.tooMany(pattern));
  }

  /** One word in the fields of `mask`. */
  private term(word: string, mask: number): Hits {
    const id = this.ix.terms.get(word);
    if (id === undefined) return this.hits(EMPTY_DOCS);
    const out = new Scratch();
    const df = this.readPostings(id, mask, out, false);
    const docs = out.docs.subarray(0, out.n);
    if (!this.scoring) return this.hits(docs);
    const w = idf(this.ix.size, df);
    const scores = out.vals.subarray(0, out.n);
    for (let i = 0; i < scores.length; i++) scores[i] = w * scores[i]!;
    return this.hits(docs, scores);
  }

  /**
   * Live documents with term `id` in a field of `mask`, pushed with Σ weight × min(tf, 3)
   * (or, with `best`, the best field weight); returns the live df over all fields.
   */
  private readPostings(id: number, mask: number, out: Scratch, best: boolean): number {
    const ix = this.ix;
    const key = `t${id}:${mask}:${best ? 1 : 0}`;
    const e = ix.postingsCache.get(key) ?? { docs: new Uint32Array(64), values: new Float64Array(64), n: 0, reader: ix.text.reader(id) };
    const r = e.reader;
    r.resume();
    const weights = ix.weights;
    let work = 0;
    while (!r.done) {
      const doc = r.readDelta();
      const nf = r.read();
      let w = 0;
      for (let f = 0; f < nf; f++) {
        const x = r.read();
        const field = x & 31;
        const np = (x - field) / 32;
        for (let p = 0; p < np; p++) r.read();
        if ((mask >>> field) & 1) w = best ? Math.max(w, weights[field]!) : w + weights[field]! * Math.min(np, TF_CAP);
      }
      PostingsCache.grow(e);
      e.docs[e.n] = doc;
      e.values![e.n++] = w;
      if (++work === 1024) {
        this.deadline.tick(work);
        work = 0;
      }
    }
    ix.postingsCache.put(key, e);
    const live = ix.live.array;
    const docs = e.docs;
    const values = e.values!;
    out.reserve(e.n);
    const od = out.docs;
    const ov = out.vals;
    let k = out.n;
    let df = 0;
    for (let i = 0; i < e.n; i++) {
      const d = docs[i]!;
      if (live[d] === 1) {
        df++;
        if (values[i]! > 0) {
          od[k] = d;
          ov[k++] = values[i]!;
        }
      }
    }
    out.n = k;
    this.deadline.tick(e.n);
    return df;
  }

  /** Documents with any of the terms (prefix, wildcard); score = best field weight matched. */
  private expansion(ids: readonly number[], mask: number): Hits {
    if (ids.length === 0) return this.hits(EMPTY_DOCS);
    const out = new Scratch();
    if (ids.length === 1) {
      this.readPostings(ids[0]!, mask, out, true);
      return this.hits(out.docs.slice(0, out.n), out.vals.slice(0, out.n));
    }
    const dense = new Float64Array(this.ix.ordinals);
    const touched = new Scratch();
    for (const id of ids) {
      out.n = 0;
      this.readPostings(id, mask, out, true);
      for (let i = 0; i < out.n; i++) {
        const d = out.docs[i]!;
        if (dense[d] === 0) touched.push(d, 0);
        if (out.vals[i]! > dense[d]!) dense[d] = out.vals[i]!;
      }
    }
    const docs = touched.docs.slice(0, touched.n).sort();
    this.deadline.tick(docs.length);
    const scores = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) scores[i] = dense[docs[i]!]!;
    return this.hits(docs, scores);
  }

  /** Consecutive words in one value of a field of `mask`. */
  private phrase(words: readonly string[], mask: number): Hits {
    const ix = this.ix;
    const lists: PositionList[] = [];
    for (const w of words) {
      const id = ix.terms.get(w);
      if (id === undefined) return this.hits(EMPTY_DOCS);
      lists.push(this.readPositions(id, mask));
    }
    let idfSum = 0;
    for (const l of lists) idfSum += idf(ix.size, l.df);
    const out = new Scratch();
    const first = lists[0]!;
    const ptr = new Int32Array(lists.length);
    let lastDoc = -1;
    let acc = 0;
    const flush = () => {
      if (lastDoc >= 0 && acc > 0) out.push(lastDoc, acc);
    };
    for (let e = 0; e < first.n; e++) {
      const doc = first.doc[e]!;
      const field = first.field[e]!;
      let ok = true;
      for (let i = 1; i < lists.length && ok; i++) {
        const l = lists[i]!;
        let p = ptr[i]!;
        while (p < l.n && (l.doc[p]! < doc || (l.doc[p] === doc && l.field[p]! < field))) p++;
        ptr[i] = p;
        ok = p < l.n && l.doc[p] === doc && l.field[p] === field;
      }
      if (!ok) continue;
      let tf = 0;
      for (let q = first.start[e]!; q < first.start[e + 1]!; q++) {
        const at = first.pos[q]!;
        let all = true;
        for (let i = 1; i < lists.length && all; i++) {
          const l = lists[i]!;
          all = containsSorted(l.pos, l.start[ptr[i]!]!, l.start[ptr[i]! + 1]!, at + i);
        }
        if (all) tf++;
      }
      if (tf === 0) continue;
      if (doc !== lastDoc) {
        flush();
        lastDoc = doc;
        acc = 0;
      }
      acc += ix.weights[field]! * Math.min(tf, TF_CAP);
      this.deadline.tick();
    }
    flush();
    const docs = out.docs.slice(0, out.n);
    const scores = out.vals.slice(0, out.n);
    for (let i = 0; i < scores.length; i++) scores[i] = idfSum * scores[i]!;
    return this.hits(docs, scores);
  }

  /** (doc, field) entries of a term in live documents and fields of `mask`, with positions. */
  private readPositions(id: number, mask: number): PositionList {
    const ix = this.ix;
    const r = ix.text.reader(id);
    const live = ix.live.array;
    const docs: number[] = [];
    const fields: number[] = [];
    const start: number[] = [0];
    const pos: number[] = [];
    let df = 0;
    while (!r.done) {
      const doc = r.readDelta();
      const nf = r.read();
      const alive = live[doc] === 1;
      if (alive) df++;
      for (let f = 0; f < nf; f++) {
        const x = r.read();
        const field = x & 31;
        const np = (x - field) / 32;
        const keep = alive && ((mask >>> field) & 1) === 1;
        let at = 0;
        for (let p = 0; p < np; p++) {
          at += r.read();
          if (keep) pos.push(at);
        }
        if (keep) {
          docs.push(doc);
          fields.push(field);
          start.push(pos.length);
        }
      }
      this.deadline.tick();
    }
    return {
      n: docs.length,
      doc: Uint32Array.from(docs),
      field: Uint8Array.from(fields),
      start: Uint32Array.from(start),
      pos: Uint32Array.from(pos),
      df,
    };
  }

  private facetLeaf(f: number, node: Leaf): Uint32Array {
    const col = this.ix.facets[f]!;
    let ids: number[];
    if (node.kind === 'term' || node.kind === 'phrase') {
      const v = col.values.get(node.text);
      ids = v === undefined ? [] : [v];
    } else if (node.kind === 'prefix') {
      ids = col.values.withPrefix(node.text, () => true, Infinity, () => new Error('unreachable'));
    } else {
      const accept = this.ix.wildcard(node.pattern);
      ids = col.values.withPrefix(literalPrefix(node.pattern), accept, Infinity, () => new Error('unreachable'));
    }
    return this.facetDocs(f, ids);
  }

  /** Live documents with any of the value ids of facet `f`, ascending. */
  facetDocs(f: number, ids: readonly number[]): Uint32Array {
    const ix = this.ix;
    const col = ix.facets[f]!;
    const live = ix.live.array;
    let acc: Uint32Array = EMPTY_DOCS;
    for (const v of ids) {
      const key = `f${f}:${v}`;
      const e = ix.postingsCache.get(key) ?? { docs: new Uint32Array(64), values: null, n: 0, reader: col.postings.reader(v) };
      const r = e.reader;
      r.resume();
      while (!r.done) {
        PostingsCache.grow(e);
        e.docs[e.n++] = r.readDelta();
        if ((e.n & 1023) === 0) this.deadline.tick(1024);
      }
      ix.postingsCache.put(key, e);
      const out = new Uint32Array(Math.min(e.n, col.live.array[v]!));
      let k = 0;
      for (let i = 0; i < e.n; i++) {
        const d = e.docs[i]!;
        if (live[d] === 1) out[k++] = d;
      }
      this.deadline.tick(e.n);
      acc = acc.length === 0 ? out.subarray(0, k) : unionDocs(acc, out.subarray(0, k));
    }
    return acc;
  }

  /** Live documents passing `test`, ascending (a pass over every live document). */
  private scan(test: (doc: number) => boolean): Uint32Array {
    const all = this.ix.allLive();
    const out = new Uint32Array(all.length);
    let n = 0;
    for (let i = 0; i < all.length; i++) {
      if (test(all[i]!)) out[n++] = all[i]!;
      if ((i & 4095) === 4095) this.deadline.tick(4096);
    }
    return out.slice(0, n);
  }

  private existsText(mask: number): Uint32Array {
    const m = this.ix.fieldMask.array;
    return this.scan((d) => (m[d]! & mask) !== 0);
  }

  private exists(field: string): Uint32Array {
    const ix = this.ix;
    if (field === ix.schema.idField || ix.schema.constants?.[field] !== undefined) return ix.allLive();
    const t = ix.textField.get(field);
    if (t !== undefined) return this.existsText(1 << t);
    const f = ix.facetField.get(field);
    if (f !== undefined) {
      const start = ix.facets[f]!.start.array;
      return this.scan((d) => start[d + 1]! > start[d]!);
    }
    const num = ix.numberField.get(field);
    if (num !== undefined) {
      const col = ix.numbers[num]!.array;
      return this.scan((d) => !Number.isNaN(col[d]!));
    }
    const s = ix.sortKey.get(field);
    const strings = s === undefined ? undefined : ix.sortStrings[s];
    if (strings) return this.scan((d) => strings[d] !== undefined);
    throw new SearchRequestError(`${field}:* is not supported.`);
  }

  private range(node: Extract<QueryNode<string>, { kind: 'range' }>): Uint32Array {
    const ix = this.ix;
    const num = ix.numberField.get(node.field);
    if (num !== undefined) {
      const spec = ix.schema.numbers[num]!;
      const bound = (b: string | null): number | null => {
        if (b === null) return null;
        const v = parseNumber(spec, b);
        if (v === null) throw new SearchRequestError(`${node.field}:[… TO …] compares numbers; '${b}' is not one. Example: ${spec.example}.`);
        return v;
      };
      const lo = bound(node.lower);
      const hi = bound(node.upper);
      const col = ix.numbers[num]!.array;
      return this.scan((d) => {
        const v = col[d]!;
        if (Number.isNaN(v)) return false;
        if (lo !== null && (node.includeLower ? v < lo : v <= lo)) return false;
        if (hi !== null && (node.includeUpper ? v > hi : v >= hi)) return false;
        return true;
      });
    }
    const s = ix.sortKey.get(node.field);
    const strings = s === undefined || !ix.schema.sortKeys[s]!.queryable ? undefined : ix.sortStrings[s];
    if (strings) {
      const lo = node.lower === null ? null : fold(node.lower);
      const hi = node.upper === null ? null : fold(node.upper);
      return this.scan((d) => {
        const v = strings[d];
        if (v === undefined) return false;
        if (lo !== null && (node.includeLower ? compareCodePoints(v, lo) < 0 : compareCodePoints(v, lo) <= 0)) return false;
        if (hi !== null && (node.includeUpper ? compareCodePoints(v, hi) > 0 : compareCodePoints(v, hi) >= 0)) return false;
        return true;
      });
    }
    const ranged = [...ix.schema.numbers.map((f) => f.name), ...ix.schema.sortKeys.filter((k) => k.queryable).map((k) => k.name)];
    throw new SearchRequestError(`Ranges work on ${[...new Set(ranged)].join(', ')}, not on ${node.field}.`);
  }
}

interface PositionList {
  n: number;
  doc: Uint32Array;
  field: Uint8Array;
  start: Uint32Array;
  pos: Uint32Array;
  df: number;
}

function parseNumber(spec: { parse?: (t: string) => number | null }, text: string): number | null {
  if (spec.parse) return spec.parse(text);
  const t = text.trim();
  if (t === '') return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

function unionDocs(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    out[k++] = x <= y ? x : y;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out.slice(0, k);
}

function containsSorted(a: Uint32Array, lo: number, hi: number, x: number): boolean {
  hi--;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
