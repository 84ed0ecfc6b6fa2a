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
 * Scores (docs/search.md "Relevance"), summed over the positive leaves a document matches:
 *   term:     idf(df) × Σ over its fields of weight × min(tf, 3), where
 *             idf = ln(1 + (N − df + 0.5) / (df + 0.5)) with N live documents and df the live
 *             documents with the term in any field: both independent of history, so any
 *             backend that loads the same documents gets the same scores;
 *   phrase:   Σ idf of its words × Σ over fields of weight × min(phrase count, 3), a sloppy
 *             phrase (`"a b"~2`) counting its matches within the slop (phrase.ts);
 *   prefix, wildcard: the weight of the best field matched (no idf: constant per field);
 *   a leaf with a boost (`term^2`): its score times the boost;
 *   anything else (facets, ids, numbers, ranges, field:*, *:*): 0.
 */
import type { QueryNode } from '../../query/ast.js';
import { fold, tokens } from './fold.js';
import { Deadline, SearchRequestError } from './errors.js';
import type { SearchIndex } from './SearchIndex.js';
import { literalPrefix } from './wildcard.js';
import { allZero, differenceHits, EMPTY_DOCS, intersectHits, Scratch, unionHits, zeros, type Hits } from './hits.js';
import { idf, lowerBound, Postings } from './postings.js';
import type { OrdinalRange } from './shards.js';
import { PhraseEvaluator, type PhraseSpec, type Source } from './phrase.js';
import { elisions, isElided, queryForms } from './analysis.js';
import { SearchLimitError } from './searchLimits.js';
export { idf } from './postings.js';

/** More words than this from one wildcard is a query to narrow, not to run (without ExpansionLimits). */
export const MAX_WILDCARD_TERMS = 1000;

/**
 * The service's bounds on wildcards, so that no query can hold the server
 * (docs/decisions.md "Bounded searches"; config `search.maxExpansionsPerTerm` and
 * `maxExpansionsPerQuery`): past them a search throws SearchLimitError (`wildcardTooBroad`,
 * `queryTooBroad`), which the service answers with the catalog's 400. Prefixes are not
 * counted, as before (an FTS5 prefix query had no such bound either).
 */
export interface ExpansionLimits {
  maxExpansionsPerTerm: number;
  maxExpansionsPerQuery: number;
}

export type { Hits } from './hits.js';

type Leaf = Extract<QueryNode<string>, { kind: 'term' | 'phrase' | 'prefix' | 'wildcard' }>;

/** A facet clause applied as a filter (Evaluator.filter). */
export interface FacetClause {
  f: number;
  ids: readonly number[];
}

/**
 * A positive leaf and what it matched: its documents, or for a facet clause applied as a
 * filter its facet and values (a hit matched it when it has one of them).
 */
export type Matched = { text: string; docs: Uint32Array } | { text: string; facet: number; ids: readonly number[] };

/** How matchedTerms writes a leaf: `goe*` for a prefix, the pattern of a wildcard. */
function leafText(node: Leaf): string {
  return node.kind === 'prefix' ? `${node.text}*` : node.kind === 'wildcard' ? node.pattern : node.text;
}

export class Evaluator {
  /** Positive leaves (outside NOT) with what they matched, for matchedTerms. */
  readonly matched: Matched[] = [];
  private readonly allText: number;

  /** Words all wildcards of the query stood for so far (ExpansionLimits). */
  private expanded = 0;
  /** Each pattern's words, read once per search (`*qx* OR *qx* OR …` reads the vocabulary once). */
  private readonly expansions = new Map<string, number[]>();

  /**
   * `span`: the query is evaluated over the ordinals in it alone (a shard of a scattered
   * search, docs/search-engine.md "Shards"): every node's hits are its hits in the range,
   * each posting list read from its first entry in the range to the range's end, with the
   * whole index's statistics (idf, document counts), so that the scores are those of the
   * whole evaluation.
   */
  constructor(
    private readonly ix: SearchIndex,
    private readonly scoring: boolean,
    private readonly deadline: Deadline,
    private readonly limits?: ExpansionLimits,
    private readonly span?: OrdinalRange,
  ) {
    this.allText = ix.schema.text.length === 32 ? 0xffffffff : (1 << ix.schema.text.length) - 1;
    this.postings = new Postings(ix, deadline, span);
    this.phrases = new PhraseEvaluator(ix, deadline, span);
  }

  private liveMemo: Uint32Array | undefined;

  /** The live ordinals (in the span), ascending: one array per search, so that it is known by identity (filter()). */
  allLive(): Uint32Array {
    if (this.liveMemo !== undefined) return this.liveMemo;
    const all = this.ix.allLive();
    return (this.liveMemo = this.clip({ docs: all, scores: null }).docs);
  }

  /** `h` restricted to the span: for what is evaluated whole. */
  private clip(h: Hits): Hits {
    if (this.span === undefined) return h;
    const r = this.span;
    const from = lowerBound(h.docs, h.docs.length, r.from);
    const to = lowerBound(h.docs, h.docs.length, r.to, from);
    return { docs: h.docs.subarray(from, to), scores: h.scores ? h.scores.subarray(from, to) : null };
  }

  private readonly postings: Postings;
  private readonly phrases: PhraseEvaluator;

  /**
   * While set, a bitset of ordinals that bounds the search (the long facet values it is
   * filtered on, bounded()): term leaves read only the postings within it. Leaving other
   * documents out early changes no hit, score or matched term, since the hits are filtered
   * on those values anyway: X ↦ X ∩ D commutes with AND, OR and NOT.
   */
  private domain: Uint32Array | null = null;
  /** Nodes evaluated so far whose hits may lie outside the domain they were evaluated in. */
  private unrestricted = 0;
  /** Whether the last leaf kept its hits within the domain (term()). */
  private restricted = false;
  /** ORs the node being evaluated is in. */
  private orDepth = 0;

  /**
   * The hits of `query` with each clause applied as a filter (the request's filters:
   * values of one facet OR-ed, facets AND-ed).
   */
  evaluateFiltered(query: QueryNode<string>, clauses: readonly FacetClause[]): Hits {
    if (clauses.length === 0) return this.evaluate(query);
    // `*:*`: the values' postings are the hits (filter())
    return this.bounded(clauses, query.kind !== 'all', () => this.evaluate(query));
  }

  /**
   * `run`'s hits (every live document when it gives none) filtered on each clause; with
   * `bound`, `run` is evaluated within the bitsets of the clauses that have them, and a
   * clause whose bitset bounded every leaf needs no pass of its own.
   */
  private bounded(clauses: readonly FacetClause[], bound: boolean, run: () => Hits | undefined): Hits {
    let bits: Uint32Array | null = null;
    const within = clauses.map(() => false);
    if (bound) {
      clauses.forEach((c, i) => {
        const b = this.valueBits(c.f, c.ids);
        if (b === undefined) return;
        bits = bits === null ? b : this.andBits(bits, b);
        within[i] = true;
      });
    }
    const saved = this.domain;
    const before = this.unrestricted;
    if (bits !== null) this.domain = saved === null ? bits : this.andBits(saved, bits);
    let acc: Hits | undefined;
    try {
      acc = run();
    } finally {
      this.domain = saved;
    }
    const kept = acc !== undefined && this.unrestricted === before;
    if (acc === undefined) {
      this.unrestricted++;
      acc = this.hits(this.allLive());
    }
    // the fewest postings first: the filters after it read the values of its hits only, where
    // the first under `*:*` decodes its values' postings whole (docs/search-engine.md "Semantics")
    const postings = (c: FacetClause) => c.ids.reduce((n, v) => n + this.ix.facets[c.f]!.live.array[v]!, 0);
    const order = clauses.map((c, i) => ({ c, i, n: postings(c) })).sort((x, y) => x.n - y.n);
    for (const { c, i } of order) if (!(kept && within[i])) acc = this.filter(acc, c.f, c.ids);
    return acc;
  }

  /**
   * The bitset of the documents with any of the value ids of facet `f` (facetBits.ts), when
   * every one of them is long enough to have one; undefined otherwise. Read only.
   */
  valueBits(f: number, ids: readonly number[]): Uint32Array | undefined {
    const ix = this.ix;
    const col = ix.facets[f]!;
    if (ids.length === 0) return undefined;
    for (const v of ids) if (!ix.facetBits.worth(col.live.array[v]!, ix.ordinals)) return undefined;
    const first = ix.facetBits.get(f, ids[0]!, col, ix.ordinals, this.deadline);
    if (ids.length === 1) return first;
    const words = (ix.ordinals + 31) >>> 5;
    const out = ix.scratchPool.u32(words);
    out.set(first.subarray(0, words));
    for (let i = 1; i < ids.length; i++) {
      const b = ix.facetBits.get(f, ids[i]!, col, ix.ordinals, this.deadline);
      for (let w = 0; w < words; w++) out[w]! |= b[w]!;
    }
    this.deadline.tick(words * ids.length);
    return out;
  }

  /** a AND b, bitsets over the ordinals so far. */
  private andBits(a: Uint32Array, b: Uint32Array): Uint32Array {
    const words = (this.ix.ordinals + 31) >>> 5;
    const out = this.ix.scratchPool.u32(words);
    for (let w = 0; w < words; w++) out[w] = a[w]! & b[w]!;
    this.deadline.tick(words);
    return out;
  }

  /** The hits whose bit is set in `bits` (one load per hit). */
  private filterBits(a: Hits, bits: Uint32Array): Hits {
    const docs = this.ix.scratchPool.u32(a.docs.length);
    const scores = a.scores ? this.ix.scratchPool.f64(a.docs.length) : null;
    const from = a.docs;
    let k = 0;
    if (scores) {
      const s = a.scores!;
      for (let i = 0; i < from.length; i++) {
        const d = from[i]!;
        if ((bits[d >>> 5]! >>> (d & 31)) & 1) {
          scores[k] = s[i]!;
          docs[k++] = d;
        }
      }
    } else {
      for (let i = 0; i < from.length; i++) {
        const d = from[i]!;
        if ((bits[d >>> 5]! >>> (d & 31)) & 1) docs[k++] = d;
      }
    }
    this.deadline.tick(from.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  private hits(docs: Uint32Array, scores?: Float64Array): Hits {
    return { docs, scores: this.scoring ? (scores ?? zeros(docs.length)) : null };
  }

  /**
   * The hits with a value of facet `f` among `ids` (a filter). Reads the values of each hit
   * unless there are many more hits than postings to decode, else intersects with them;
   * every live document (`*:*`) is simply the postings.
   */
  filter(a: Hits, f: number, ids: readonly number[]): Hits {
    const col = this.ix.facets[f]!;
    if (ids.length === 0 || a.docs.length === 0) return this.hits(EMPTY_DOCS);
    let postings = 0;
    for (const v of ids) postings += col.live.array[v]!;
    if (a.docs === this.allLive() && (a.scores === null || allZero(a.scores))) return this.hits(this.facetDocs(f, ids));
    // a bit per ordinal (facetBits.ts) is one load per hit into 1/32 of a column's bytes
    const bits = a.docs.length >= this.ix.facetBits.minHits ? this.valueBits(f, ids) : undefined;
    if (bits !== undefined) return this.filterBits(a, bits);
    // reading a hit's values costs about a quarter of decoding, uniting and intersecting one posting
    if (a.docs.length > 4 * postings) return this.intersect(a, this.hits(this.facetDocs(f, ids)));
    const docs = this.ix.scratchPool.u32(a.docs.length);
    const scores = a.scores ? this.ix.scratchPool.f64(a.docs.length) : null;
    let k = 0;
    if (col.single) {
      // value id + 1 per ordinal (facetColumn.ts): one load per hit
      const mark = new Uint8Array(col.values.size + 1);
      for (const v of ids) mark[v + 1] = 1;
      const single = col.single.array;
      for (let i = 0; i < a.docs.length; i++) {
        const d = a.docs[i]!;
        if (mark[single[d]!] === 1) {
          if (scores) scores[k] = a.scores![i]!;
          docs[k++] = d;
        }
      }
    } else {
      const mark = new Uint8Array(col.values.size);
      for (const v of ids) mark[v] = 1;
      const start = col.start!.array;
      const vals = col.ids!.array;
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
    }
    this.deadline.tick(a.docs.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  evaluate(node: QueryNode<string>, negated = false): Hits {
    this.deadline.tick();
    switch (node.kind) {
      case 'all':
        this.unrestricted++;
        return this.hits(this.allLive());
      case 'and': {
        const positive = node.children.filter((c) => c.kind !== 'not');
        // A facet clause beside others (Solr's fq type_fct:"…", a field clause of v1) filters
        // their hits instead of decoding its postings (half of all documents, say) to
        // intersect with: filter() picks the cheaper of the two. Its score is 0 either way.
        // Where the clause's values have bitsets (facetBits.ts), the others' words are read
        // only within them (bounded()).
        const facets = positive.length > 1 ? positive.map((c) => this.facetClause(c)) : [];
        const deferring = facets.length > 0 && facets.some((x) => x === undefined);
        const deferred = deferring ? facets.filter((x): x is FacetClause => x !== undefined) : [];
        // Likewise a range or exists clause (the pages' date range, an ALL of ranges) beside
        // a clause that is evaluated: its test is applied to their hits (a load per hit)
        // instead of scanning every live document to intersect with. Its hits are a subset
        // of theirs, so it leaves them within the domain; its score is 0 either way.
        const tests = positive.length > 1 ? positive.map((c) => this.predicate(c)) : [];
        const testing =
          tests.some((t) => t !== undefined) && positive.some((_, i) => tests[i] === undefined && !(deferring && facets[i] !== undefined));
        // Under an OR the hits may lie outside the clause's values, and a leaf bounded to them
        // would not show as matched in those (matchedTerms): bound only outside ORs.
        let acc = this.bounded(deferred, deferred.length > 0 && this.orDepth === 0, () => {
          let h: Hits | undefined;
          positive.forEach((c, i) => {
            const facet = deferring ? facets[i] : undefined;
            if (facet !== undefined) {
              if (!negated) this.matched.push({ text: leafText(c as Leaf), facet: facet.f, ids: facet.ids });
            } else if (!(testing && tests[i] !== undefined)) {
              const x = this.evaluate(c, negated);
              h = h === undefined ? x : this.intersect(h, x);
            }
          });
          if (testing)
            tests.forEach((t, i) => {
              if (t === undefined) return;
              const ranges = this.numberRanges(positive[i]!);
              h = ranges === undefined ? this.passing(h!, t) : this.passingRanges(h!, ranges);
            });
          return h;
        });
        for (const c of node.children) if (c.kind === 'not') acc = this.difference(acc, this.evaluate(c.child, !negated));
        // scoring-only clauses (edismax pf): evaluated as under a NOT, so that they add no matched term
        if (node.should !== undefined && this.scoring) for (const s of node.should) acc = this.addScores(acc, this.evaluate(s, true));
        return acc;
      }
      case 'or': {
        if (node.min !== undefined && node.min > 1) return this.atLeast(node.children, node.min, negated);
        let acc: Hits = this.hits(EMPTY_DOCS);
        this.orDepth++;
        try {
          for (const c of node.children) acc = this.union(acc, this.evaluate(c, negated));
        } finally {
          this.orDepth--;
        }
        return acc;
      }
      case 'not':
        this.unrestricted++;
        return this.difference(this.hits(this.allLive()), this.evaluate(node.child, !negated));
      case 'exists':
        this.unrestricted++;
        return this.hits(this.exists(node.field));
      case 'range':
        this.unrestricted++;
        return this.hits(this.range(node));
      default: {
        this.restricted = false;
        const h = this.boosted(this.leaf(node), node.boost);
        if (!this.restricted) this.unrestricted++;
        if (!negated) this.matched.push({ text: leafText(node), docs: h.docs });
        return h;
      }
    }
  }

  // ---- set algebra over sorted ordinals, scores added (hits.ts) ----

  /** `a` with the score of each of its hits that `b` has added (b's other hits left out). */
  private addScores(a: Hits, b: Hits): Hits {
    if (a.scores === null || b.docs.length === 0) return a;
    const scores = Float64Array.from(a.scores);
    let j = 0;
    for (let i = 0; i < a.docs.length && j < b.docs.length; i++) {
      const d = a.docs[i]!;
      while (j < b.docs.length && b.docs[j]! < d) j++;
      if (j < b.docs.length && b.docs[j] === d) scores[i]! += b.scores![j]!;
    }
    this.deadline.tick(a.docs.length + b.docs.length);
    return { docs: a.docs, scores };
  }

  /** The documents that match at least `min` of `children`, scores of those they match added in order (edismax mm). */
  private atLeast(children: readonly QueryNode<string>[], min: number, negated: boolean): Hits {
    const parts: Hits[] = [];
    this.orDepth++;
    try {
      for (const c of children) parts.push(this.evaluate(c, negated));
    } finally {
      this.orDepth--;
    }
    const count = new Uint8Array(this.ix.ordinals);
    const score = this.scoring ? new Float64Array(this.ix.ordinals) : null;
    const touched: number[] = [];
    for (const h of parts) {
      for (let i = 0; i < h.docs.length; i++) {
        const d = h.docs[i]!;
        if (count[d] === 0) touched.push(d);
        count[d]!++;
        if (score !== null) score[d]! += h.scores![i]!;
      }
      this.deadline.tick(h.docs.length);
    }
    const docs = Uint32Array.from(touched.filter((d) => count[d]! >= min)).sort();
    if (score === null) return this.hits(docs);
    return this.hits(
      docs,
      Float64Array.from(docs, (d) => score[d]!),
    );
  }

  intersect(a: Hits, b: Hits): Hits {
    this.deadline.tick(a.docs.length + b.docs.length);
    return intersectHits(a, b, this.scoring, this.ix.scratchPool);
  }

  union(a: Hits, b: Hits): Hits {
    this.deadline.tick(a.docs.length + b.docs.length);
    return unionHits(a, b, this.scoring, this.ix.scratchPool);
  }

  difference(a: Hits, b: Hits): Hits {
    this.deadline.tick(a.docs.length + b.docs.length);
    return differenceHits(a, b, this.scoring, this.ix.scratchPool);
  }

  /** Live documents with any of the value ids of facet `f`, ascending. */
  facetDocs(f: number, ids: readonly number[]): Uint32Array {
    return this.postings.facetDocs(f, ids);
  }

  /** The exact phrase of folded words in the fields of `mask`. */
  private phrase(words: readonly string[], mask: number): Hits {
    const spec = this.exactSpec(words, mask);
    if (spec === undefined) return this.hits(EMPTY_DOCS);
    const [p] = this.phrases.evaluate([spec], 0);
    return this.clip(this.hits(p!.docs, p!.scores));
  }

  /** The phrase of the words as folded terms; undefined when a word is no term of the index. */
  private exactSpec(words: readonly string[], mask: number): PhraseSpec | undefined {
    const sources: Source[][] = [];
    for (const w of words) {
      const id = this.ix.terms.get(w);
      if (id === undefined) return undefined;
      sources.push([{ id, forms: false }]);
    }
    return { words: sources, mask };
  }

  // ---- leaves ----

  /** A leaf's hits with its boost (`term^2`) applied: scores times the boost, into a new array. */
  private boosted(h: Hits, boost: number | undefined): Hits {
    if (boost === undefined || boost === 1 || h.scores === null) return h;
    const scores = new Float64Array(h.scores.length);
    for (let i = 0; i < scores.length; i++) scores[i] = boost * h.scores[i]!;
    return { docs: h.docs, scores };
  }

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
      const inRange = ord !== undefined && (this.span === undefined || (ord >= this.span.from && ord < this.span.to));
      return this.hits(inRange ? Uint32Array.of(ord) : EMPTY_DOCS);
    }
    const constant = schema.constants?.[field];
    if (constant !== undefined) {
      const c = fold(constant);
      const ok = node.kind === 'prefix' ? c.startsWith(fold(raw)) : node.kind === 'wildcard' ? ix.wildcard(fold(raw))(c) : fold(raw) === c;
      return this.hits(ok ? this.allLive() : EMPTY_DOCS);
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
      const ids = this.ix.terms.withPrefix(
        last,
        () => true,
        Infinity,
        () => new Error('unreachable'),
      );
      if (toks.length === 1) return this.expansion(ids, mask);
      // `"a b"*`-like prefixes (`goethe-ha*`): the phrase of the words, the last one a prefix
      if (ids.length > MAX_WILDCARD_TERMS) throw this.tooMany(node.text);
      let acc = this.hits(EMPTY_DOCS);
      for (const id of ids) acc = this.union(acc, this.phrase([...toks.slice(0, -1), this.ix.terms.string(id)], mask));
      return acc;
    }
    if (toks.length === 0) return this.hits(EMPTY_DOCS);
    if (toks.length === 1) return this.word(toks[0]!, mask);
    return this.phraseLeaf(node.text, toks, mask, node.kind === 'phrase' ? (node.slop ?? 0) : 0);
  }

  /**
   * A word (docs/search-engine.md "Language analysis"): its exact postings; in the analysed
   * fields of `mask`, ½ × each of its forms (queryForms: the word, then its analysed form
   * in each language) as a folded term (but the word itself) and as an analysed form; and
   * when no live document holds the word, the compound it splits into (compoundSplit()),
   * as a phrase. Scores are added in that order, as OR adds them.
   */
  private word(w: string, mask: number): Hits {
    let h = this.term(w, mask);
    const df = this.lastDf;
    const forms = this.ix.analysed;
    const am = mask & this.ix.analysedMask;
    if (forms === undefined || am === 0) return h;
    h = this.analysedWord(h, w, am, false);
    if (df === 0) {
      const split = this.compoundSplit(w);
      if (split !== undefined) {
        h = this.union(h, this.phraseLeaf(split.join(' '), split, mask));
        this.restricted = false;
        return h;
      }
    }
    this.restricted = true;
    return h;
  }

  /** `acc` with the analysed leaves of word `w` in the fields of `am` added (word()); with `self`, the word as a folded term too. */
  private analysedWord(acc: Hits, w: string, am: number, self: boolean): Hits {
    const forms = this.ix.analysed!;
    for (const f of queryForms(w)) {
      if (f !== w || self) {
        const id = this.ix.terms.get(f);
        if (id !== undefined) acc = this.union(acc, this.half(this.termById(id, am, false)));
      }
      const fid = forms.forms.get(f);
      if (fid !== undefined) acc = this.union(acc, this.half(this.termById(fid, am, true)));
    }
    return acc;
  }

  /** Hits with their scores halved: an analysed match counts half an exact one. */
  private half(h: Hits): Hits {
    if (h.scores !== null) for (let i = 0; i < h.scores.length; i++) h.scores[i] = 0.5 * h.scores[i]!;
    return h;
  }

  /**
   * A phrase: its exact hits, and where `mask` has analysed fields, ½ × the phrase of the
   * forms of its words (an elided article or a possessive `s` left out: its position holds
   * its word's forms in the index); a phrase left with one word is that word's analysed leaves.
   */
  private phraseLeaf(text: string, toks: readonly string[], mask: number, slop = 0): Hits {
    // a phrase's candidates are those in the span (phrase.ts candidates); one word's analysed
    // leaves (analysedWord) may bring others: cut to the span
    const h = this.clip(this.analysedPhrase(text, toks, mask, slop));
    // phrases read no postings within the domain (bounded())
    this.restricted = false;
    return h;
  }

  private analysedPhrase(text: string, toks: readonly string[], mask: number, slop: number): Hits {
    const exact = this.exactSpec(toks, mask);
    const forms = this.ix.analysed;
    const am = mask & this.ix.analysedMask;
    const only = (): Hits => {
      if (exact === undefined) return this.hits(EMPTY_DOCS);
      const [p] = this.phrases.evaluate([exact], slop);
      return this.hits(p!.docs, p!.scores);
    };
    if (forms === undefined || am === 0) return only();
    const dropped = elisions(text);
    const words = dropped !== undefined && dropped.length === toks.length ? toks.filter((_, k) => dropped[k] === 0) : toks;
    if (words.length === 0) return only();
    if (words.length === 1) return this.analysedWord(only(), words[0]!, am, true);
    const sources: Source[][] = [];
    for (const w of words) {
      const parts: Source[] = [];
      for (const f of queryForms(w)) {
        const id = this.ix.terms.get(f);
        if (id !== undefined) parts.push({ id, forms: false });
        const fid = forms.forms.get(f);
        if (fid !== undefined) parts.push({ id: fid, forms: true });
      }
      if (parts.length === 0) return only();
      sources.push(parts);
    }
    const specs = exact === undefined ? [{ words: sources, mask: am }] : [exact, { words: sources, mask: am }];
    const ps = this.phrases.evaluate(specs, slop);
    const h = exact === undefined ? this.hits(EMPTY_DOCS) : this.hits(ps[0]!.docs, ps[0]!.scores);
    const a = ps[ps.length - 1]!;
    return this.union(h, this.half(this.hits(a.docs, a.scores)));
  }

  /**
   * A word no live document holds, split in two words that live documents hold, each of at
   * least 3 letters (`arbeiterbewegung` → `arbeiter bewegung`), or the first an elided
   * article typed without its apostrophe (`damour` → `d amour`): of several splits, the one
   * whose rarer half is held by most documents, then the one with the longer first half.
   * Undefined when there is none.
   */
  private compoundSplit(w: string): [string, string] | undefined {
    let best: [string, string] | undefined;
    let bestDf = 0;
    for (let i = 1; i <= w.length - 3; i++) {
      const a = w.slice(0, i);
      if (i < 3 && !isElided(a)) continue;
      const b = w.slice(i);
      if (this.ix.terms.get(a) === undefined || this.ix.terms.get(b) === undefined) continue;
      const df = Math.min(this.ix.documentFrequency(a), this.ix.documentFrequency(b));
      if (df > 0 && df >= bestDf) {
        best = [a, b];
        bestDf = df;
      }
      this.deadline.tick();
    }
    return best;
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
    const match = this.ix.wildcard(folded);
    // A leading wildcard reads the whole vocabulary: look at the deadline as it goes.
    const accept = (term: string) => {
      this.deadline.tick();
      return match(term);
    };
    const limits = this.limits;
    if (limits === undefined)
      return this.ix.terms.withPrefix(literalPrefix(folded), accept, MAX_WILDCARD_TERMS, () => this.tooMany(pattern));
    const max = limits.maxExpansionsPerTerm;
    let ids = this.expansions.get(folded);
    if (ids === undefined) {
      ids = this.ix.terms.withPrefix(
        literalPrefix(folded),
        accept,
        max,
        () => new SearchLimitError({ key: 'wildcardTooBroad', pattern, max }),
      );
      this.expansions.set(folded, ids);
    }
    this.expanded += ids.length;
    if (this.expanded > limits.maxExpansionsPerQuery)
      throw new SearchLimitError({ key: 'queryTooBroad', max: limits.maxExpansionsPerQuery });
    return ids;
  }

  /** The live documents holding the word of the last term() in any field. */
  private lastDf = 0;

  /** One word in the fields of `mask`. */
  private term(word: string, mask: number): Hits {
    const id = this.ix.terms.get(word);
    this.lastDf = 0;
    if (id === undefined) {
      this.restricted = true;
      return this.hits(EMPTY_DOCS);
    }
    return this.termById(id, mask, false);
  }

  /** A folded term (with `forms`: an analysed form) by its id, in the fields of `mask`. */
  private termById(id: number, mask: number, forms: boolean): Hits {
    const out = new Scratch(this.ix.scratchPool);
    const df = this.postings.readPostings(id, mask, out, false, this.domain, forms);
    this.lastDf = df;
    this.restricted = true;
    const docs = out.docs.subarray(0, out.n);
    if (!this.scoring) return this.hits(docs);
    const w = idf(this.ix.size, df);
    const scores = out.vals.subarray(0, out.n);
    for (let i = 0; i < scores.length; i++) scores[i] = w * scores[i]!;
    return this.hits(docs, scores);
  }

  /** Documents with any of the terms (prefix, wildcard); score = best field weight matched. */
  private expansion(ids: readonly number[], mask: number): Hits {
    if (ids.length === 0) return this.hits(EMPTY_DOCS);
    const out = new Scratch();
    if (ids.length === 1) {
      this.postings.readPostings(ids[0]!, mask, out, true);
      return this.hits(out.docs.slice(0, out.n), out.vals.slice(0, out.n));
    }
    // a search's scratch array, zeroed, not a fresh one of every ordinal (9 MB a wildcard at
    // 1.1 M items: garbage, and page faults where freed memory goes back to the system;
    // scratchPool.ts)
    const dense = this.ix.scratchPool.f64(this.ix.ordinals).fill(0);
    const touched = new Scratch();
    for (const id of ids) {
      out.n = 0;
      this.postings.readPostings(id, mask, out, true);
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

  /** A term, phrase, prefix or wildcard on a facet field: its facet and value ids; else undefined. */
  private facetClause(node: QueryNode<string>): FacetClause | undefined {
    if (node.kind !== 'term' && node.kind !== 'phrase' && node.kind !== 'prefix' && node.kind !== 'wildcard') return undefined;
    const field = node.field;
    const schema = this.ix.schema;
    // as leaf() resolves a field: the id, constants and text fields come before facets
    if (field === null || field === schema.idField || schema.constants?.[field] !== undefined || this.ix.textField.has(field))
      return undefined;
    const f = this.ix.facetField.get(field);
    return f === undefined ? undefined : { f, ids: this.facetIds(f, node) };
  }

  private facetLeaf(f: number, node: Leaf): Uint32Array {
    return this.facetDocs(f, this.facetIds(f, node));
  }

  private facetIds(f: number, node: Leaf): number[] {
    const col = this.ix.facets[f]!;
    let ids: number[];
    if (node.kind === 'term' || node.kind === 'phrase') {
      const v = col.values.get(node.text);
      ids = v === undefined ? [] : [v];
    } else if (node.kind === 'prefix') {
      ids = col.values.withPrefix(
        node.text,
        () => true,
        Infinity,
        () => new Error('unreachable'),
      );
    } else {
      const accept = this.ix.wildcard(node.pattern);
      ids = col.values.withPrefix(literalPrefix(node.pattern), accept, Infinity, () => new Error('unreachable'));
    }
    return ids;
  }

  /** Live documents passing `test`, ascending (a pass over every live document). */
  private scan(test: (doc: number) => boolean): Uint32Array {
    const all = this.allLive();
    // The pool's array (a fresh one of every live document cost more to fault in than the
    // scan itself: docs/search-engine.md "Memory layout"), the hits copied out of it.
    const out = this.ix.scratchPool.u32(all.length);
    let n = 0;
    for (let i = 0; i < all.length; i++) {
      if (test(all[i]!)) out[n++] = all[i]!;
      if ((i & 4095) === 4095) this.deadline.tick(4096);
    }
    return out.slice(0, n);
  }

  /** The hits of `a` passing `test`, with their scores. */
  private passing(a: Hits, test: (doc: number) => boolean): Hits {
    const docs = this.ix.scratchPool.u32(a.docs.length);
    const scores = a.scores ? this.ix.scratchPool.f64(a.docs.length) : null;
    let k = 0;
    for (let i = 0; i < a.docs.length; i++) {
      const d = a.docs[i]!;
      if (!test(d)) continue;
      if (scores) scores[k] = a.scores![i]!;
      docs[k++] = d;
    }
    this.deadline.tick(a.docs.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  /**
   * The hits of `a` whose numbers lie in every one of `ranges`, with their scores: `passing`
   * with the test inlined. Called through its closure (an AND of two, the pages' date range),
   * the test cost ~90 ns a hit, 1.4 ms a shard for a common word's hits at 1.1 M items.
   */
  private passingRanges(a: Hits, ranges: readonly NumberRange[]): Hits {
    const docs = this.ix.scratchPool.u32(a.docs.length);
    const scores = a.scores ? this.ix.scratchPool.f64(a.docs.length) : null;
    let k = 0;
    hit: for (let i = 0; i < a.docs.length; i++) {
      const d = a.docs[i]!;
      for (let j = 0; j < ranges.length; j++) {
        const r = ranges[j]!;
        const v = r.values[d]!;
        // NaN (no value) fails the first test
        if (!(v >= r.lower && v <= r.upper) || (v === r.lower && r.lowerOpen) || (v === r.upper && r.upperOpen)) continue hit;
      }
      if (scores) scores[k] = a.scores![i]!;
      docs[k++] = d;
    }
    this.deadline.tick(a.docs.length);
    return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
  }

  /** A range of a number field, or an AND of such (no optional clauses), as bounds; undefined for any other clause. */
  private numberRanges(node: QueryNode<string>): NumberRange[] | undefined {
    if (node.kind === 'range') {
      const r = this.numberRange(node);
      return r === undefined ? undefined : [r];
    }
    if (node.kind !== 'and' || node.should !== undefined || node.children.length === 0) return undefined;
    const out: NumberRange[] = [];
    for (const c of node.children) {
      const rs = this.numberRanges(c);
      if (rs === undefined) return undefined;
      out.push(...rs);
    }
    return out;
  }

  /** A range of a number field as bounds (±Infinity where open-ended); undefined for a range of another field. */
  private numberRange(node: Extract<QueryNode<string>, { kind: 'range' }>): NumberRange | undefined {
    const num = this.ix.numberField.get(node.field);
    if (num === undefined) return undefined;
    const spec = this.ix.schema.numbers[num]!;
    const bound = (b: string | null, open: number): number => {
      if (b === null) return open;
      const v = parseNumber(spec, b);
      if (v === null)
        throw new SearchRequestError(
          `${node.field}:[… TO …] compares ${spec.values ?? 'numbers'}; '${b}' is not one. Example: ${spec.example}.`,
        );
      return v;
    };
    return {
      values: this.ix.numbers[num]!.array,
      lower: bound(node.lower, -Infinity),
      upper: bound(node.upper, Infinity),
      lowerOpen: node.lower !== null && !node.includeLower,
      upperOpen: node.upper !== null && !node.includeUpper,
    };
  }

  /**
   * A clause that is a test of each document's own values, as a test: a range, an exists,
   * an AND of those; undefined for any other.
   */
  private predicate(node: QueryNode<string>): ((doc: number) => boolean) | undefined {
    switch (node.kind) {
      case 'range':
        return this.rangeTest(node);
      case 'exists':
        return this.existsTest(node.field);
      case 'and': {
        if (node.should !== undefined) return undefined;
        const tests = node.children.map((c) => this.predicate(c));
        if (tests.length === 0 || tests.some((t) => t === undefined)) return undefined;
        const all = tests as Array<(doc: number) => boolean>;
        return (d) => all.every((t) => t(d));
      }
      default:
        return undefined;
    }
  }

  private existsText(mask: number): Uint32Array {
    const m = this.ix.fieldMask.array;
    return this.scan((d) => (m[d]! & mask) !== 0);
  }

  private exists(field: string): Uint32Array {
    const ix = this.ix;
    if (field === ix.schema.idField || ix.schema.constants?.[field] !== undefined) return this.allLive();
    const f = ix.facetField.get(field);
    if (f !== undefined && !ix.facets[f]!.hasValues) return EMPTY_DOCS;
    return this.scan(this.existsTest(field));
  }

  /** Whether a document has a value of `field` (`field:*`). */
  private existsTest(field: string): (doc: number) => boolean {
    const ix = this.ix;
    if (field === ix.schema.idField || ix.schema.constants?.[field] !== undefined) return () => true;
    const t = ix.textField.get(field);
    if (t !== undefined) {
      const m = ix.fieldMask.array;
      const mask = 1 << t;
      return (d) => (m[d]! & mask) !== 0;
    }
    const f = ix.facetField.get(field);
    if (f !== undefined) {
      const col = ix.facets[f]!;
      return (d) => col.has(d);
    }
    const num = ix.numberField.get(field);
    if (num !== undefined) {
      const col = ix.numbers[num]!.array;
      return (d) => !Number.isNaN(col[d]!);
    }
    const s = ix.sortKey.get(field);
    const strings = s === undefined ? undefined : ix.sortStrings[s];
    if (strings) return (d) => strings.has(d);
    throw new SearchRequestError(`${field}:* is not supported.`);
  }

  private range(node: Extract<QueryNode<string>, { kind: 'range' }>): Uint32Array {
    const ranked = this.rankedRange(node);
    if (ranked === undefined) return this.scan(this.rangeTest(node));
    // `scan` with the rank test inlined: called through a closure (scan's one call site sees
    // every kind of test, so none is inlined there), the persons index by initial cost
    // ~26 ns a document, 13 ms a shard at a million persons.
    const { rank, lo, hi, inBytes } = ranked;
    const all = this.allLive();
    const out = this.ix.scratchPool.u32(all.length);
    let n = 0;
    for (let i = 0; i < all.length; i++) {
      const d = all[i]!;
      const r = rank[d]!;
      if (r === Math.floor(r)) {
        if (r >= lo && r <= hi) out[n++] = d;
      } else if (inBytes(d)) out[n++] = d;
      if ((i & 4095) === 4095) this.deadline.tick(4096);
    }
    return out.slice(0, n);
  }

  /**
   * A range of a queryable string sort key, by rank (ranks.ts): an integer rank passes exactly
   * when it lies in [lo, hi]; a half rank (a string added since the last refresh) or none
   * (NaN: no string) is decided by `inBytes`. undefined for a field that is no such key.
   */
  private rankedRange(
    node: Extract<QueryNode<string>, { kind: 'range' }>,
  ): { rank: Float64Array; lo: number; hi: number; inBytes: (doc: number) => boolean } | undefined {
    const ix = this.ix;
    if (ix.numberField.has(node.field)) return undefined;
    const s = ix.sortKey.get(node.field);
    const strings = s === undefined || !ix.schema.sortKeys[s]!.queryable ? undefined : ix.sortStrings[s];
    if (strings === undefined) return undefined;
    // compared as UTF-8 bytes in place: code point order (stringColumn.ts)
    const lower = node.lower === null ? null : Buffer.from(fold(node.lower), 'utf8');
    const upper = node.upper === null ? null : Buffer.from(fold(node.upper), 'utf8');
    const inBytes = (d: number): boolean => {
      if (!strings.has(d)) return false;
      if (lower !== null) {
        const c = strings.compareBytes(d, lower, lower.length);
        if (node.includeLower ? c < 0 : c <= 0) return false;
      }
      if (upper !== null) {
        const c = strings.compareBytes(d, upper, upper.length);
        if (node.includeUpper ? c > 0 : c >= 0) return false;
      }
      return true;
    };
    // A bound's rank is that of its string, or a half between two known ones; an integer
    // rank r is above it exactly when r > L (or r ≥ L, inclusive), as both agree for a half
    // L: so the integer ranks passing are those from lo to hi.
    const ranks = ix.sortRanks[s!]!;
    const L = node.lower === null ? -Infinity : ranks.rankOf(fold(node.lower));
    const H = node.upper === null ? Infinity : ranks.rankOf(fold(node.upper));
    const lo = node.includeLower ? Math.ceil(L) : Math.floor(L) + 1;
    const hi = node.includeUpper ? Math.floor(H) : Math.ceil(H) - 1;
    return { rank: ranks.rank.array, lo, hi, inBytes };
  }

  /** Whether a document's value of the range's field is in it. */
  private rangeTest(node: Extract<QueryNode<string>, { kind: 'range' }>): (doc: number) => boolean {
    const ix = this.ix;
    const numbers = this.numberRange(node);
    if (numbers !== undefined) {
      const { values, lower, upper, lowerOpen, upperOpen } = numbers;
      return (d) => {
        const v = values[d]!;
        return v >= lower && v <= upper && !(v === lower && lowerOpen) && !(v === upper && upperOpen);
      };
    }
    // By rank (ranks.ts): a number compared per document instead of its bytes (the persons
    // index by initial compared a million names).
    const ranked = this.rankedRange(node);
    if (ranked !== undefined) {
      const { rank, lo, hi, inBytes } = ranked;
      return (d) => {
        const r = rank[d]!;
        return r === Math.floor(r) ? r >= lo && r <= hi : inBytes(d);
      };
    }
    const ranged = [...ix.schema.numbers.map((f) => f.name), ...ix.schema.sortKeys.filter((k) => k.queryable).map((k) => k.name)];
    const names = [...new Set(ranged)];
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
    throw new SearchRequestError(`Ranges work on ${list}, not on ${node.field}.`);
  }
}

/** A range of a number field: values from `lower` to `upper` (±Infinity where open-ended), each bound left out where open. */
interface NumberRange {
  values: Float64Array;
  lower: number;
  upper: number;
  lowerOpen: boolean;
  upperOpen: boolean;
}

function parseNumber(spec: { parse?: (t: string) => number | null }, text: string): number | null {
  if (spec.parse) return spec.parse(text);
  const t = text.trim();
  if (t === '') return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}
