/**
 * How alike a reconciliation query's name and an entity's name are (docs/reconciliation.md
 * "Scoring"): 1 for the same words in any order ("Goethe, Johann Wolfgang von" and "Johann
 * Wolfgang von Goethe"), less for each edit a typo needs, 0 for nothing in common. Names are
 * compared folded (case and diacritics left out, as the search does: src/search/engine/fold.ts).
 */
import { tokens } from '../../search/engine/fold.js';

/**
 * Optimal string alignment distance: Levenshtein with the swap of two neighbouring
 * characters as one edit (the distance the search's spellcheck counts).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** 1 − edits / length of the longer: 1 for equal strings, 0 for nothing alike. */
function stringSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

/**
 * The words of a name that count: folded; without numbers for a person (a life date beside
 * the name is not part of it), with them for a title ("Combat (1961)").
 */
export function nameWords(name: string, numbers = false): string[] {
  return numbers ? tokens(name) : tokens(name).filter((t) => !/^\d+$/.test(t));
}

/**
 * Each word of the shorter list paired with its closest word of the other, each used once,
 * the similarities summed over the word count of the longer list: a word missing on either
 * side costs as much as a word wholly wrong.
 */
function wordSimilarity(a: readonly string[], b: readonly string[]): number {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const used = new Set<number>();
  let sum = 0;
  for (const word of short) {
    let best = -1;
    let bestSimilarity = 0;
    long.forEach((other, i) => {
      if (used.has(i)) return;
      const s = stringSimilarity(word, other);
      if (s > bestSimilarity) [best, bestSimilarity] = [i, s];
    });
    if (best >= 0) {
      used.add(best);
      sum += bestSimilarity;
    }
  }
  return long.length === 0 ? 0 : sum / long.length;
}

/** Similarity of two names in [0, 1]: the best of the words in order, the words sorted, and word by word. */
export function nameSimilarity(query: readonly string[], name: string, numbers = false): number {
  const words = nameWords(name, numbers);
  if (query.length === 0 || words.length === 0) return 0;
  const sorted = (list: readonly string[]) => [...list].sort().join(' ');
  if (sorted(query) === sorted(words)) return 1;
  return Math.max(
    stringSimilarity(query.join(' '), words.join(' ')),
    stringSimilarity(sorted(query), sorted(words)),
    wordSimilarity(query, words),
  );
}

/** The same words, in any order: what "exact" means for a name (docs/reconciliation.md "Scoring"). */
export function sameName(query: readonly string[], name: string, numbers = false): boolean {
  const words = nameWords(name, numbers);
  return query.length > 0 && [...query].sort().join(' ') === words.sort().join(' ');
}
