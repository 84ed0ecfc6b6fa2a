/**
 * Route schemas of /search/facets/{facetName}, /search/person/facets/{facetName} (also
 * /entities/facets/{facetName}) and the `facets/maxpages` of both (ddb-openapi-6.8.yml
 * getSearchFacetsFacetName, getSearchFacetsMaxpage, getSearchPersonFacetsFacetName,
 * getSearchPersonFacetsMaxpages; 2.6.1 the same and the /entities aliases). The OpenAPI
 * files give every answer as `200-jsononly` (an object, no fields named): the shapes are
 * ours, written in docs/search.md "Facet values" and "Maximum pages".
 */
import { ITEM_FACETS } from '../domain/itemFacets.js';
import { entitiesSchema, ENTITY_PARAMETER_HINTS, keyQuery } from './schemas.js';
import { GEO_PARAMETERS, ITEM_FIELD_PARAMETERS, jsonErrors, SEARCH_LIMITS, SEARCH_PARAMETER_HINTS } from './searchSchemas.js';

const stringList = (description: string) => ({ type: 'array', items: { type: 'string' }, description });
const json = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
const notModified = { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' } as const;

/**
 * Parameters the OpenAPI files inherit from the search into these operations that page or
 * order hits, which a list of facet values has none of: a 400 that says what to use.
 */
const PAGING_HINTS: Readonly<Record<string, string>> = {
  offset: 'A facet lists its values whole, by count: limit them with facet.limit and minDocs (GET /search pages the hits).',
  rows: 'A facet lists its values, not hits: limit them with facet.limit and minDocs (GET /search returns the hits).',
  sort: 'Facet values come by count descending, ties by value; GET /search sorts the hits.',
  cursorMark: 'A facet lists its values whole, by count: limit them with facet.limit and minDocs (GET /search pages the hits by cursor).',
  facet:
    'The facet is the one the path names (/search/facets/<name>): ask once per facet, or GET /search?facet=<a>&facet=<b>&rows=0 for several at once.',
  afterId: 'A facet lists its values, not hits: JSON Lines of every hit come from GET /search with Accept: application/x-ndjson.',
};

export const ITEM_FACET_VALUE_HINTS: Readonly<Record<string, string>> = { ...SEARCH_PARAMETER_HINTS, ...PAGING_HINTS };
export const PERSON_FACET_VALUE_HINTS: Readonly<Record<string, string>> = { ...ENTITY_PARAMETER_HINTS, ...PAGING_HINTS };

const facetName = (facets: readonly string[]) => ({
  type: 'object',
  required: ['facetName'],
  // No enum: the route's own check names the facets in its message.
  properties: { facetName: { type: 'string', description: `One of ${facets.join(', ')}.` } },
});

const facetAnswer = json(
  '{field, numberOfFacets, facetValues: [{count, value}]}: the facet entry of a search answer, values by count descending (ties by value), over the hits of the query and filters.',
);

export const itemFacetValuesSchema = {
  summary: 'The values of one item facet with their counts (ddb-openapi-6.8 getSearchFacetsFacetName)',
  params: facetName(ITEM_FACETS),
  querystring: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'Lucene query over the item fields (docs/search.md); the values are counted over its hits. Default *:*.',
      },
      defaultOperator: {
        type: 'string',
        enum: ['AND', 'OR'],
        description: 'What words without an operator between them mean; default AND.',
      },
      'facet.limit': { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxFacetLimit, default: SEARCH_LIMITS.defaultFacetLimit },
      minDocs: {
        type: 'integer',
        minimum: 0,
        maximum: 1_000_000_000,
        default: 0,
        description: 'List a value only when its count exceeds this.',
      },
      ...Object.fromEntries(
        ITEM_FACETS.map((f) => [f, stringList(`Count over the items with this ${f} value; values of one facet are OR-ed, facets AND-ed.`)]),
      ),
      ...Object.fromEntries(
        ITEM_FIELD_PARAMETERS.map((f) => [f, stringList(`Count over the items whose ${f} holds this text as a phrase.`)]),
      ),
      ...GEO_PARAMETERS,
      ...keyQuery,
    },
  },
  response: { 200: facetAnswer, 304: notModified, ...jsonErrors },
} as const;

const {
  offset: _o,
  rows: _r,
  sort: _s,
  cursorMark: _c,
  afterId: _a,
  facet: _f,
  ...personProperties
} = entitiesSchema.querystring.properties;

export const personFacetValuesSchema = {
  summary:
    'The values of one person facet with their counts (ddb-openapi-6.8 getSearchPersonFacetsFacetName; 2.6.1 /entities/facets/{facetName})',
  params: facetName(['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct']),
  querystring: { type: 'object', properties: personProperties },
  response: { 200: facetAnswer, 304: notModified, ...jsonErrors },
} as const;

export const maxPagesSchema = (kind: 'item' | 'person' | 'organization') => ({
  summary: `The number of result pages offset paging reaches (ddb-openapi-6.8 ${kind === 'item' ? 'getSearchFacetsMaxpage' : kind === 'person' ? 'getSearchPersonFacetsMaxpages' : 'getSearchOrganizationFacetsMaxpages'}; deprecated there)`,
  querystring: { type: 'object', properties: { ...keyQuery } },
  response: {
    200: json(
      '{maxPages, rows, maxOffset}: with rows hits a page (the default), the pages up to offset maxOffset; cursorMark pages further.',
    ),
    304: notModified,
    ...jsonErrors,
  },
});
