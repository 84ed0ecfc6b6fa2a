/**
 * The facets a v1 search counts (docs/search.md "Facets"): `facet` (repeatable) names them,
 * `facet.limit` caps the values of each, and a value is listed when its count exceeds
 * `minDocs`. Each facet once, in the order first named, by count descending.
 */
import { ApiError } from '../../errors.js';
import type { FacetRequest } from '../../search/engine/types.js';
import { list, one, type Query } from './queryParameters.js';

export interface FacetDialect {
  /** The facets of the index. */
  facets: readonly string[];
  /** `facet.limit` when the request names none. */
  defaultLimit: number;
  /** The message for a name that is no facet of the index. */
  unknown: (name: string) => string;
}

/** The facets named by `names` (default: the `facet` parameters). */
export function readFacets(q: Query, dialect: FacetDialect, names: readonly string[] = list(q.facet)): FacetRequest[] {
  const wanted = [...new Set(names)];
  for (const f of wanted) if (!dialect.facets.includes(f)) throw ApiError.of('invalidSearch', dialect.unknown(f));
  const limit = Number(one(q, 'facet.limit') ?? dialect.defaultLimit);
  // minDocs: a value is listed when its count exceeds it (the engine's mincount is "at least").
  const mincount = Number(one(q, 'minDocs') ?? 0) + 1;
  return wanted.map((field) => ({ field, limit, mincount, sort: 'count' }));
}
