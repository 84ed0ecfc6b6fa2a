/**
 * The JSON body of GET /search/person and /entities, spec 2.1 and 2.2, key order as there:
 * every person facet, in order, whether asked for or not. Documents arrive already
 * serialised (the store keeps them as JSON text), so the body is assembled around them
 * instead of parsing them again.
 */
import { PERSON_FACETS } from '../../domain/personFacets.js';
import type { FacetCounts } from '../../search/engine/types.js';

/** What a person search answers (../searchRequest/personSearch.ts personResult). */
export interface EntitiesResult {
  total: number;
  /** The documents of the page, as JSON text in spec 2.1 order (count included). */
  docs: readonly string[];
  facets: readonly FacetCounts[];
  /** Terms of the query that matched (docs/decisions.md "correctedQuery, highlightedTerms, randomSeed"). */
  highlightedTerms: readonly string[];
  /** The query with its misspelt terms corrected, "" when no correction was made (spec 2.1). */
  correctedQuery: string;
  /** With cursorMark: the mark of the next page (the same mark once the end is reached). */
  nextCursorMark: string | undefined;
}

export function entitiesToJson(result: EntitiesResult, randomSeed: string): string {
  const facets = PERSON_FACETS.map((field) => {
    const values = result.facets.find((f) => f.field === field)?.values ?? [];
    return { field, numberOfFacets: values.length, facetValues: values.map((v) => ({ count: v.count, value: v.value })) };
  });
  const tail: Record<string, unknown> = { correctedQuery: result.correctedQuery, highlightedTerms: result.highlightedTerms, randomSeed };
  if (result.nextCursorMark !== undefined) tail.nextCursorMark = result.nextCursorMark;
  return (
    `{"numberOfResults":${result.total},"results":[{"name":"single","docs":[${result.docs.join(',')}],"numberOfDocs":${result.total}}],` +
    `"facets":${JSON.stringify(facets)},${JSON.stringify(tail).slice(1)}`
  );
}
