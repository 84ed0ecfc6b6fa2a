/**
 * What an entity search asks and answers, independent of HTTP and of the
 * backend (spec 2.1, 2.2, 4.2; docs/decisions.md "Entity search").
 */
import type { ErrorCode } from '../errorCodes.js';
import { PERSON_FACETS, type PersonFacetName } from '../domain/personFacets.js';
import type { QueryNode } from '../query/ast.js';

/** Facet names in the order every response lists them (spec 2.2). */
export const FACETS = PERSON_FACETS;
export type FacetName = PersonFacetName;

export type EntitySort =
  { kind: 'relevance' } | { kind: 'alpha'; descending: boolean } | { kind: 'count' } | { kind: 'random'; seed: string };

export interface EntitySearch {
  query: QueryNode;
  /** Facet filters: values of one facet are OR-ed, facets AND-ed. */
  filters: ReadonlyMap<FacetName, readonly string[]>;
  /** Facets whose values are wanted. */
  facets: readonly FacetName[];
  facetLimit: number;
  /** A facet value is listed only when its count exceeds this. */
  minDocs: number;
  sort: EntitySort;
  offset: number;
  rows: number;
  /** `*` to start deep paging, or a nextCursorMark; undefined for offset paging. */
  cursorMark: string | undefined;
  /** The main query as sent, for "did you mean" (docs/search-engine.md "Spellcheck"); absent: no correction. */
  queryText?: string;
  /** Identifies query, filters and sort, so a cursor is not reused for another search. */
  fingerprint: string;
}

export interface FacetResult {
  field: FacetName;
  values: Array<{ value: string; count: number }>;
}

export interface EntitySearchResult {
  total: number;
  /** The documents of the page, as JSON text in spec 2.1 order (count included). */
  docs: string[];
  facets: FacetResult[];
  /** Terms of the query that matched (docs/decisions.md "correctedQuery, highlightedTerms, randomSeed"). */
  highlightedTerms: string[];
  /** The query with its misspelt terms corrected, "" when no correction was made (spec 2.1). */
  correctedQuery: string;
  nextCursorMark: string | undefined;
}

/** Thrown by a backend for a search it cannot answer as asked (a 400 with this message). */
export class SearchRequestError extends Error {
  readonly code = 'search.request' satisfies ErrorCode;
}
