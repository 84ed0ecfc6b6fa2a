/**
 * GET /search/organization as a request of the engine over the organization schema
 * (docs/search.md "Organizations"): the person search's parameters, with `hasItems`;
 * /search/organization/facets/{facetName} reads the same selection.
 */
import { and, type QueryNode } from '../../query/ast.js';
import type { SearchRequest, SearchSort } from '../../search/engine/types.js';
import { ORGANIZATION_FACETS, organizationSchema } from '../../search/organizationIndex.js';
import { ORGANIZATION_FIELD_PARAMETERS } from '../organizationSchemas.js';
import { SEARCH_LIMITS } from '../searchSchemas.js';
import { fieldClauses, type FieldParameter } from './fieldClauses.js';
import { parseFor, readOperator } from './parseQueryText.js';
import { one, type Query } from './queryParameters.js';
import { readFacets } from './readFacets.js';
import { readFilters } from './readFilters.js';
import { readPaging } from './readPaging.js';
import { ORGANIZATION_SORTS, readSort, type NamedSort } from './readSort.js';

const FACETS: readonly string[] = ORGANIZATION_FACETS;

/** Each per-field parameter a phrase on its field, an id a term, `count` a number. */
const FIELD_PARAMETERS: Record<string, FieldParameter> = {
  ...Object.fromEntries(ORGANIZATION_FIELD_PARAMETERS.map((field) => [field, { field, as: field === 'id' ? 'term' : 'phrase' }])),
  count: { field: 'count', as: 'number' },
};

/** What the sorts mean for organizations: ALPHA_* by name, COUNT_DESC by the items they delivered. */
function organizationSort(sort: NamedSort): SearchSort {
  switch (sort.kind) {
    case 'alpha':
      return { kind: 'key', key: 'preferredName', descending: sort.descending };
    case 'count':
      return { kind: 'key', key: 'count', descending: true };
    case 'random':
      return { kind: 'random', seed: sort.seed };
    case 'relevance':
      return { kind: 'relevance' };
  }
}

/** The query, the per-field parameters and hasItems as one query; the facet filters. */
export function organizationSelection(q: Query): Pick<SearchRequest, 'query' | 'filters'> {
  const operator = readOperator(q, 'defaultOperator');
  const clauses: QueryNode<string>[] = [
    parseFor(organizationSchema, one(q, 'query'), SEARCH_LIMITS.maxQueryLength, operator),
    ...fieldClauses(q, FIELD_PARAMETERS, SEARCH_LIMITS.maxQueryLength),
  ];
  if (one(q, 'hasItems') === 'true')
    clauses.push({ kind: 'range', field: 'count', lower: '1', upper: null, includeLower: true, includeUpper: true });
  const filters = readFilters(q, { facets: FACETS, listedBy: (f) => `/search/organization/facets/${f}` });
  return { query: and(clauses), filters };
}

/** The facets `names` with the request's facet.limit and minDocs. */
export function organizationFacets(q: Query, names?: readonly string[]) {
  return readFacets(
    q,
    {
      facets: FACETS,
      defaultLimit: SEARCH_LIMITS.defaultFacetLimit,
      unknown: (f) => `'${f.slice(0, 40)}' is not a facet of the organization search. Facets: ${FACETS.join(', ')}.`,
    },
    names,
  );
}

export function toOrganizationSearch(q: Query): { request: SearchRequest; randomSeed: string } {
  const paging = readPaging(q, { offset: 'offset', defaultRows: SEARCH_LIMITS.defaultRows });
  const { sort, seed } = readSort(one(q, 'sort'), ORGANIZATION_SORTS, ORGANIZATION_SORTS.sortCriteria.join(', '));
  const request: SearchRequest = { ...organizationSelection(q), facets: organizationFacets(q), sort: organizationSort(sort), ...paging };
  return { request, randomSeed: seed };
}
