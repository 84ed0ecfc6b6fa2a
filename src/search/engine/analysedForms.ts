/**
 * The analysed forms of an index (analysis.ts, docs/search-engine.md "Language analysis"):
 * their dictionary and their postings, in the layout of the folded terms' (SearchIndex.ts),
 * and per folded term and language its analysed form, computed once.
 *
 * What is written: at each position of an analysed field, the analysed forms of its word in
 * the document's languages that are not the word itself (the word is already among the
 * folded terms); at the position of an elided article or a possessive `s`, the word it
 * belongs to and its analysed forms.
 */
import { analyse, LANGUAGES, languageOf } from './analysis.js';
import { Dictionary } from './dictionary.js';
import { Growable } from './growable.js';
import type { ImageSink, ImageSource } from './indexImage.js';
import { ListPool } from './listPool.js';

export class AnalysedForms {
  readonly forms = new Dictionary();
  readonly pool = new ListPool();
  /** Per language, per term id: 0 not yet known, -1 the term itself, else the form's id + 1. */
  private readonly cache = LANGUAGES.map(() => new Growable(Int32Array));
  /** Bits of LANGUAGES: a document without a language of its own is analysed in these. */
  readonly defaults: number;

  constructor(
    private readonly terms: Dictionary,
    /** `search.languages`: codes languageOf() reads. */
    languages: readonly string[],
  ) {
    this.defaults = languageBits(languages);
  }

  /** The id of a form, added when new. */
  intern(form: string): number {
    const before = this.forms.size;
    const id = this.forms.intern(form);
    if (id === before) this.pool.create();
    return id;
  }

  /** The id of term `t`'s form in language `l` (an index of LANGUAGES); -1 when the form is the term. */
  formOf(t: number, l: number): number {
    const cache = this.cache[l]!.ensure(t);
    let c = cache[t]!;
    if (c === 0) {
      const word = this.terms.string(t);
      const a = analyse(word, LANGUAGES[l]!);
      c = a === word ? -1 : this.intern(a) + 1;
      cache[t] = c;
    }
    return c < 0 ? -1 : c - 1;
  }

  /** The languages a document is analysed in: the values of its language facet, else the defaults. */
  languagesOf(values: readonly string[] | undefined): number {
    if (values === undefined || values.length === 0) return this.defaults;
    let bits = 0;
    for (const v of values) {
      const l = languageOf(v);
      if (l !== undefined) bits |= 1 << LANGUAGES.indexOf(l);
    }
    return bits === 0 ? this.defaults : bits;
  }

  /** The indexes of LANGUAGES of a set of bits, ascending (one array per set, kept). */
  indexesOf(bits: number): readonly number[] {
    const kept = this.byBits[bits];
    if (kept !== undefined) return kept;
    const a: number[] = [];
    for (let l = 0; l < LANGUAGES.length; l++) if ((bits >>> l) & 1) a.push(l);
    this.byBits[bits] = a;
    return a;
  }

  private readonly byBits: Array<readonly number[]> = [];

  image(sink: ImageSink, p: string): void {
    this.forms.image(sink, `${p}.forms`);
    this.pool.image(sink, `${p}.postings`);
  }

  restore(source: ImageSource, p: string): void {
    this.forms.restore(source, `${p}.forms`);
    this.pool.restore(source, `${p}.postings`);
  }
}

/** The bits of LANGUAGES of a list of codes; codes without a stemmer are left out. */
export function languageBits(codes: readonly string[]): number {
  let bits = 0;
  for (const c of codes) {
    const l = languageOf(c);
    if (l !== undefined) bits |= 1 << LANGUAGES.indexOf(l);
  }
  return bits;
}
