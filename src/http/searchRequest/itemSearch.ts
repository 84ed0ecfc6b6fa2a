/**
 * v1 GET /search as a request of the engine (docs/search.md): the query with the per-field
 * parameters, the facet filters, the facets, the sort and the page; and the persons shown
 * beside the items (`entities`). /search/facets/{facetName} reads the same parameters.
 */
import { and } from '../../query/ast.js';
import { ITEM_FACETS } from '../../domain/itemFacets.js';
import { canonicalLicense } from '../../domain/licenseGroups.js';
import type { SearchRequest, SearchSort } from '../../search/engine/types.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { personNamesQuery, withLinkedPersons } from '../../search/schemas/linkedPersons.js';
import { ITEM_FIELD_PARAMETERS, SEARCH_LIMITS } from '../searchSchemas.js';
import { fieldClauses, type FieldParameter } from './fieldClauses.js';
import { parseFor, readOperator } from './parseQueryText.js';
import { list, one, type Query } from './queryParameters.js';
import { COORDINATE_PARAMETERS, readCoordinateRange, readGeocode } from './readGeo.js';
import { readFacets } from './readFacets.js';
import { readFilters } from './readFilters.js';
import { readPaging } from './readPaging.js';
import { ITEM_SORTS, readSort, type NamedSort } from './readSort.js';

/** Each per-field parameter a phrase on its field, an id a term. */
const FIELD_PARAMETERS: Record<string, FieldParameter> = Object.fromEntries(
  ITEM_FIELD_PARAMETERS.map((field) => [field, { field, as: field === 'id' ? 'term' : 'phrase' }]),
);

/** What the item sorts mean in the item index: ALPHA_* by title. */
function itemSort(sort: NamedSort): SearchSort {
  switch (sort.kind) {
    case 'alpha':
      return { kind: 'key', key: 'title', descending: sort.descending };
    case 'random':
      return { kind: 'random', seed: sort.seed };
    default:
      return { kind: 'relevance' };
  }
}

export interface ItemSearch {
  request: SearchRequest;
  /** The persons shown beside the items (`entities`), and whose linked items the search finds too. */
  persons: SearchRequest | undefined;
  randomSeed: string;
  /**
   * `request` with the items linked to these persons found too (the query's free part OR
   * their GND URIs in `affiliate_fct_normdata`: src/search/schemas/linkedPersons.ts;
   * docs/search.md "Names across languages and scripts").
   */
  linkedTo(personIds: readonly string[]): SearchRequest;
}

export function toItemSearch(q: Query): ItemSearch {
  const operator = readOperator(q, 'defaultOperator');
  const text = one(q, 'query');
  const main = parseFor(itemSchema, text, SEARCH_LIMITS.maxQueryLength, operator);
  // docs/search.md "Geography": boxes, points and circles on geocode; ranges on its coordinates
  const coordinates = COORDINATE_PARAMETERS.flatMap((name) => list(q[name]).map((v) => readCoordinateRange(name, v)));
  const geo = list(q['geocode']).map((v) => readGeocode(v).shape);
  const clauses = [...fieldClauses(q, FIELD_PARAMETERS, SEARCH_LIMITS.maxQueryLength), ...coordinates];
  const query = and([main, ...clauses]);
  const facets = readFacets(q, {
    facets: ITEM_FACETS,
    defaultLimit: SEARCH_LIMITS.defaultFacetLimit,
    unknown: (f) => `facet '${f.slice(0, 40)}' is not a facet of this index. Facets: ${ITEM_FACETS.join(', ')}.`,
  });
  const paging = readPaging(q, { offset: 'offset', defaultRows: SEARCH_LIMITS.defaultRows });
  const { sort, seed } = readSort(one(q, 'sort'), ITEM_SORTS);
  const filters = readFilters(q, {
    // geocode is read as a shape (readGeo.ts), not as a facet value
    facets: ITEM_FACETS.filter((f) => f !== 'geocode'),
    listedBy: (f) => `facet=${f}`,
    // a licence URI in any spelling finds the items of its facet value (docs/search.md "Licences")
    normalise: (f, v) => (f === 'license' ? canonicalLicense(v) : v),
  });
  const request: SearchRequest = { query, filters, facets, sort: itemSort(sort), ...paging };
  if (geo.length > 0) request.geo = geo;
  // Did you mean (docs/search-engine.md "Spellcheck"): the API's default minHits is 1.
  if (text !== undefined && text.trim() !== '') request.spellcheck = { minHits: 1, text };
  const names = personNamesQuery(main);
  const persons: SearchRequest | undefined = names && {
    query: names,
    sort: { kind: 'relevance' },
    offset: 0,
    rows: SEARCH_LIMITS.entities,
  };
  const linkedTo = (personIds: readonly string[]): SearchRequest =>
    personIds.length === 0 ? request : { ...request, query: and([withLinkedPersons(main, personIds), ...clauses]) };
  return { request, persons, randomSeed: seed, linkedTo };
}
