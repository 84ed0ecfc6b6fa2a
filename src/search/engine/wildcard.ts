/**
 * Wildcard patterns of the query tree (src/query/ast.ts: `*`, `?`, and `\x` for a literal x)
 * as predicates over terms. The index only needs `(term) => boolean`, so another matcher
 * can be passed in (SearchIndex options); this one is the classic greedy glob match with one
 * backtrack point (the last `*`): O(pattern × term) at worst, never exponential.
 */
export type WildcardMatcher = (pattern: string) => (term: string) => boolean;

type Piece = { kind: 'lit'; ch: string } | { kind: 'any' } | { kind: 'one' };

/** Splits a pattern into literal characters (code points) and wildcards. */
export function patternPieces(pattern: string): Piece[] {
  const out: Piece[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) out.push({ kind: 'lit', ch: chars[++i]! });
    else if (c === '*') out.push({ kind: 'any' });
    else if (c === '?') out.push({ kind: 'one' });
    else out.push({ kind: 'lit', ch: c });
  }
  return out;
}

export const globMatcher: WildcardMatcher = (pattern) => {
  const p = patternPieces(pattern);
  return (term) => {
    const t = Array.from(term);
    let i = 0;
    let j = 0;
    let star = -1;
    let mark = 0;
    while (j < t.length) {
      const piece = p[i];
      if (piece && (piece.kind === 'one' || (piece.kind === 'lit' && piece.ch === t[j]))) {
        i++;
        j++;
      } else if (piece && piece.kind === 'any') {
        star = i++;
        mark = j;
      } else if (star >= 0) {
        i = star + 1;
        j = ++mark;
      } else return false;
    }
    while (i < p.length && p[i]!.kind === 'any') i++;
    return i === p.length;
  };
};

/** The literal text before the first wildcard (the dictionary range to scan). */
export function literalPrefix(pattern: string): string {
  let out = '';
  for (const piece of patternPieces(pattern)) {
    if (piece.kind !== 'lit') break;
    out += piece.ch;
  }
  return out;
}
