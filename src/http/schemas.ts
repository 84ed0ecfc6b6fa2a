/**
 * Route schemas. Fastify validates requests with them and @fastify/swagger
 * turns the same objects into /openapi.json, so the description cannot
 * drift from what is enforced.
 */

const errorBody = {
  type: 'object',
  description:
    'The error: its HTTP status, the exception name and a message that says what to fix (requestId only on a 500). As XML: the same children in <error xmlns="http://www.deutsche-digitale-bibliothek.de/error">.',
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
 * What any request may get before it reaches an operation (docs/errors.md
 * "Order of checks");
 * added to every operation of /openapi.json by ./routes/openapi.ts.
 */
export const requestErrors = {
  405: errorResponse('The method is not GET, HEAD or OPTIONS: every operation is read-only. Allow names the methods.'),
  414: errorResponse('The request URL is longer than http.maxUrlLength.'),
  431: errorResponse('The request line and headers together are too large.'),
} as const;

export const keyQuery = {
  oauth_consumer_key: { type: 'string', description: 'API key, instead of the Authorization header.' },
} as const;

/**
 * `lang`, which the DDB's clients send with the item operations (the `ddb` command's
 * `item --lang`): the label language of the view. Accepted on every item operation.
 */
export const langQuery = {
  lang: {
    type: 'string',
    pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
    description:
      'Label language of the parts, a language tag (de, en, en-GB). The view answers its field labels in English for en, else in German as delivered; values are never translated. The other parts, and the package, have no labels and are the same in every language.',
  },
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
  summary: 'Ancestors of an item, the item itself first',
  params: itemParams,
  querystring: { type: 'object', properties: keyQuery },
  response: {
    200: {
      description: 'The hierarchy, the item itself first, its root last. Empty when the item has no parent.',
      content: {
        'application/json': {
          schema: { type: 'object', properties: { hierarchy: { type: 'array', items: hierarchyNode } } },
        },
        'application/xml': { schema: { type: 'string', description: '<hierarchy> of <ns2:hierarchy-node>' } },
      },
    },
    304: { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' },
    ...commonErrors,
  },
} as const;

export const aipSchema = {
  summary: 'The archival information package of an item',
  params: itemParams,
  querystring: { type: 'object', properties: { ...langQuery, ...keyQuery } },
  response: {
    200: {
      description: 'The package: the cortex XML document as stored, or its JSON form.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            description: 'properties, edm, indexing-profile, preview, view, metadata-record, provider-info, binaries',
          },
        },
        'application/xml': { schema: { type: 'string', description: 'cortex document' } },
      },
    },
    304: { description: 'Not modified (If-None-Match / If-Modified-Since).', type: 'null' },
    ...commonErrors,
  },
} as const;

/** GET /items/{id}: the package as /aip gives it, or the item's EDM graph in an RDF syntax (docs/linked-data.md). */
export const itemSchema = {
  ...aipSchema,
  summary:
    'The archival information package of an item, at the path of the newer generation of the DDB API; or its EDM graph as linked data',
  response: {
    ...aipSchema.response,
    200: {
      description:
        'The package, as /items/{id}/aip gives it; or, by Accept, the EDM graph of the package (the rdf:RDF of its edm part) as JSON-LD, Turtle, N-Triples or RDF/XML (docs/linked-data.md).',
      content: {
        ...aipSchema.response[200].content,
        'application/ld+json': { schema: { type: 'object', description: 'The EDM graph as JSON-LD 1.1.' } },
        'text/turtle': { schema: { type: 'string', description: 'The EDM graph as Turtle.' } },
        'application/n-triples': { schema: { type: 'string', description: 'The EDM graph as N-Triples.' } },
        'application/rdf+xml': {
          schema: { type: 'string', description: 'The EDM graph as stored: RDF/XML, as /items/{id}/edm serves it.' },
        },
      },
    },
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

/**
 * The per-field parameters of the DDB API 2.6.1's /search/person (= /entities), which
 * work here as filters on the query field named (docs/decisions.md "Person facets"): `preferredName=Goethe`
 * keeps what `query=… AND preferredName:"Goethe"` finds. Repeated, each value must match.
 */
export const ENTITY_FIELD_PARAMETERS = {
  id: 'id',
  preferredName: 'preferredName',
  variantName: 'variantName',
  professionOrOccupation: 'professionOrOccupation',
  placeOfBirth: 'placeOfBirth',
  placeOfDeath: 'placeOfDeath',
  type: 'type',
  count: 'count',
  dateOfBirth_de: 'dateOfBirth',
  dateOfDeath_de: 'dateOfDeath',
} as const;

const fieldFilters = Object.fromEntries(
  Object.entries(ENTITY_FIELD_PARAMETERS).map(([name, field]) => [
    name,
    {
      type: 'array',
      items: { type: 'string' },
      description:
        field === 'count'
          ? 'Keep entities referred to by exactly this many items (as query count:<n>).'
          : `Keep entities whose ${field} holds this text as a phrase (as query ${field}:"<text>"); repeat to require several.`,
    },
  ]),
);

/**
 * Parameters of 2.6.1's /search/person that have no counterpart here: a 400
 * saying what to use instead (src/http/queryChecks.ts), never silently ignored.
 */
const SECTOR_COUNTS =
  'Counts per sector are not kept: count (the items of any sector that refer to the person) is, e.g. count=3 or query=count:[1 TO *].';
export const ENTITY_PARAMETER_HINTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(['01', '02', '03', '04', '05', '06', '07'].map((n) => [`count_sec_${n}`, SECTOR_COUNTS])),
  dateOfBirth_en:
    'Dates are kept in the German form of the GND (28. August 1749): use dateOfBirth_de=<date>, or query=dateOfBirth:[1749 TO 1749] for a year.',
  dateOfDeath_en:
    'Dates are kept in the German form of the GND (22. März 1832): use dateOfDeath_de=<date>, or query=dateOfDeath:[1832 TO 1832] for a year.',
  variant_id: 'Only the preferred id of a person is kept: use id=<GND URI> (http and https forms are the same).',
  thumbnail: 'Thumbnails are not searchable; they are part of the entity documents returned.',
  suggest_field: 'There is no suggestion here: search with query=<words> or a prefix, e.g. query=Goeth*.',
  wildcard_fulltext: 'Use wildcards in query itself, e.g. query=Goeth* or query=preferredName:Go?the.',
  last_update: 'The date of the last change of a person is not kept; GET /status says when persons were last loaded.',
  spell_check: 'Spelling corrections come back in correctedQuery: the query with its misspelt terms corrected, when that finds more.',
  sort_field: 'Use sort=RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>.',
};

export const entitiesSchema = {
  summary: 'Search person entities',
  querystring: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description:
          'Lucene syntax: terms, "phrases", field:value, AND/OR/NOT/+/-, (groups), wildcards, *:*, field:*, ranges. Default *:*.',
      },
      // No enum here: the route's own check names the facets in its message.
      facet: {
        type: 'array',
        items: { type: 'string' },
        description: `Facets to return values for; repeatable. One of ${facetNames.join(', ')}.`,
      },
      offset: { type: 'integer', minimum: 0, maximum: ENTITY_LIMITS.maxOffset, default: 0 },
      rows: { type: 'integer', minimum: 0, maximum: ENTITY_LIMITS.maxRows, default: ENTITY_LIMITS.defaultRows },
      sort: { type: 'string', description: 'RELEVANCE (default), ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>; case-insensitive.' },
      'facet.limit': { type: 'integer', minimum: 0, maximum: ENTITY_LIMITS.maxFacetLimit, default: ENTITY_LIMITS.defaultFacetLimit },
      minDocs: { type: 'integer', minimum: 0, default: 0, description: 'List a facet value only when its count exceeds this.' },
      cursorMark: { type: 'string', description: "Deep paging: '*' to start, then the nextCursorMark of the previous response." },
      afterId: {
        type: 'string',
        description:
          'With Accept: application/x-ndjson (every hit as JSON Lines, in id order): resume after this id, the last line you have.',
      },
      person_name_fct: facetFilter('person_name_fct'),
      person_place_fct: facetFilter('person_place_fct'),
      person_gender_fct: facetFilter('person_gender_fct'),
      person_occupation_fct: facetFilter('person_occupation_fct'),
      ...fieldFilters,
      ...keyQuery,
    },
  },
  response: {
    200: {
      description:
        'Spec 2.1: numberOfResults, results[single], facets (all four, in order), correctedQuery, highlightedTerms, randomSeed; nextCursorMark with cursorMark.',
      content: { 'application/json': { schema: { type: 'object' } } },
    },
    304: { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' },
    400: commonErrors[400],
    401: commonErrors[401],
    403: { ...commonErrors[403], description: 'The API key is unknown or revoked.' },
    406: { ...commonErrors[406], description: 'The Accept header excludes application/json.' },
    429: commonErrors[429],
    500: commonErrors[500],
  },
} as const;
