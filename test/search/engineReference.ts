/**
 * A brute-force reference of the search engine (src/search/engine): every document is
 * evaluated directly against the query from its fields, as the rules in evaluate.ts and
 * types.ts state them, with no postings, no sets and no heaps. Scores are summed in the
 * same order as the engine's, so pages under relevance compare exactly.
 */
import type { QueryNode } from '../../src/query/ast.js';
import { fold, tokens } from '../../src/search/engine/fold.js';
import { idf } from '../../src/search/engine/evaluate.js';
import { hashString, mix32 } from '../../src/search/engine/order.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { FacetCounts, SearchDocument, SearchRequest, SearchSort } from '../../src/search/engine/types.js';
import { globMatcher, literalPrefix } from '../../src/search/engine/wildcard.js';
import { analyse, elisions, isElided, LANGUAGES, languageOf, queryForms } from '../../src/search/engine/analysis.js';
import { DEFAULT_LANGUAGES } from '../../src/search/engine/SearchIndex.js';

/** Code point order, computed independently of the engine: UTF-8 byte order is code point order. */
function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

interface M {
  m: boolean;
  s: number;
}
const NO: M = { m: false, s: 0 };
/** OR: the scores of the parts that match added, in order. */
const or = (a: M, b: M): M => (b.m ? (a.m ? { m: true, s: a.s + b.s } : b) : a);
const half = (a: M): M => (a.m ? { m: true, s: 0.5 * a.s } : a);

/** A word of an analysed field: its folded token and its analysed forms other than the token. */
interface Position {
  tok: string;
  forms: string[];
}

export class Reference {
  readonly docs = new Map<string, SearchDocument>();

  constructor(
    private readonly schema: Schema,
    /** SearchIndexOptions.languages. */
    private readonly defaults: readonly string[] = DEFAULT_LANGUAGES,
  ) {}

  upsert(doc: SearchDocument): void {
    this.docs.delete(doc.id); // a replaced document moves to the end, as a new ordinal does
    this.docs.set(doc.id, doc);
  }

  delete(id: string): void {
    this.docs.delete(id);
  }

  private fieldTokens(doc: SearchDocument, f: string): string[][] {
    return (doc.text[f] ?? []).map((v) => tokens(v));
  }

  /**
   * The positions of a field's values with their analysed forms (docs/search-engine.md
   * "Language analysis"): per word, its form in each language of the document that is not
   * the word; an elided article or a possessive `s` has its word and that word's forms.
   */
  private positions(doc: SearchDocument, f: string): Position[][] {
    let byField = this.positionCache.get(doc);
    if (byField === undefined) this.positionCache.set(doc, (byField = new Map()));
    let out = byField.get(f);
    if (out === undefined) byField.set(f, (out = this.positionsOf(doc, f)));
    return out;
  }

  private readonly positionCache = new WeakMap<SearchDocument, Map<string, Position[][]>>();

  private positionsOf(doc: SearchDocument, f: string): Position[][] {
    const analysis = this.schema.analysis;
    const analysed = analysis !== undefined && analysis.fields.includes(f);
    let langs = analysis === undefined ? [] : (doc.facets[analysis.languageFacet] ?? []).map(languageOf).filter((l) => l !== undefined);
    if (langs.length === 0) langs = this.defaults.map(languageOf).filter((l) => l !== undefined);
    const ordered = LANGUAGES.filter((l) => langs.includes(l));
    return (doc.text[f] ?? []).map((v) => {
      const toks = tokens(v);
      const el = elisions(v);
      return toks.map((tok, k) => {
        if (!analysed) return { tok, forms: [] };
        let h = el !== undefined && el.length === toks.length ? k + el[k]! : k;
        if (h < 0 || h >= toks.length) h = k;
        const t = toks[h]!;
        const forms: string[] = h !== k ? [t] : [];
        for (const l of ordered) {
          const a = analyse(t, l);
          if (a !== t && !forms.includes(a)) forms.push(a);
        }
        return { tok, forms };
      });
    });
  }

  /** Live documents with an analysed form in any field. */
  private formDf(form: string): number {
    let n = 0;
    for (const d of this.docs.values())
      if (this.schema.text.some((f) => this.positions(d, f.name).some((v) => v.some((p) => p.forms.includes(form))))) n++;
    return n;
  }

  private formScore(doc: SearchDocument, form: string, fields: number[]): M {
    let w = 0;
    for (const i of fields) {
      const tf = this.positions(doc, this.schema.text[i]!.name)
        .flat()
        .filter((p) => p.forms.includes(form)).length;
      if (tf > 0) w += this.schema.text[i]!.weight * Math.min(tf, 3);
    }
    return w > 0 ? { m: true, s: idf(this.docs.size, this.formDf(form)) * w } : NO;
  }

  private analysedFields(fields: number[]): number[] {
    const a = this.schema.analysis;
    return a === undefined ? [] : fields.filter((i) => a.fields.includes(this.schema.text[i]!.name));
  }

  /** A word: exact, then ½ × each query form as a folded word (but the word) and as an analysed form, then a compound. */
  private wordScore(doc: SearchDocument, word: string, fields: number[]): M {
    let acc = this.termScore(doc, word, fields);
    const am = this.analysedFields(fields);
    if (am.length === 0) return acc;
    acc = this.analysedWord(doc, acc, word, am, false);
    if (this.df(word) === 0) {
      const split = this.compoundSplit(word);
      if (split !== undefined) acc = or(acc, this.phraseLeafScore(doc, split.join(' '), split, fields));
    }
    return acc;
  }

  private analysedWord(doc: SearchDocument, acc: M, word: string, am: number[], self: boolean): M {
    for (const f of queryForms(word)) {
      if (f !== word || self) acc = or(acc, half(this.termScore(doc, f, am)));
      acc = or(acc, half(this.formScore(doc, f, am)));
    }
    return acc;
  }

  private compoundSplit(word: string): [string, string] | undefined {
    let best: [string, string] | undefined;
    let bestDf = 0;
    for (let i = 1; i <= word.length - 3; i++) {
      if (i < 3 && !isElided(word.slice(0, i))) continue;
      const df = Math.min(this.df(word.slice(0, i)), this.df(word.slice(i)));
      if (df > 0 && df >= bestDf) {
        best = [word.slice(0, i), word.slice(i)];
        bestDf = df;
      }
    }
    return best;
  }

  /** A phrase: exact, then ½ × the phrase of its words' forms, elisions and possessives left out. */
  private phraseLeafScore(doc: SearchDocument, text: string, toks: string[], fields: number[], slop = 0): M {
    const exact = this.phraseScore(doc, toks, fields, slop);
    const am = this.analysedFields(fields);
    if (am.length === 0) return exact;
    const el = elisions(text);
    const words = el !== undefined && el.length === toks.length ? toks.filter((_, k) => el[k] === 0) : toks;
    if (words.length === 0) return exact;
    if (words.length === 1) return this.analysedWord(doc, exact, words[0]!, am, true);
    const forms = words.map((w) => queryForms(w));
    const meets = (p: Position, k: number) => forms[k]!.includes(p.tok) || p.forms.some((f) => forms[k]!.includes(f));
    let acc = 0;
    for (const i of am) {
      let tf = 0;
      for (const v of this.positions(doc, this.schema.text[i]!.name)) {
        tf += phraseCount(v.length, words.length, slop, (p, k) => meets(v[p]!, k));
      }
      if (tf > 0) acc += this.schema.text[i]!.weight * Math.min(tf, 3);
    }
    if (acc === 0) return exact;
    let idfSum = 0;
    for (let k = 0; k < words.length; k++) {
      let df = 0;
      for (const d of this.docs.values())
        if (this.schema.text.some((f) => this.positions(d, f.name).some((v) => v.some((p) => meets(p, k))))) df++;
      idfSum += idf(this.docs.size, df);
    }
    return or(exact, half({ m: true, s: idfSum * acc }));
  }

  private df(word: string): number {
    let n = 0;
    for (const d of this.docs.values()) if (this.schema.text.some((f) => this.fieldTokens(d, f.name).some((v) => v.includes(word)))) n++;
    return n;
  }

  private vocabulary(): string[] {
    const all = new Set<string>();
    for (const d of this.docs.values())
      for (const f of this.schema.text) for (const v of this.fieldTokens(d, f.name)) v.forEach((t) => all.add(t));
    return [...all].sort(compareCodePoints);
  }

  private textFields(field: string | null): number[] {
    return this.schema.text.map((f, i) => (field === null || f.name === field ? i : -1)).filter((i) => i >= 0);
  }

  private termScore(doc: SearchDocument, word: string, fields: number[]): M {
    let w = 0;
    for (const i of fields) {
      const tf = this.fieldTokens(doc, this.schema.text[i]!.name)
        .flat()
        .filter((t) => t === word).length;
      if (tf > 0) w += this.schema.text[i]!.weight * Math.min(tf, 3);
    }
    return w > 0 ? { m: true, s: idf(this.docs.size, this.df(word)) * w } : NO;
  }

  private phraseScore(doc: SearchDocument, words: string[], fields: number[], slop = 0): M {
    let acc = 0;
    for (const i of fields) {
      let tf = 0;
      for (const v of this.fieldTokens(doc, this.schema.text[i]!.name))
        tf += phraseCount(v.length, words.length, slop, (p, k) => v[p] === words[k]);
      if (tf > 0) acc += this.schema.text[i]!.weight * Math.min(tf, 3);
    }
    if (acc === 0) return NO;
    let idfSum = 0;
    for (const w of words) idfSum += idf(this.docs.size, this.df(w));
    return { m: true, s: idfSum * acc };
  }

  private bestWeight(doc: SearchDocument, accept: (t: string) => boolean, fields: number[]): M {
    let best = 0;
    for (const i of fields) {
      if (this.fieldTokens(doc, this.schema.text[i]!.name).flat().some(accept)) best = Math.max(best, this.schema.text[i]!.weight);
    }
    return best > 0 ? { m: true, s: best } : NO;
  }

  leaf(doc: SearchDocument, node: Extract<QueryNode<string>, { kind: 'term' | 'phrase' | 'prefix' | 'wildcard' }>): M {
    const s = this.schema;
    const f = node.field;
    const raw = node.kind === 'wildcard' ? node.pattern : node.text;
    if (f === s.idField) return { m: doc.id === (s.normalizeId ? s.normalizeId(raw) : raw), s: 0 };
    if (f !== null && s.constants?.[f] !== undefined) {
      const c = fold(s.constants[f]);
      return {
        m: node.kind === 'prefix' ? c.startsWith(fold(raw)) : node.kind === 'wildcard' ? globMatcher(fold(raw))(c) : fold(raw) === c,
        s: 0,
      };
    }
    if (f === null || s.text.some((t) => t.name === f)) {
      const fields = this.textFields(f);
      if (node.kind === 'wildcard') {
        const folded = fold(node.pattern.replace(/\\(.)/g, '$1'));
        const m = globMatcher(folded);
        const lit = literalPrefix(folded);
        return this.bestWeight(doc, (t) => t.startsWith(lit) && m(t), fields);
      }
      const toks = tokens(node.text);
      if (node.kind === 'prefix') {
        if (toks.length === 0) return { m: fields.some((i) => this.fieldTokens(doc, s.text[i]!.name).some((v) => v.length > 0)), s: 0 };
        const last = toks[toks.length - 1]!;
        if (toks.length === 1) return this.bestWeight(doc, (t) => t.startsWith(last), fields);
        let acc: M = NO;
        for (const t of this.vocabulary().filter((v) => v.startsWith(last))) {
          const r = this.phraseScore(doc, [...toks.slice(0, -1), t], fields);
          if (r.m) acc = acc.m ? { m: true, s: acc.s + r.s } : r;
        }
        return acc;
      }
      if (toks.length === 0) return NO;
      const slop = node.kind === 'phrase' ? (node.slop ?? 0) : 0;
      return toks.length === 1 ? this.wordScore(doc, toks[0]!, fields) : this.phraseLeafScore(doc, node.text, toks, fields, slop);
    }
    if (s.facets.includes(f)) {
      const values = doc.facets[f] ?? [];
      const m =
        node.kind === 'prefix'
          ? values.some((v) => v.startsWith(node.text))
          : node.kind === 'wildcard'
            ? values.some((v) => v.startsWith(literalPrefix(node.pattern)) && globMatcher(node.pattern)(v))
            : values.includes(node.text);
      return { m, s: 0 };
    }
    const num = s.numbers.find((n) => n.name === f)!;
    const v = num.parse ? num.parse(raw) : Number(raw);
    return { m: doc.numbers[f] === v, s: 0 };
  }

  private hasValue(doc: SearchDocument, field: string): boolean {
    const s = this.schema;
    if (field === s.idField || s.constants?.[field] !== undefined) return true;
    if (s.text.some((t) => t.name === field)) return (doc.text[field] ?? []).some((v) => tokens(v).length > 0);
    if (s.facets.includes(field)) return (doc.facets[field] ?? []).length > 0;
    if (s.numbers.some((n) => n.name === field)) return typeof doc.numbers[field] === 'number';
    return typeof doc.sort[field] === 'string';
  }

  private inRange(doc: SearchDocument, node: Extract<QueryNode<string>, { kind: 'range' }>): boolean {
    const num = this.schema.numbers.find((n) => n.name === node.field);
    let v: number | string | null | undefined;
    let lo: number | string | null;
    let hi: number | string | null;
    let cmp: (a: never, b: never) => number;
    if (num) {
      v = doc.numbers[node.field];
      const p = (b: string | null) => (b === null ? null : num.parse ? num.parse(b) : Number(b));
      lo = p(node.lower);
      hi = p(node.upper);
      cmp = (a: number, b: number) => a - b;
    } else {
      v = doc.sort[node.field];
      lo = node.lower === null ? null : fold(node.lower);
      hi = node.upper === null ? null : fold(node.upper);
      cmp = compareCodePoints;
    }
    if (v === null || v === undefined) return false;
    const c = cmp as (a: unknown, b: unknown) => number;
    if (lo !== null && (node.includeLower ? c(v, lo) < 0 : c(v, lo) <= 0)) return false;
    if (hi !== null && (node.includeUpper ? c(v, hi) > 0 : c(v, hi) >= 0)) return false;
    return true;
  }

  evaluate(doc: SearchDocument, node: QueryNode<string>): M {
    switch (node.kind) {
      case 'all':
        return { m: true, s: 0 };
      case 'and': {
        const pos = node.children.filter((c) => c.kind !== 'not');
        let acc: M = { m: true, s: 0 };
        pos.forEach((c, i) => {
          const r = this.evaluate(doc, c);
          acc = { m: acc.m && r.m, s: i === 0 ? r.s : acc.s + r.s };
        });
        for (const c of node.children) if (c.kind === 'not' && this.evaluate(doc, c.child).m) acc = NO;
        return acc.m ? acc : NO;
      }
      case 'or': {
        let acc: M = NO;
        for (const c of node.children) {
          const r = this.evaluate(doc, c);
          if (r.m) acc = acc.m ? { m: true, s: acc.s + r.s } : r;
        }
        return acc;
      }
      case 'not':
        return { m: !this.evaluate(doc, node.child).m, s: 0 };
      case 'exists':
        return { m: this.hasValue(doc, node.field), s: 0 };
      case 'range':
        return { m: this.inRange(doc, node), s: 0 };
      default:
        return boosted(this.leaf(doc, node), node.boost);
    }
  }

  /** The whole ordered hit list, the facet counts and matched terms of a request. */
  search(req: SearchRequest): { hits: Array<{ id: string; score: number }>; facets: FacetCounts[]; matchedTerms: string[] } {
    const scored: Array<{ doc: SearchDocument; score: number }> = [];
    for (const doc of this.docs.values()) {
      const r = this.evaluate(doc, req.query);
      if (!r.m) continue;
      const filtered = Object.entries(req.filters ?? {}).every(([f, values]) => (doc.facets[f] ?? []).some((v) => values.includes(v)));
      if (filtered) scored.push({ doc, score: r.s });
    }
    scored.sort((a, b) => this.compare(req.sort, req.query, a, b));
    const facets = (req.facets ?? []).map((fr) => {
      const counts = new Map<string, number>();
      for (const d of this.docs.values()) for (const v of new Set(d.facets[fr.field] ?? [])) if (!counts.has(v)) counts.set(v, 0);
      for (const { doc } of scored) for (const v of new Set(doc.facets[fr.field] ?? [])) counts.set(v, counts.get(v)! + 1);
      const values = [...counts]
        .filter(([, c]) => c >= fr.mincount)
        .sort((a, b) => (fr.sort === 'count' ? b[1] - a[1] : 0) || compareCodePoints(a[0], b[0]))
        .map(([value, count]) => ({ value, count }));
      return { field: fr.field, values: fr.limit === -1 ? values : values.slice(0, fr.limit) };
    });
    const matchedTerms: string[] = [];
    const hitIds = new Set(scored.map((s) => s.doc.id));
    const walk = (n: QueryNode<string>, negated: boolean): void => {
      if (n.kind === 'and') {
        n.children.filter((c) => c.kind !== 'not').forEach((c) => walk(c, negated));
        n.children.forEach((c) => c.kind === 'not' && walk(c.child, !negated));
      } else if (n.kind === 'or') n.children.forEach((c) => walk(c, negated));
      else if (n.kind === 'not') walk(n.child, !negated);
      else if (n.kind === 'term' || n.kind === 'phrase' || n.kind === 'prefix' || n.kind === 'wildcard') {
        if (negated) return;
        const text = n.kind === 'prefix' ? `${n.text}*` : n.kind === 'wildcard' ? n.pattern : n.text;
        if (matchedTerms.includes(text)) return;
        if ([...hitIds].some((id) => this.leaf(this.docs.get(id)!, n).m)) matchedTerms.push(text);
      }
    };
    walk(req.query, false);
    return { hits: scored.map((s) => ({ id: s.doc.id, score: req.sort.kind === 'relevance' ? s.score : 0 })), facets, matchedTerms };
  }

  private compare(
    sort: SearchSort,
    query: QueryNode<string>,
    a: { doc: SearchDocument; score: number },
    b: { doc: SearchDocument; score: number },
  ): number {
    const byId = compareCodePoints(a.doc.id, b.doc.id);
    const key = (k: string, desc: boolean) => {
      const x = a.doc.sort[k] ?? null;
      const y = b.doc.sort[k] ?? null;
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      const d = typeof x === 'number' ? x - (y as number) : compareCodePoints(x, y as string);
      return desc ? -d : d;
    };
    const words: string[] = [];
    const walk = (n: QueryNode<string>): void => {
      if (n.kind === 'and' || n.kind === 'or') n.children.forEach(walk);
      else if ((n.kind === 'term' || n.kind === 'phrase') && (n.field === null || n.field === this.schema.text[0]!.name))
        words.push(...tokens(n.text));
    };
    walk(query);
    const want = words.sort().join(' ');
    const exact = (d: SearchDocument) => {
      const first = d.text[this.schema.text[0]!.name]?.[0];
      return want !== '' && first !== undefined && tokens(first).sort().join(' ') === want ? 0 : 1;
    };
    switch (sort.kind) {
      case 'id':
        return sort.descending ? -byId : byId;
      case 'key':
        return key(sort.key, sort.descending) || byId;
      case 'random': {
        const seed = hashString(sort.seed);
        return mix32(hashString(a.doc.id) ^ seed) - mix32(hashString(b.doc.id) ^ seed) || byId;
      }
      case 'relevance': {
        let d = exact(a.doc) - exact(b.doc) || b.score - a.score;
        for (const t of this.schema.relevanceTiebreak) d = d || key(t.key, t.descending);
        return d || byId;
      }
      case 'tiers': {
        const tier = (doc: SearchDocument) => {
          if (sort.exact && exact(doc) === 0) return 0;
          const i = sort.tiers.findIndex((q) => this.evaluate(doc, q).m);
          return (sort.exact ? 1 : 0) + (i < 0 ? sort.tiers.length : i);
        };
        let d = tier(a.doc) - tier(b.doc);
        for (const k of sort.keys) d = d || key(k.key, k.descending);
        return d || byId;
      }
      case 'distance':
        // test/search/geoReference.test.ts holds the brute force of the geographic order
        throw new Error('the distance order is not in this reference');
    }
  }
}

/** A leaf's score times its boost (`term^2`). */
function boosted(r: M, boost: number | undefined): M {
  return boost === undefined || !r.m ? r : { m: true, s: boost * r.s };
}

/**
 * Matches of a phrase of `n` words in one value of `len` positions, by brute force: the
 * positions p of word 0 for which distinct positions of the other words exist (`meets(p, k)`:
 * position p holds word k) whose offsets p − k lie within `slop` of each other (Lucene's
 * sloppy phrase; slop 0: consecutive words).
 */
function phraseCount(len: number, n: number, slop: number, meets: (p: number, k: number) => boolean): number {
  let count = 0;
  const chosen: number[] = [];
  const fits = (k: number): boolean => {
    if (k === n) {
      const offs = chosen.map((p, i) => p - i);
      return Math.max(...offs) - Math.min(...offs) <= slop;
    }
    for (let p = 0; p < len; p++) {
      if (chosen.includes(p) || !meets(p, k)) continue;
      chosen.push(p);
      const ok = fits(k + 1);
      chosen.pop();
      if (ok) return true;
    }
    return false;
  };
  for (let p = 0; p < len; p++) {
    if (!meets(p, 0)) continue;
    chosen.push(p);
    if (fits(1)) count++;
    chosen.pop();
  }
  return count;
}
