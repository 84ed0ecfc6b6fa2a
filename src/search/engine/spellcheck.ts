/**
 * "Did you mean" (docs/search-engine.md "Spellcheck"; spec 2.1 `correctedQuery`): when a query finds fewer than
 * `minHits` documents, each of its plain terms that is rare or absent is replaced by the
 * closest term of the index's vocabulary, and the corrected query is offered if it finds more
 * documents than the one sent. The hits answered stay those of the query as sent.
 *
 * As Solr's DirectSolrSpellChecker with collation does, which the real service runs:
 *   - a word is corrected when fewer than `minHits` live documents hold it in the fields its
 *     term searches (so with the default minHits 1, only words the index lacks there); a
 *     word that finds its documents is right, however rare;
 *   - candidates: terms within 2 edits of the folded word (optimal string alignment: a
 *     swap of two neighbouring letters is one edit; 1 edit for words of 4 letters), sharing
 *     its first letter (Lucene's minPrefix 1, which also keeps the walk small: nearTerms.ts),
 *     held by clearly more live documents in those fields than the word (at least MIN_RATIO
 *     times as many, and more); the fewest edits win, then the most documents, then
 *     code point order. A first letter mistyped is corrected too, one edit away, when the
 *     right term is frequent (FIRST_LETTER_MIN_DOCS: `Kombat` → `Combat`). Words under 4
 *     letters or with a digit are left alone (numbers, dates, identifiers);
 *   - only plain terms outside NOT are corrected, word by word (`Goethe-Hauss` becomes
 *     `Goethe-Haus`); field names, operators, phrases, prefixes,
 *     wildcards, ranges and everything between the terms stay as written. A replacement
 *     is matched on the folded form, spelt as most documents indexed with it spell it
 *     (spellings.ts: `Zürch` → `Zürich`, `Straus` → `Strauß`), and takes the case pattern
 *     of the word it replaces (`Goehte` → `Goethe`, `GOEHTE` → `GOETHE`);
 *   - the corrected query is run with the same filters and kept only if it finds more.
 * All of it runs only when the query found fewer than minHits: no cost otherwise.
 */
import { parseQueryWithTerms, QuerySyntaxError, type QueryNode, type TermSpan } from '../../query/parse.js';
import { tokens } from './fold.js';
import type { Deadline } from './errors.js';
import { Scratch } from './hits.js';
import { nearTerms } from './nearTerms.js';
import { Postings } from './postings.js';
import { queryFields } from './schema.js';
import type { SearchIndex } from './SearchIndex.js';
import { compareCodePoints } from './order.js';
import type { SpellcheckRequest } from './types.js';

export const MAX_EDITS = 2;
/** Shorter words are not corrected; words of exactly this length by one edit at most. */
export const MIN_WORD = 4;
/** Leading characters a correction keeps (Lucene's DirectSpellChecker minPrefix). */
export const MIN_PREFIX = 1;
/**
 * A word held by fewer than minHits documents is corrected to a candidate holding clearly
 * more: at least this many times as many, and more (docs/search-engine.md "Spellcheck").
 */
export const MIN_RATIO = 2;
/** A word with its first letter wrong is corrected to a term held by at least this many documents (`Kombat` → `Combat`). */
export const FIRST_LETTER_MIN_DOCS = 20;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** The longest query text looked at (the routes' limits are far below). */
const MAX_TEXT = 10_000;
/** Words as written: letters with their marks, digits (each must fold to one token). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const DIGIT = /\p{N}/u;

/**
 * The corrected query text, or "" when there is none. `count` runs a query tree with the
 * request's filters (`filtered`: it has some) and says how many documents it finds;
 * `sentTotal` is what the query as sent found.
 */
export function correctQuery(
  ix: SearchIndex,
  sent: QueryNode<string>,
  spell: SpellcheckRequest,
  sentTotal: number,
  count: (query: QueryNode<string>) => number,
  filtered: boolean,
  clock: Deadline,
): string {
  const text = spell.text;
  if (text.length > MAX_TEXT) return '';
  let parsed: { query: QueryNode<string>; terms: TermSpan[] };
  try {
    parsed = parseQueryWithTerms(text, { fields: queryFields(ix.schema), maxLength: MAX_TEXT });
  } catch (e) {
    if (e instanceof QuerySyntaxError) return ''; // not the text of this query: nothing to offer
    throw e;
  }
  const positive = new Set<QueryNode<string>>();
  collectPositive(parsed.query, false, positive);
  const corrector = new WordCorrector(ix, spell.minHits, clock);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  /** `field\0text` of a corrected term node → its corrected text. */
  const rewritten = new Map<string, string>();
  for (const span of parsed.terms) {
    const node = span.node;
    if (!positive.has(node)) continue;
    const raw = text.slice(span.start, span.end);
    if (raw !== node.text) continue; // escapes: not worth rewriting
    const mask = corrector.maskOf(node.field);
    if (mask === 0) continue;
    const words = [...raw.matchAll(WORD)];
    const folded = words.map((w) => tokens(w[0]));
    if (folded.some((t) => t.length !== 1) || folded.flat().join(' ') !== tokens(raw).join(' ')) continue;
    let out = '';
    let at = 0;
    words.forEach((w, i) => {
      const better = corrector.correct(folded[i]![0]!, mask);
      if (better === undefined) return;
      const spelt = withCaseOf(w[0], ix.spelling(better));
      edits.push({ start: span.start + w.index, end: span.start + w.index + w[0].length, text: spelt });
      out += raw.slice(at, w.index) + spelt;
      at = w.index + w[0].length;
    });
    if (at > 0) rewritten.set(`${node.field}\0${node.text}`, out + raw.slice(at));
  }
  if (edits.length === 0) return '';
  const corrected = rewrite(sent, rewritten, false);
  if (corrected === sent) return '';
  // a query of one word without filters finds the documents of that word, known already
  const oneWord = corrected.kind === 'term' && !filtered ? tokens(corrected.text) : [];
  const found =
    oneWord.length === 1 ? corrector.df(oneWord[0]!, corrector.maskOf((corrected as { field: string | null }).field)) : count(corrected);
  if (found <= sentTotal) return '';
  let result = '';
  let at = 0;
  for (const e of edits) {
    result += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return result + text.slice(at);
}

/** Term nodes outside any NOT. */
function collectPositive(node: QueryNode<string>, negated: boolean, out: Set<QueryNode<string>>): void {
  if (node.kind === 'term' && !negated) out.add(node);
  else if (node.kind === 'and' || node.kind === 'or') for (const c of node.children) collectPositive(c, negated, out);
  else if (node.kind === 'not') collectPositive(node.child, !negated, out);
}

/** The tree with the positive term nodes of `rewritten` corrected (the same object when none is). */
function rewrite(node: QueryNode<string>, rewritten: ReadonlyMap<string, string>, negated: boolean): QueryNode<string> {
  switch (node.kind) {
    case 'term': {
      const text = negated ? undefined : rewritten.get(`${node.field}\0${node.text}`);
      return text === undefined ? node : { ...node, text };
    }
    case 'and':
    case 'or': {
      const children = node.children.map((c) => rewrite(c, rewritten, negated));
      return children.every((c, i) => c === node.children[i]) ? node : { ...node, children };
    }
    case 'not': {
      const child = rewrite(node.child, rewritten, !negated);
      return child === node.child ? node : { ...node, child };
    }
    default:
      return node;
  }
}

/** `spelling` (lower case) with the case pattern of `word`: all capitals, a capital first, or as is. */
export function withCaseOf(word: string, spelling: string): string {
  const lower = word.toLowerCase();
  if (word === lower) return spelling;
  if (word.length > 1 && word === word.toUpperCase()) return spelling.toUpperCase();
  return word[0] !== lower[0] ? spelling[0]!.toUpperCase() + spelling.slice(1) : spelling;
}

/** The best replacement of one folded word in the fields of a mask (memoised per search). */
class WordCorrector {
  private readonly postings: Postings;
  private readonly scratch = new Scratch();
  private readonly dfs = new Map<string, number>();
  private readonly done = new Map<string, string | undefined>();
  private readonly allText: number;

  constructor(
    private readonly ix: SearchIndex,
    private readonly minHits: number,
    private readonly clock: Deadline,
  ) {
    this.postings = new Postings(ix, clock);
    this.allText = ix.schema.text.length === 32 ? 0xffffffff : (1 << ix.schema.text.length) - 1;
  }

  /** The text fields a term on `field` searches (as evaluate.ts reads it); 0 = not text. */
  maskOf(field: string | null): number {
    const schema = this.ix.schema;
    if (field === null) return this.allText;
    if (field === schema.idField || schema.constants?.[field] !== undefined) return 0;
    const t = this.ix.textField.get(field);
    return t === undefined ? 0 : 1 << t;
  }

  correct(word: string, mask: number): string | undefined {
    const key = `${mask}\0${word}`;
    if (!this.done.has(key)) this.done.set(key, this.find(word, mask));
    return this.done.get(key);
  }

  private find(word: string, mask: number): string | undefined {
    if (word.length < MIN_WORD || DIGIT.test(word)) return undefined;
    const own = this.df(word, mask);
    if (own >= this.minHits) return undefined;
    // one edit first: most misspellings are one, and its walk is several times cheaper
    const maxEdits = word.length > MIN_WORD ? MAX_EDITS : 1;
    for (let k = 1; k <= maxEdits; k++) {
      const candidates: string[] = [];
      nearTerms(
        this.ix.terms,
        word,
        k,
        MIN_PREFIX,
        (t, d) => {
          if (d === k && !DIGIT.test(t)) candidates.push(t);
        },
        (n) => this.clock.tick(n),
      );
      if (k === 1) candidates.push(...this.firstLetterVariants(word, mask));
      const best = this.mostFrequent(candidates, own, mask);
      if (best !== undefined) return best;
    }
    return undefined;
  }

  /**
   * The terms one edit from `word` at its first letter (another first letter, one added or
   * dropped before it, the first two swapped) held by at least FIRST_LETTER_MIN_DOCS live
   * documents in the mask's fields: a mistyped first letter, which the walk keeping it
   * (MIN_PREFIX) does not reach, corrected where the right word is frequent.
   */
  private firstLetterVariants(word: string, mask: number): string[] {
    const rest = word.slice(1);
    const variants = new Set<string>([rest, word.length > 1 ? word[1]! + word[0]! + word.slice(2) : word]);
    for (const c of LETTERS) {
      variants.add(c + rest);
      variants.add(c + word);
    }
    variants.delete(word);
    const out: string[] = [];
    for (const v of variants) {
      if (v.length >= MIN_WORD && this.ix.terms.get(v) !== undefined && this.df(v, mask) >= FIRST_LETTER_MIN_DOCS) out.push(v);
    }
    this.clock.tick(variants.size);
    return out;
  }

  /** The candidate held by the most live documents in the mask's fields, clearly more than `own` (MIN_RATIO). */
  private mostFrequent(candidates: string[], own: number, mask: number): string | undefined {
    const ix = this.ix;
    // each candidate's bound looked up once, not per comparison: a lookup in the image's
    // front-coded dictionary costs a microsecond or two (dictionary.ts)
    const bounds = new Map<string, number>();
    for (const t of candidates) bounds.set(t, ix.termDocs.array[ix.terms.get(t)!] ?? 0);
    const upper = (t: string) => bounds.get(t)!;
    // by the bound (documents ever indexed with the term) first, so few postings are read
    candidates.sort((a, b) => upper(b) - upper(a) || compareCodePoints(a, b));
    let best: string | undefined;
    // a candidate needs more than this
    let bestDf = Math.max(own, MIN_RATIO * own - 1);
    for (const t of candidates) {
      const bound = upper(t);
      if (bound < bestDf || (bound === bestDf && best === undefined)) break;
      const df = this.df(t, mask);
      if (df > bestDf || (df === bestDf && best !== undefined && compareCodePoints(t, best) < 0)) {
        best = t;
        bestDf = df;
      }
    }
    return best;
  }

  /** Live documents with the folded term in a field of `mask`. */
  df(term: string, mask: number): number {
    const key = `${mask}\0${term}`;
    let df = this.dfs.get(key);
    if (df === undefined) {
      const id = this.ix.terms.get(term);
      if (id === undefined) df = 0;
      else if (mask === this.allText && this.ix.ordinals === this.ix.size) {
        // no document was ever deleted or replaced: every document indexed with it is live
        df = this.ix.termDocs.array[id]!;
      } else {
        // as a term query reads it (evaluate.ts), so the decoded list is cached for both
        this.scratch.n = 0;
        this.postings.readPostings(id, mask, this.scratch, false);
        df = this.scratch.n;
      }
      this.dfs.set(key, df);
    }
    return df;
  }
}
