/**
 * Route schemas of GET /search/organization and its facets, facets/{facetName},
 * facets/maxpages, sortcriteria and suggest (ddb-openapi-6.8.yml and -2.6.1.yml, tag
 * search/organization). The files give every answer as `200-jsononly`; the shapes are
 * those of the person search's family (docs/search.md "Organizations").
 */
import { ORGANIZATION_FACETS } from '../search/organizationIndex.js';
import { keyQuery } from './schemas.js';
import { jsonErrors, SEARCH_LIMITS } from './searchSchemas.js';

const stringList = (description: string) => ({ type: 'array', items: { type: 'string' }, description });
const json = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
const notModified = { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' } as const;

/** Per-field parameters: a phrase the field must hold, as on /search/person. */
export const ORGANIZATION_FIELD_PARAMETERS = ['id', 'preferredName', 'state'] as const;

const NOT_KEPT =
  'The packages do not describe institutions by this: search preferredName, state, sector_fct, state_fct, count or id (docs/search.md "Organizations").';
/** The OpenAPI 6.8 parameters of /search/organization with no counterpart here: a 400 that says what to use. */
export const ORGANIZATION_PARAMETER_HINTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'variant_id',
      'thumbnail',
      'type',
      'label',
      'description',
      'subsector_fct',
      'topic_fct',
      'city_fct',
      'city_de_fct',
      'city_en_fct',
      'state_de_fct',
      'state_en_fct',
      'sublabel_fct',
      'variantName',
      'topic',
      'city',
      'city_de',
      'city_en',
      'state_de',
      'state_en',
      'sublabel',
      'revision_id',
      'dataset_id',
      'atoz',
      'subsector',
      'geocode',
      'geocode_0_coordinate',
      'geocode_1_coordinate',
      'location_display_name',
      'last_update',
    ].map((n) => [n, NOT_KEPT]),
  ),
  ...Object.fromEntries(
    ['01', '02', '03', '04', '05', '06', '07'].map((n) => [
      `count_sec_${n}`,
      'Counts per sector are not kept: count is the items the institution delivered, of its sectors (sector_fct).',
    ]),
  ),
  ddb_organization_id: "Use id=<DDB id>: an institution's id is its DDB id when its packages give one.",
  parent_id: 'Ask GET /institutions for the institutions under one another.',
  parent_organization_id: 'Ask GET /institutions for the institutions under one another.',
  suggest_field: 'Ask GET /search/organization/suggest?query=<prefix> for names that start with it.',
  wildcard_fulltext: 'Use wildcards in query itself, e.g. query=Staats*.',
  spell_check: 'There is no spelling correction for organizations: correctedQuery is always "".',
  sort_field: 'Use sort=RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>.',
};

const searchProperties = {
  query: { type: 'string', description: 'Lucene query over preferredName, state, sector_fct, state_fct, count and id; default *:*.' },
  defaultOperator: { type: 'string', enum: ['AND', 'OR'], description: 'What words without an operator between them mean; default AND.' },
  'facet.limit': { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxFacetLimit, default: SEARCH_LIMITS.defaultFacetLimit },
  minDocs: {
    type: 'integer',
    minimum: 0,
    maximum: 1_000_000_000,
    default: 0,
    description: 'List a facet value only when its count exceeds this.',
  },
  ...Object.fromEntries(
    ORGANIZATION_FACETS.map((f) => [
      f,
      stringList(`Keep organizations with this ${f} value; values of one facet are OR-ed, facets AND-ed.`),
    ]),
  ),
  ...Object.fromEntries(
    ORGANIZATION_FIELD_PARAMETERS.map((f) => [
      f,
      stringList(`Keep organizations whose ${f} holds this text as a phrase; repeat to require several.`),
    ]),
  ),
  count: stringList('Keep organizations that delivered exactly this many items (as query count:<n>).'),
  hasItems: {
    type: 'string',
    enum: ['true', 'false'],
    description: 'true: only organizations that delivered items (count ≥ 1); false: all.',
  },
} as const;

export const organizationSearchSchema = {
  summary: 'Search organizations: the institutions that delivered the stored items (ddb-openapi-6.8 getSearchOrganization)',
  querystring: {
    type: 'object',
    properties: {
      ...searchProperties,
      facet: stringList(`Facets to count, in this order; repeatable. One of ${ORGANIZATION_FACETS.join(', ')}.`),
      offset: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxOffset, default: 0 },
      rows: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxRows, default: SEARCH_LIMITS.defaultRows },
      sort: {
        type: 'string',
        description: 'RELEVANCE (default), ALPHA_ASC, ALPHA_DESC (by name), COUNT_DESC (by items) or RANDOM_<seed>; case-insensitive.',
      },
      cursorMark: { type: 'string', description: "Deep paging: '*' to start, then the nextCursorMark of the previous answer." },
      ...keyQuery,
    },
  },
  response: {
    200: json(
      'numberOfResults, results [{name: "single", docs, numberOfDocs}], facets (those asked, in the order asked), correctedQuery, highlightedTerms, randomSeed; nextCursorMark with cursorMark.',
    ),
    304: notModified,
    ...jsonErrors,
  },
} as const;

export const organizationFacetValuesSchema = {
  summary: 'The values of one organization facet with their counts (ddb-openapi-6.8 getSearchOrganizationFacetsFacetName)',
  params: {
    type: 'object',
    required: ['facetName'],
    properties: { facetName: { type: 'string', description: `One of ${ORGANIZATION_FACETS.join(', ')}.` } },
  },
  querystring: { type: 'object', properties: { ...searchProperties, ...keyQuery } },
  response: {
    200: json('{field, numberOfFacets, facetValues: [{count, value}]}, values by count descending (ties by value).'),
    304: notModified,
    ...jsonErrors,
  },
} as const;

export const organizationFacetsSchema = {
  summary: 'The facets of the organization search (ddb-openapi-6.8 getSearchOrganizationFacets)',
  querystring: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['search', 'extended', 'technical'], description: 'Only facets of this type; default all.' },
      ...keyQuery,
    },
  },
  response: { 200: json('[{name, type}]; both facets are SEARCH.'), 304: notModified, ...jsonErrors },
} as const;

export const organizationSortCriteriaSchema = {
  summary: 'The sorts of the organization search (ddb-openapi-6.8 getSearchOrganizationSortcriteria)',
  querystring: { type: 'object', properties: { ...keyQuery } },
  response: { 200: json('{sortCriteria: [...], defaultSortCriterion}'), 304: notModified, ...jsonErrors },
} as const;

export const organizationSuggestSchema = {
  summary: 'Organization names that start with a prefix (ddb-openapi-6.8 getSearchOrganizationSuggest)',
  querystring: {
    type: 'object',
    required: ['query'],
    properties: {
      query: { type: 'string', description: 'The prefix, matched case- and diacritic-insensitively against the whole name.' },
      rows: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMITS.maxSuggestions,
        default: SEARCH_LIMITS.defaultSuggestions,
        description: 'Suggestions at most.',
      },
      ...keyQuery,
    },
  },
  response: {
    200: json('An array of names as written, in alphabetical order of their folded form, one per folded form.'),
    304: notModified,
    ...jsonErrors,
  },
} as const;
