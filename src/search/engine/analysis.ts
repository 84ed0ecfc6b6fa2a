/**
 * Language analysis of text fields (docs/search.md "What matches what", docs/decisions.md
 * "Language analysis"): beside its folded form (fold.ts), every word of an analysed field
 * is indexed in its analysed forms, one per language of its document, and every word of a
 * query is looked up in its analysed forms in every language below. Solr, which the real
 * service runs, does the same with a stemmed copy of each field beside the exact one.
 *
 * The analysed form of a folded word in language L, `analyse(word, L)`:
 *   1. German only: German normalisation (Lucene's GermanNormalizationFilter on folded
 *      text): `ae`, `oe` → `a`, `o`; `ue` → `u` except after `q`; so `verklaerung` meets
 *      `Verklärung` (folded `verklarung`), and `Goethe` meets `Göthe`; and the plural `-n`
 *      of a noun in `-el` dropped (written by hand: German Snowball leaves `-eln` alone),
 *      so `Wirbeln`, `Rasseln`, `Orgeln` meet `Wirbel`, `Rassel`, `Orgel`;
 *   2. `-ist` and `-ism` endings meet (written by hand: no Snowball stemmer conflates them,
 *      and the collections' subject headings use both): a word ending in ist(s), iste(s),
 *      isten, ista(s), isti, ism(s), isme(s), ismus, ismen, ismo(s), ismi gets the ending
 *      `ism`, when at least four letters precede it and the last of them is not an `s`
 *      (`consist`, `persist`, `assist` keep theirs): `syndicalist` and `syndicalism`,
 *      `Sozialisten` and `Sozialismus`, `marxiste` and `marxismo` meet;
 *   3. the language's Snowball stemmer (@orama/stemmers);
 *   4. German normalisation again, in every language: an English or French record's
 *      `Goethe` meets the `goethes` of a German reader.
 *
 * Elisions and the possessive `'s` (step 0, on the words of a text as written): `l'`, `d'`,
 * `dell'`, `qu'`... before a word, and `'s` after one, are no words of their own in the
 * analysed form: their position carries the analysed forms of the word they belong to, so
 * that `"de l'homme"` and `"goethes werke"` find `de l'homme` and `Goethe's Werken` as
 * phrases. Their folded forms (`l`, `s`) stay in the exact form as before.
 */
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { fold } from './fold.js';

/** The languages analysed, in the order a query's forms are looked up (ISO 639-1). */
export const LANGUAGES = ['de', 'en', 'fr', 'nl', 'it', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const STEMMERS: Readonly<Record<Language, (word: string) => string>> = {
  de: german,
  en: english,
  fr: french,
  nl: dutch,
  it: italian,
  es: spanish,
};

/**
 * The language of a `language_fct` value (ISO 639-2/B as the DDB writes it, 639-2/T and
 * 639-1 as EDM records do, src/ingest/edm/languages.ts) or of a `search.languages` entry;
 * undefined for a language without a stemmer here.
 */
export function languageOf(value: string): Language | undefined {
  return CODES[value.trim().toLowerCase()];
}

const CODES: Readonly<Record<string, Language>> = {
  de: 'de',
  ger: 'de',
  deu: 'de',
  en: 'en',
  eng: 'en',
  fr: 'fr',
  fre: 'fr',
  fra: 'fr',
  nl: 'nl',
  dut: 'nl',
  nld: 'nl',
  it: 'it',
  ita: 'it',
  es: 'es',
  spa: 'es',
};

/** German normalisation of a folded word (step 1 and 4 above). */
export function germanNormal(word: string): string {
  if (word.indexOf('e') < 0) return word;
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === 'e' && i > 0) {
      const p = word[i - 1]!;
      if (p === 'a' || p === 'o' || (p === 'u' && (i < 2 || word[i - 2] !== 'q'))) continue;
    }
    out += c;
  }
  return out;
}

/** Step 1's `-eln` → `-el` of a word of at least six letters. */
function germanEln(word: string): string {
  return word.length >= 6 && word.endsWith('eln') ? word.slice(0, -1) : word;
}

const ISM = /^(.*[a-rt-z])(?:ists?|istes?|isten|istas?|isti|isms?|ismes?|ismus|ismen|ismos?|ismi)$/;

/** Step 2 above: the ending of -ist and -ism words made `ism`. */
export function ismEnding(word: string): string {
  const m = ISM.exec(word);
  return m === null || m[1]!.length < 4 ? word : `${m[1]}ism`;
}

/** The analysed form of a folded word in a language (the steps above). */
export function analyse(word: string, language: Language): string {
  const w = language === 'de' ? germanEln(germanNormal(word)) : word;
  return germanNormal(STEMMERS[language](ismEnding(w)));
}

/**
 * The forms a query word is looked up in: the word itself, then its analysed form in each
 * language of LANGUAGES, each once, in that order.
 */
export function queryForms(word: string): string[] {
  const out = [word];
  for (const l of LANGUAGES) {
    const a = analyse(word, l);
    if (!out.includes(a)) out.push(a);
  }
  return out;
}

/** Articles and prepositions elided before a vowel (French, Italian, Catalan), folded. */
const ELIDED = new Set([
  'l',
  'd',
  'j',
  'm',
  'n',
  's',
  't',
  'c',
  'qu',
  'jusqu',
  'lorsqu',
  'puisqu',
  'quoiqu',
  'presqu',
  'dell',
  'dall',
  'nell',
  'sull',
  'all',
  'coll',
  'pell',
  'quell',
  'quest',
  'un',
  'nessun',
  'bell',
  'sant',
  'tutt',
]);

/** Whether a folded word is an article or preposition elided before a vowel (`l`, `d`, `dell`...). */
export function isElided(word: string): boolean {
  return ELIDED.has(word);
}

const APOSTROPHE = /['\u2019\u02bc]/;
const TOKEN = /[\p{L}\p{N}]+/gu;

/** Whether a text may hold an elision or a possessive (a cheap test before elisions()). */
export function hasApostrophe(text: string): boolean {
  return APOSTROPHE.test(text);
}

/**
 * Per token of `tokens(text)`, the offset of the word it belongs to when it is an elided
 * article (+1: the next token) or a possessive `s` (-1: the one before), else 0. Undefined
 * when there is none.
 */
export function elisions(text: string): Int8Array | undefined {
  if (!APOSTROPHE.test(text)) return undefined;
  // fold() keeps apostrophes, and tokens() are its runs of letters and digits
  const folded = fold(text);
  const at: number[] = [];
  const end: number[] = [];
  const words: string[] = [];
  for (const m of folded.matchAll(TOKEN)) {
    at.push(m.index);
    end.push(m.index + m[0].length);
    words.push(m[0]);
  }
  let out: Int8Array | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    // token i and the next one are glued by an apostrophe
    const toNext = i + 1 < words.length && at[i + 1] === end[i]! + 1 && APOSTROPHE.test(folded[end[i]!]!);
    const fromPrev = i > 0 && at[i] === end[i - 1]! + 1 && APOSTROPHE.test(folded[end[i - 1]!]!);
    let host = 0;
    if (ELIDED.has(w) && toNext && !(w === 's' && fromPrev)) host = 1;
    else if (w === 's' && fromPrev && !toNext) host = -1;
    if (host !== 0) (out ??= new Int8Array(words.length))[i] = host;
  }
  return out;
}
