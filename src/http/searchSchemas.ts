/**
 * Route schemas of the item search family (docs/search.md; ddb-openapi-6.8.yml and
 * -2.6.1.yml, tags search and search/person): v1 /search, the Solr-native
 * /search/index/{index}/select, /search/facets, /search/sortcriteria, /search/suggest and
 * their /search/person forms. docs/search.md describes the fields, facets and sorts.
 */
import { ITEM_FACETS } from '../domain/itemFacets.js';
import { commonErrors, ENTITY_LIMITS, keyQuery } from './schemas.js';
import { EDISMAX_UNSUPPORTED } from './searchRequest/readEdismax.js';
import { REFUSED_PARAMETER } from './queryChecks.js';

export const SEARCH_LIMITS = {
  defaultRows: 20,
  maxRows: 1000,
  defaultFacetLimit: 100,
  maxFacetLimit: 1000,
  maxQueryLength: 1000,
  maxOffset: 1_000_000,
  /** Persons shown beside the items of v1 /search (`entities`). */
  entities: 10,
  defaultSuggestions: 10,
  maxSuggestions: 100,
  /** Solr's own default of rows. */
  solrDefaultRows: 10,
  maxFilters: 50,
} as const;

/**
 * Parameters of v1 /search that name a text field of the index: each value keeps the
 * items whose field holds it as a phrase (as `query=… AND title:"…"`), like the
 * per-field parameters of /entities.
 */
export const ITEM_FIELD_PARAMETERS = ['id', 'title', 'description', 'keywords', 'affiliate', 'place', 'provider', 'ranking'] as const;

/** The OpenAPI 6.8 parameters of /search that have no counterpart here: a 400 that says what to use. */
const OPENAPI_SEARCH_PARAMETERS = [
  'apd_abstracts_fct',
  'apd_context_fct',
  'apd_document_type_fct',
  'apd_level_of_description_fct',
  'apd_material_fct',
  'apd_provenance_fct',
  'apd_reference_number_fct',
  'apd_subject_fct',
  'digitalisattype_fct',
  'mimetype_fct',
  'state_fct',
  'time_begin_fct',
  'time_end_fct',
  'aggregation_field',
  'aggregator_id',
  'apd_abstracts',
  'apd_context',
  'apd_document_type',
  'apd_keywords',
  'apd_level_of_description',
  'apd_material',
  'apd_provenance',
  'apd_reference_number',
  'apd_subject',
  'apd_xml_sort',
  'atoz',
  'begin_time',
  'category',
  'content',
  'context',
  'dataset_id',
  'dataset_label',
  'digitalCopyType',
  'digitalisat',
  'end_time',
  'fulltext',
  'fulltext_search',
  'grid_preview',
  'hasItems',
  'ingest_id',
  'institution_name',
  'label',
  'language',
  'last_update',
  'mapping_version',
  'md_format',
  'objecttype',
  'preview',
  'preview_store',
  'provider_id',
  'revision_id',
  'sector',
  'signature',
  'sort_field',
  'source_format',
  'spell_check',
  'state',
  'subsector',
  'suggest_field',
  'suggest_field_apd',
  'supplier_id',
  'time',
  'topic',
  'tp_category_id',
  'type',
  'view',
] as const;

function hintOf(name: string): string {
  if (name === 'begin_time' || name === 'end_time')
    return `Ask for a range of day numbers in query, e.g. query=${name}:[680449 TO 685562] (docs/search.md "Fields").`;
  if (name === 'spell_check') return 'Spelling corrections come back in correctedQuery when the engine finds one.';
  if (name === 'sort_field') return 'Use sort=RELEVANCE, ALPHA_ASC, ALPHA_DESC or RANDOM_<seed>.';
  if (name === 'suggest_field' || name === 'suggest_field_apd') return 'Ask GET /search/suggest?query=<prefix> for completions of titles.';
  const facet = `${name}_fct`;
  if ((ITEM_FACETS as readonly string[]).includes(facet)) return `Filter with ${facet}=<value> (facet=${facet} lists the values).`;
  return `The field ${name} is not indexed here. docs/search.md lists the fields, facets and sorts, and GET /search/facets the facets.`;
}

export const SEARCH_PARAMETER_HINTS: Readonly<Record<string, string>> = Object.fromEntries(
  OPENAPI_SEARCH_PARAMETERS.map((name) => [name, hintOf(name)]),
);

export const jsonErrors = {
  400: commonErrors[400],
  401: commonErrors[401],
  403: { ...commonErrors[403], description: 'The API key is unknown or revoked.' },
  406: { ...commonErrors[406], description: 'The Accept header excludes application/json.' },
  429: commonErrors[429],
  500: commonErrors[500],
  503: { ...commonErrors[500], description: 'The search ran past its time budget, or too many searches wait (Retry-After).' },
} as const;

const notModified = { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' } as const;
const json = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });

const stringList = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

/** v1's geographic parameters (docs/search.md "Geography"), on /search and /search/facets/{facetName}. */
export const GEO_PARAMETERS = {
  geocode: stringList(
    'Keep items whose point lies in a box [south,west TO north,east], is the point lat,lon, or lies in {!geofilt pt=lat,lon d=km} ({!bbox …}: the box around that circle); repeat to require several.',
  ),
  geocode_0_coordinate: stringList('Keep items whose latitude lies in [a TO b] (or is the one value); decimal degrees.'),
  geocode_1_coordinate: stringList('Keep items whose longitude lies in [a TO b] (or is the one value); decimal degrees.'),
} as const;

export const searchSchema = {
  summary: 'Search items (v1 /search, ddb-openapi-6.8 getSearch)',
  querystring: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description:
          'Lucene syntax over the item fields of docs/search.md: words, "phrases", title:goethe, place_fct:"Leipzig", begin_time:[680449 TO 685562], AND/OR/NOT, wildcards. Default *:*.',
      },
      facet: stringList(`Facets to count, in this order; repeatable. One of ${ITEM_FACETS.join(', ')}.`),
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
        description: 'List a facet value only when its count exceeds this.',
      },
      offset: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxOffset, default: 0 },
      rows: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxRows, default: SEARCH_LIMITS.defaultRows },
      sort: { type: 'string', description: 'RELEVANCE (default), ALPHA_ASC, ALPHA_DESC (by title) or RANDOM_<seed>; case-insensitive.' },
      cursorMark: { type: 'string', description: "Deep paging: '*' to start, then the nextCursorMark of the previous answer." },
      afterId: {
        type: 'string',
        description:
          'With Accept: application/x-ndjson (every hit as JSON Lines, in id order): resume after this id, the last line you have.',
      },
      ...Object.fromEntries(
        ITEM_FACETS.map((f) => [f, stringList(`Keep items with this ${f} value; values of one facet are OR-ed, facets AND-ed.`)]),
      ),
      ...Object.fromEntries(
        ITEM_FIELD_PARAMETERS.map((f) => [
          f,
          stringList(`Keep items whose ${f} holds this text as a phrase (as query=${f}:"<text>"); repeat to require several.`),
        ]),
      ),
      ...GEO_PARAMETERS,
      ...keyQuery,
    },
  },
  response: {
    200: json(
      'numberOfResults, results [{name: "single", docs, numberOfDocs}], facets (those asked, values by descending count), entities (persons whose names match the query), correctedQuery, highlightedTerms, randomSeed; nextCursorMark with cursorMark.',
    ),
    304: notModified,
    ...jsonErrors,
  },
} as const;

export const personSearchSchema = {
  summary: 'Search persons (ddb-openapi-6.8 getSearchPerson; the same as /entities)',
} as const;

const SOLR_PARAMETERS = {
  q: { type: 'string', description: 'Lucene query over the fields of docs/search.md; default *:*.' },
  fq: stringList('Filter queries (Lucene syntax), each AND-ed with q; repeatable.'),
  fl: {
    type: 'string',
    description: 'Stored fields to return, separated by commas or blanks; * for all, score for the relevance score. Default *.',
  },
  rows: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxRows, default: SEARCH_LIMITS.solrDefaultRows },
  start: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxOffset, default: 0 },
  sort: {
    type: 'string',
    description:
      "'score desc' (default), 'id asc|desc', '<sort field> asc|desc' (title, begin_time; persons: preferredName, count), 'random_<seed> asc'; a trailing ', id asc' is allowed.",
  },
  facet: { type: 'string', enum: ['true', 'on', 'false', 'off'], description: 'true or on to count facet.field values.' },
  'facet.field': stringList('Facets to count; repeatable.'),
  'facet.limit': { type: 'string', description: 'Values per facet; -1 for all. Default 100.' },
  'facet.mincount': { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 },
  'facet.sort': {
    type: 'string',
    enum: ['count', 'index'],
    description: 'count (default with a positive facet.limit) or index (by value).',
  },
  cursorMark: { type: 'string', description: "Deep paging: '*' to start, then nextCursorMark; needs start=0." },
  wt: { type: 'string', enum: ['json'], description: 'Only json.' },
  'q.op': { type: 'string', enum: ['AND', 'OR'], description: 'What words without an operator between them mean; default AND.' },
  spellcheck: {
    type: 'string',
    enum: ['true', 'false', 'on', 'off'],
    description: "true: add Solr's spellcheck block, whose collation is the query with its misspelt terms corrected.",
  },
  'spellcheck.minHits': { type: 'string', description: 'Correct when the query finds fewer documents than this; default 1.' },
  defType: { type: 'string', description: 'The query parser: lucene (default) or edismax (qf, pf, mm).' },
  qf: { type: 'string', description: 'edismax: the text fields a clause without a field searches, with boosts: title^10 description^2.' },
  pf: { type: 'string', description: "edismax: fields with boosts where the query's words as a phrase add to the score." },
  mm: { type: 'string', description: 'edismax: minimum should match: 3, -1, 75% or -25%.' },
  // edismax's other parameters, declared so that the answer names them (readEdismax.ts)
  ...Object.fromEntries(
    EDISMAX_UNSUPPORTED.map((p) => [p, { type: 'string', description: `${REFUSED_PARAMETER}edismax's, not supported here.` }]),
  ),
  pt: { type: 'string', description: 'The point of {!geofilt} and {!bbox} in fq and of sort=geodist(): lat,lon in decimal degrees.' },
  sfield: { type: 'string', description: 'The location field of {!geofilt}, {!bbox} and geodist(): geocode (items only).' },
  d: { type: 'string', description: 'The distance of {!geofilt} and {!bbox} in fq, in km.' },
  ...keyQuery,
} as const;

export const solrSelectSchema = {
  summary: 'Solr-native search of the item (search) or person (person) index (ddb-openapi-6.8 getSolrSearch, handler select)',
  params: {
    type: 'object',
    required: ['index', 'handler'],
    properties: {
      index: { type: 'string', description: 'search (items) or person.' },
      handler: { type: 'string', description: 'select (the only request handler served).' },
    },
  },
  querystring: { type: 'object', properties: SOLR_PARAMETERS },
  response: {
    200: json(
      'responseHeader {status, QTime, params}, response {numFound, start, numFoundExact, docs}, facet_counts {facet_queries, facet_fields {field: [value, count, …]}, …}; nextCursorMark with cursorMark.',
    ),
    304: notModified,
    400: json(
      'Solr\'s error shape: {"responseHeader":{"status":400,"QTime":0,"params":{…}},"error":{"metadata":[…],"msg":"…","code":400}}; also for 401, 403, 404, 406, 429 and 503.',
    ),
  },
} as const;

export const facetsSchema = (kind: 'item' | 'person') => ({
  summary:
    kind === 'item'
      ? 'The facets of the item search (ddb-openapi-6.8 getSearchFacets)'
      : 'The facets of the person search (ddb-openapi-6.8 getSearchPersonFacets)',
  querystring: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['search', 'extended', 'technical'], description: 'Only facets of this type; default all.' },
      ...keyQuery,
    },
  },
  response: {
    200: json('[{name, type}], type one of SEARCH, EXTENDED, TECHNICAL (docs/search.md "Facets").'),
    304: notModified,
    ...jsonErrors,
  },
});

export const sortCriteriaSchema = (kind: 'item' | 'person') => ({
  summary:
    kind === 'item'
      ? 'The sorts of the item search (ddb-openapi-6.8 getSearchSortcriteria)'
      : 'The sorts of the person search (ddb-openapi-6.8 getSearchPersonSortcriteria)',
  querystring: { type: 'object', properties: { ...keyQuery } },
  response: { 200: json('{sortCriteria: [...], defaultSortCriterion}'), 304: notModified, ...jsonErrors },
});

export const suggestSchema = (kind: 'item' | 'person') => ({
  summary:
    kind === 'item'
      ? 'Titles that start with a prefix (ddb-openapi-6.8 getSearchSuggest)'
      : 'Preferred names that start with a prefix (ddb-openapi-6.8 getSearchPersonSuggest)',
  querystring: {
    type: 'object',
    required: ['query'],
    properties: {
      query: { type: 'string', description: 'The prefix, matched case- and diacritic-insensitively against the whole title or name.' },
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
    200: json('An array of titles (names) as written, in alphabetical order of their folded form, one per folded form.'),
    304: notModified,
    ...jsonErrors,
  },
});

export { ENTITY_LIMITS };
