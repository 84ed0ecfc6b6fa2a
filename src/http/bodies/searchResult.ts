/**
 * The JSON body of v1 GET /search (ddb-openapi-6.8 getSearch; the DDB's documentation of
 * the method "search"), in the key order of the real answer and of /entities (spec 2.1):
 * numberOfResults, results [{name: "single", docs, numberOfDocs}], facets, entities,
 * correctedQuery, highlightedTerms, randomSeed, then nextCursorMark when paging by cursor.
 * Documents arrive as JSON text (EngineAnswer.docs), so the body is assembled around them.
 */
import type { FacetCounts } from '../../search/engine/types.js';

export interface SearchBody {
  total: number;
  docs: readonly string[];
  /** The facets asked for, in the order asked. */
  facets: readonly FacetCounts[];
  /** Person documents (JSON text), as /entities shows them. */
  entities: readonly string[];
  correctedQuery: string;
  highlightedTerms: readonly string[];
  randomSeed: string;
  nextCursorMark?: string;
}

export function searchResultToJson(b: SearchBody): string {
  const facets = b.facets.map((f) => ({
    field: f.field,
    numberOfFacets: f.values.length,
    facetValues: f.values.map((v) => ({ count: v.count, value: v.value })),
  }));
  const tail: Record<string, unknown> = {
    correctedQuery: b.correctedQuery,
    highlightedTerms: b.highlightedTerms,
    randomSeed: b.randomSeed,
  };
  if (b.nextCursorMark !== undefined) tail.nextCursorMark = b.nextCursorMark;
  return (
    `{"numberOfResults":${b.total},"results":[{"name":"single","docs":[${b.docs.join(',')}],"numberOfDocs":${b.total}}],` +
    `"facets":${JSON.stringify(facets)},"entities":[${b.entities.join(',')}],${JSON.stringify(tail).slice(1)}`
  );
}
