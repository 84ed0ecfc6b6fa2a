/**
 * Text to term ids for the index, fast enough for a national load (issue #14 point 8).
 *
 * `tokens` (src/search/fold.ts) folds and splits a whole value: lower case, NFKD, marks and
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
 */
import { tokens } from '../fold.js';
import type { Dictionary } from './dictionary.js';

const CACHE_LIMIT = 500_000;
const NONE: readonly number[] = [];

export class Analyzer {
  private cache = new Map<string, number | readonly number[]>();

  constructor(
    private readonly terms: Dictionary,
    /** Called with the id of every term the dictionary did not know. */
    private readonly added: (id: number) => void,
  ) {}

  /** Term ids of a chunk without spaces (cached): one id, or a list. */
  private chunk(text: string): number | readonly number[] {
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
      ids = out.length === 1 ? out[0]! : out;
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
        if (typeof ids === 'number') out.push(ids);
        else for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
      }
      if (sp < 0) return;
      from = sp + 1;
    }
  }
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
