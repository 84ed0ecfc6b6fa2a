/**
 * Typed access to the `lucene` package (2.1.1, a PEG.js grammar, CommonJS, no types).
 *
 * The tree shapes below are what its grammar (node_modules/lucene/lib/lucene.grammar)
 * builds. A sequence `a OP b OP c` is a right-nested chain of nodes {left, operator,
 * right}; a parenthesised group is such a node with `parenthesized: true` (and `field`
 * for `field:(...)`); a leading operator is kept in `start`.
 */
import { createRequire } from 'node:module';
import { QuerySyntaxError } from './errors.js';
import type { Prepared } from './prepare.js';

export interface Loc {
  start: { offset: number };
  end: { offset: number };
}

/** `field:term`, `field:"phrase"`, or a bare term/phrase (field "<implicit>", no location). */
export interface LuceneTerm {
  field: string;
  fieldLocation: Loc | null;
  term: string;
  quoted: boolean;
  termLocation: Loc;
  prefix?: string | null;
}

export interface LuceneRange {
  field: string;
  fieldLocation: Loc | null;
  term_min: string;
  term_max: string;
  inclusive: 'both' | 'none' | 'left' | 'right';
}

export interface LuceneNode {
  left?: LuceneAny;
  operator?: string;
  right?: LuceneAny;
  start?: string;
  parenthesized?: boolean;
  field?: string;
  fieldLocation?: Loc | null;
}

export type LuceneAny = LuceneTerm | LuceneRange | LuceneNode;

interface PegError {
  location: Loc;
  expected: Array<{ type: string; text?: string; description?: string }> | null;
  found: string | null;
}

const require = createRequire(import.meta.url);
const lucene = require('lucene') as { parse(text: string): LuceneNode };

export function isRange(n: LuceneAny): n is LuceneRange {
  return 'term_min' in n;
}

export function isTerm(n: LuceneAny): n is LuceneTerm {
  return 'term' in n && typeof n.term === 'string';
}

/** Parses the prepared text; every failure becomes a QuerySyntaxError in user offsets. */
export function parseLucene(p: Prepared, userText: string): LuceneNode {
  try {
    return lucene.parse(p.text);
  } catch (e) {
    if (!isPegError(e)) {
      // e.g. RangeError from very deep recursion: not the user's syntax, but still a 400
      throw new QuerySyntaxError(0, 'a shorter or less nested query', 'the query is too complex');
    }
    const off = e.location.start.offset;
    const position = p.origin[off] ?? userText.length;
    const inRange = p.ranges.some(([a, b]) => off >= a && off < b);
    const found = e.found === null ? 'the end of the query' : `'${e.found}'`;
    if (inRange) {
      const wantsTo = (e.expected ?? []).some((x) => x.text === 'TO');
      const expected = wantsTo
        ? "'TO' between the two bounds of the range, as in [1700 TO 1800]"
        : 'a range of the form [lower TO upper], with * for an open bound';
      throw new QuerySyntaxError(position, expected, `unexpected ${found} in a range`);
    }
    throw new QuerySyntaxError(position, 'a term, a phrase, a field:value or a group', `unexpected ${found}`);
  }
}

function isPegError(e: unknown): e is PegError {
  const loc = (e as { location?: { start?: { offset?: unknown } } } | null)?.location;
  return typeof loc?.start?.offset === 'number';
}
