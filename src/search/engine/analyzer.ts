/**
 * Text to term ids for the index, fast enough for a national load (a million documents in the bench).
 *
 * `tokens` (src/search/engine/fold.ts) folds and splits a whole value: lower case, NFKD, marks and
 * special letters removed, runs of letters and digits. Most of a load's time went there and
 * into looking the words up. Values repeat words (Zipf), so the analyzer caches, per
 * space-separated chunk of a value, the term ids of its tokens. This is exact: a space
 * (U+0020) is neither cased nor case-ignorable, so it bounds the context of the one
 * context-dependent lower-casing (final sigma); it is a starter (combining class 0), so NFKD
 * never reorders across it; and it is not a letter or digit, so no token spans it. Hence
 * tokens(a + ' ' + b) = tokens(a) ++ tokens(b).
 *
 * The cache is bounded: it is dropped whole when it holds CACHE_LIMIT chunks (a cheap, safe
 * policy: a miss only costs the fold). A chunk of one token (the usual case) is cached as a
 * bare number, not an array, to keep it small.
 *
 * A chunk whose words are spelt otherwise than their terms (diacritics, ß: `Zürich` is the
 * term `zurich`) also keeps those spellings, lower case, and hands them to `spelt` on every
 * use: the spellchecker writes a correction as the documents write it (spellcheck.ts).
 */
import { fold, tokens } from './fold.js';
import type { Dictionary } from './dictionary.js';

const CACHE_LIMIT = 500_000;
const NONE: readonly number[] = [];
const ASCII = /^[\x00-\x7f]*$/;
/** Words as written (as spellcheck.ts reads a query): letters with their marks, digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** A chunk's term ids with the spelling id of each, -1 where it is spelt as the term. */
interface Spelt {
  ids: readonly number[];
  spellings: readonly number[];
}

/** A chunk of one term spelt otherwise is cached as one negative number (no object: most chunks are one word). */
const SPELT_SHIFT = 2 ** 26;

/** What the analyzer asks of the index about spellings (spellings.ts). */
export interface SpellingSink {
  /** The id of a spelling (lower case, NFC). */
  intern(spelling: string): number;
  /** Term `id` occurs spelt as spelling `sid`. */
  spelt(id: number, sid: number): void;
}

export class Analyzer {
  private cache = new Map<string, number | readonly number[] | Spelt>();

  constructor(
    private readonly terms: Dictionary,
    /** Called with the id of every term the dictionary did not know. */
    private readonly added: (id: number) => void,
    private readonly spellings?: SpellingSink,
  ) {}

  /** Term ids of a chunk without spaces (cached): one id (negative: with a spelling), a list, or a list with spellings. */
  private chunk(text: string): number | readonly number[] | Spelt {
    let ids = this.cache.get(text);
    if (ids !== undefined) return ids;
    const toks = tokens(text);
    if (toks.length === 0) ids = NONE;
    else {
      const out: number[] = [];
      for (const t of toks) {
        const before = this.terms.size;
        const id = this.terms.intern(t);
        if (id === before) this.added(id);
        out.push(id);
      }
      const spelt = this.spellings === undefined || ASCII.test(text) ? undefined : spellingsOf(text, toks);
      if (spelt === undefined) ids = out.length === 1 ? out[0]! : out;
      else {
        const sids = spelt.map((s) => (s === undefined ? -1 : this.spellings!.intern(s)));
        ids =
          out.length === 1 && out[0]! < SPELT_SHIFT && sids[0]! < SPELT_SHIFT
            ? -(1 + out[0]! + sids[0]! * SPELT_SHIFT)
            : { ids: out, spellings: sids };
      }
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache = new Map();
    this.cache.set(text, ids);
    return ids;
  }

  /** Appends the term id of every token of `value` to `out`, in order. */
  analyze(value: string, out: IdBuffer): void {
    let from = 0;
    for (;;) {
      const sp = value.indexOf(' ', from);
      const part = sp < 0 ? (from === 0 ? value : value.slice(from)) : value.slice(from, sp);
      if (part.length > 0) {
        const ids = this.chunk(part);
        if (typeof ids === 'number') {
          if (ids >= 0) out.push(ids);
          else {
            const x = -ids - 1;
            const id = x % SPELT_SHIFT;
            out.push(id);
            this.spellings!.spelt(id, (x - id) / SPELT_SHIFT);
          }
        } else if (isSpelt(ids)) {
          for (let i = 0; i < ids.ids.length; i++) {
            out.push(ids.ids[i]!);
            const s = ids.spellings[i]!;
            if (s >= 0) this.spellings!.spelt(ids.ids[i]!, s);
          }
        } else for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
      }
      if (sp < 0) return;
      from = sp + 1;
    }
  }
}

function isSpelt(x: readonly number[] | Spelt): x is Spelt {
  return !Array.isArray(x);
}

/**
 * Per token of `text` (its terms `toks`), its word as written in lower case where that is
 * not the term; undefined when every word is its term, or when words and tokens do not pair
 * up one to one (a word of two tokens: nothing to learn from it).
 */
function spellingsOf(text: string, toks: readonly string[]): Array<string | undefined> | undefined {
  const words = text.toLowerCase().normalize('NFC').match(WORD) ?? [];
  if (words.length !== toks.length) return undefined;
  const out: Array<string | undefined> = [];
  let any = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (fold(w) !== toks[i]) return undefined;
    any ||= w !== toks[i];
    out.push(w === toks[i] ? undefined : w);
  }
  return any ? out : undefined;
}

/** A reusable growable list of ids. */
export class IdBuffer {
  ids = new Int32Array(256);
  n = 0;
  push(id: number): void {
    if (this.n === this.ids.length) {
      const grown = new Int32Array(this.n * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.n++] = id;
  }
}
