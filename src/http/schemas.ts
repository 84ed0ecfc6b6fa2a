/**
 * Route schemas. Fastify validates requests with them and @fastify/swagger
 * turns the same objects into /openapi.json, so the description cannot
 * drift from what is enforced.
 */

const errorBody = {
  type: 'object',
  description: 'decisions.md "Errors". As XML: the same children in <error xmlns="http://www.deutsche-digitale-bibliothek.de/error">.',
  required: ['status', 'name', 'message'],
  properties: {
    status: { type: 'integer' },
    name: { type: 'string', examples: ['ItemNotFoundException'] },
    message: { type: 'string' },
    requestId: { type: 'string', description: 'Only on 500.' },
  },
} as const;

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBody }, 'application/xml': { schema: errorBody } },
});

export const commonErrors = {
  400: errorResponse('Bad request: no Host header, a malformed Authorization header, an invalid id or parameter.'),
  401: errorResponse('No API key was sent. The response carries WWW-Authenticate: OAuth.'),
  403: errorResponse('The API key is unknown or revoked (or, for a package, the item is blocked).'),
  404: errorResponse('The item does not exist.'),
  406: errorResponse('The Accept header is missing or allows none of the offered types.'),
  429: errorResponse('Rate limit of the API key reached; see Retry-After.'),
  500: errorResponse('Internal failure, with a request id that is also in the log.'),
} as const;

/**
 * What any request may get before it reaches an operation (issue #13);
 * added to every operation of /openapi.json by ./routes/openapi.ts.
 */
export const requestErrors = {
  405: errorResponse('The method is not GET, HEAD or OPTIONS: every operation is read-only. Allow names the methods.'),
  414: errorResponse('The request URL is longer than http.maxUrlLength.'),
  431: errorResponse('The request line and headers together are too large.'),
} as const;

export const keyQuery = {
  oauth_consumer_key: { type: 'string', description: 'API key, instead of the Authorization header (spec section 5).' },
} as const;

export const itemParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', description: 'Item id, e.g. NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR.' } },
} as const;

const hierarchyNode = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    parent: { type: ['string', 'null'], description: 'null for the root' },
    label: { type: 'string' },
    type: { type: 'string', description: 'hierarchy type code htype_nnn' },
    position: { type: 'string', description: '"-1" when the item has no position' },
    leaf: { type: 'boolean' },
    aggregationEntity: { type: 'boolean', description: 'isAggregationEntity in XML' },
  },
} as const;

export const parentsSchema = {
  summary: 'Ancestors of an item, the item itself first (spec 4.3)',
  params: itemParams,
  querystring: { type: 'object', properties: keyQuery },
  response: {
    200: {
      description: 'The hierarchy (spec 2.3). Empty when the item has no parent.',
      content: {
        'application/json': {
          schema: { type: 'object', properties: { hierarchy: { type: 'array', items: hierarchyNode } } },
        },
        'application/xml': { schema: { type: 'string', description: '<hierarchy> of <ns2:hierarchy-node>' } },
      },
    },
    304: { description: 'Not modified (If-None-Match).', type: 'null' },
    ...commonErrors,
  },
} as const;

export const aipSchema = {
  summary: 'The archival information package of an item (spec 4.4)',
  params: itemParams,
  querystring: { type: 'object', properties: keyQuery },
  response: {
    200: {
      description: 'The package: cortex XML as stored, or its JSON form (spec 2.4, decisions.md "Item package").',
      content: {
        'application/json': { schema: { type: 'object', description: 'properties, edm, indexing-profile, preview, view, metadata-record, provider-info, binaries' } },
        'application/xml': { schema: { type: 'string', description: 'cortex document' } },
      },
    },
    304: { description: 'Not modified (If-None-Match / If-Modified-Since).', type: 'null' },
    ...commonErrors,
  },
} as const;

export const ENTITY_LIMITS = {
  defaultRows: 20,
  maxRows: 1000,
  defaultFacetLimit: 100,
  maxFacetLimit: 1000,
  maxQueryLength: 1000,
  maxOffset: 1_000_000,
} as const;

const facetNames = ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'];
const facetFilter = (name: string) => ({
  type: 'array',
  items: { type: 'string' },
  description: `Keep entities with this ${name} value; repeat for several values (OR-ed); different facets are AND-ed.`,
});

export const entitiesSchema = {
  summary: 'Search person entities (spec 4.2)',
  querystring: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Lucene syntax: terms, "phrases", field:value, AND/OR/NOT/+/-, (groups), wildcards, *:*, field:*, ranges. Default *:*.' },
      // No enum here: the route's own check names the facets in its message.
      facet: { type: 'array', items: { type: 'string' }, description: `Facets to return values for; repeatable. One of ${facetNames.join(', ')}.` },
      offset: { type: 'integer', minimum: 0, maximum: ENTITY_LIMITS.maxOffset, default: 0 },
      rows: { type: 'integer', minimum: 0, maximum: ENTITY_LIMITS.maxRows, default: ENTITY_LIMITS.defaultRows },
      sort: { type: 'string', description: 'RELEVANCE (default), ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>; case-insensitive.' },
      'facet.limit': { type: 'integer', minimum: 0, maximum: ENTITY_LIMITS.maxFacetLimit, default: ENTITY_LIMITS.defaultFacetLimit },
      minDocs: { type: 'integer', minimum: 0, default: 0, description: 'List a facet value only when its count exceeds this.' },
      cursorMark: { type: 'string', description: "Deep paging: '*' to start, then the nextCursorMark of the previous response." },
      person_name_fct: facetFilter('person_name_fct'),
      person_place_fct: facetFilter('person_place_fct'),
      person_gender_fct: facetFilter('person_gender_fct'),
      person_occupation_fct: facetFilter('person_occupation_fct'),
      ...keyQuery,
    },
  },
  response: {
    200: {
      description: 'Spec 2.1: numberOfResults, results[single], facets (all four, in order), correctedQuery, highlightedTerms, randomSeed; nextCursorMark with cursorMark.',
      content: { 'application/json': { schema: { type: 'object' } } },
    },
    400: commonErrors[400],
    401: commonErrors[401],
    403: { ...commonErrors[403], description: 'The API key is unknown or revoked.' },
    406: { ...commonErrors[406], description: 'The Accept header excludes application/json.' },
    429: commonErrors[429],
    500: commonErrors[500],
  },
} as const;
