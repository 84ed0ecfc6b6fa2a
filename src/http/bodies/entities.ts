/**
 * The JSON body of GET /entities, spec 2.1 and 2.2, key order as there.
 * Documents arrive already serialised (the store keeps them as JSON text),
 * so the body is assembled around them instead of parsing them again.
 */
import { FACETS, type EntitySearchResult } from '../../search/entitySearch.js';

export function entitiesToJson(result: EntitySearchResult, randomSeed: string): string {
  const facets = FACETS.map((field) => {
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
