/**
 * A relevance page whose total is not asked (SearchRequest.count false; docs/search-engine.md
 * "Uncounted pages"): the item page's similar items show six hits of an OR of up to 25 words
 * and no count. Such a page of an OR of words, alone or AND NOT other clauses, is found
 * without making the OR's hits: topScores.ts visits the windows by their bounds and reads
 * each window's hits from the words' lists, as it does for a kept word. Making the union of
 * the lists (tens of thousands of hits) was half the cost of that search.
 */
import { or, type QueryNode } from '../../query/ast.js';
import type { Deadline } from './errors.js';
import { Evaluator, type ExpansionLimits } from './evaluate.js';
import { lowerBound } from './postings.js';
import type { SearchIndex } from './SearchIndex.js';
import type { OrdinalRange } from './shards.js';
import type { ListHits, TopQuery } from './topScores.js';
import type { SearchRequest } from './types.js';

/**
 * The hits of `req`'s OR left unmade, when its total is not asked and nothing else needs
 * them (no facets, filters, shapes, spellcheck or cursor); undefined otherwise, or when a word
 * of the OR has no term of its own in the index (its forms alone, or none: evaluated whole).
 * The NOT clauses are evaluated (in `range` when given), and `keep` passes what they leave.
 */
export function uncountedHits(
  ix: SearchIndex,
  req: SearchRequest,
  top: TopQuery | undefined,
  clock: Deadline,
  limits: ExpansionLimits | undefined,
  range?: OrdinalRange,
): ListHits | undefined {
  if (req.count !== false || top === undefined) return undefined;
  if ((req.facets?.length ?? 0) > 0 || req.spellcheck !== undefined || req.cursor !== undefined) return undefined;
  // any filter, an empty or unknown one too: the counted search decides what it means
  if ((req.geo?.length ?? 0) > 0 || Object.keys(req.filters ?? {}).length > 0) return undefined;
  let positive: QueryNode<string> = req.query;
  const nots: QueryNode<string>[] = [];
  if (positive.kind === 'and' && positive.should === undefined) {
    const rest = positive.children.filter((c) => c.kind !== 'not');
    if (rest.length !== 1) return undefined;
    for (const c of positive.children) if (c.kind === 'not') nots.push(c.child);
    positive = rest[0]!;
  }
  // the hits of a word or an OR are its lists' postings; an AND's are not
  if (positive.kind !== 'term' && positive.kind !== 'or') return undefined;
  if (!top.words.every((leaves) => leaves.length > 0 && !leaves[0]!.half)) return undefined;
  if (nots.length === 0) return { unmade: true, keep: () => true };
  const out = new Evaluator(ix, false, clock, limits, range).evaluate(or(nots)).docs;
  return { unmade: true, keep: (d) => out[lowerBound(out, out.length, d)] !== d };
}
