/**
 * GET /search/organization and its facets, facets/{facetName}, facets/maxpages,
 * sortcriteria and suggest (ddb-openapi-6.8 getSearchOrganization…): the institutions the
 * stored packages name (the list of /institutions), searched by the one engine on an index
 * of their own (src/search/organizationIndex.ts), rebuilt when the data version moves.
 * Parameters and answers as the person search's family: docs/search.md "Organizations".
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { and, type QueryNode } from '../../query/ast.js';
import type { FacetRequest, SearchRequest, SearchResult, SearchSort } from '../../search/engine/types.js';
import { buildOrganizationIndex, ORGANIZATION_FACETS, organizationSchema, type OrganizationIndex } from '../../search/organizationIndex.js';
import { checkClauses } from '../../search/engine/searchLimits.js';
import type { Store } from '../../store/Store.js';
import { jsonOnly } from '../formatChoice.js';
import {
  ORGANIZATION_FIELD_PARAMETERS,
  ORGANIZATION_PARAMETER_HINTS,
  organizationFacetsSchema,
  organizationFacetValuesSchema,
  organizationSearchSchema,
  organizationSortCriteriaSchema,
  organizationSuggestSchema,
} from '../organizationSchemas.js';
import { maxPagesSchema } from '../facetValueSchemas.js';
import { SEARCH_LIMITS } from '../searchSchemas.js';
import { facetEntry, maxPages } from './searchFacetValues.js';
import { list, one, parseFor, type Query } from './searchEngine.js';

export interface OrganizationRouteDeps {
  config: Config;
  onRequest: onRequestHookHandler;
  store: Pick<Store, 'dataVersion' | 'listProviders'>;
}

const FACETS: readonly string[] = ORGANIZATION_FACETS;
const SORTS = {
  sortCriteria: ['RELEVANCE', 'ALPHA_ASC', 'ALPHA_DESC', 'COUNT_DESC', 'RANDOM_<seed>'],
  defaultSortCriterion: 'RELEVANCE',
} as const;
const bad = (message: string) => ApiError.of('invalidSearch', message);

function parseSort(text: string | undefined): { sort: SearchSort; seed: string } {
  const t = (text ?? '').trim();
  const upper = t.toUpperCase();
  if (t === '' || upper === 'RELEVANCE') return { sort: { kind: 'relevance' }, seed: '' };
  if (upper === 'ALPHA_ASC' || upper === 'ALPHA_DESC')
    return { sort: { kind: 'key', key: 'preferredName', descending: upper === 'ALPHA_DESC' }, seed: '' };
  if (upper === 'COUNT_DESC') return { sort: { kind: 'key', key: 'count', descending: true }, seed: '' };
  if (upper.startsWith('RANDOM_') && t.length > 'RANDOM_'.length) {
    const seed = t.slice('RANDOM_'.length);
    return { sort: { kind: 'random', seed }, seed };
  }
  throw bad(`sort '${t.slice(0, 40)}' is not known. Use ${SORTS.sortCriteria.join(', ')}.`);
}

/** The query, the per-field parameters and hasItems as one query; the facet filters. */
function selection(q: Query): Pick<SearchRequest, 'query' | 'filters'> {
  const operator = one(q, 'defaultOperator') as 'AND' | 'OR' | undefined;
  const text = one(q, 'query');
  const clauses: QueryNode<string>[] = [
    parseFor(organizationSchema, text === undefined || text.trim() === '' ? '*:*' : text, SEARCH_LIMITS.maxQueryLength, operator),
  ];
  for (const field of ORGANIZATION_FIELD_PARAMETERS) {
    for (const value of list(q[field])) {
      if (value.length > SEARCH_LIMITS.maxQueryLength)
        throw bad(`The value of ${field} is ${value.length} characters long; at most ${SEARCH_LIMITS.maxQueryLength} are read.`);
      if (value.trim() === '') throw bad(`${field} is empty: give the text to look for, or leave the parameter out.`);
      clauses.push(field === 'id' ? { kind: 'term', field, text: value } : { kind: 'phrase', field, text: value });
    }
  }
  for (const value of list(q.count)) {
    if (!/^[0-9]{1,16}$/.test(value))
      throw bad('count must be a whole number in the digits 0-9, e.g. count=3; for a range use query=count:[1 TO *].');
    clauses.push({
      kind: 'range',
      field: 'count',
      lower: String(Number(value)),
      upper: String(Number(value)),
      includeLower: true,
      includeUpper: true,
    });
  }
  if (one(q, 'hasItems') === 'true')
    clauses.push({ kind: 'range', field: 'count', lower: '1', upper: null, includeLower: true, includeUpper: true });
  const filters: Record<string, string[]> = {};
  for (const name of FACETS) {
    const values = list(q[name]);
    if (values.length === 0) continue;
    if (values.some((v) => v === ''))
      throw bad(`${name} is empty: give a value to keep (/search/organization/facets/${name} lists them), or leave the parameter out.`);
    filters[name] = values;
  }
  return { query: and(clauses), filters };
}

function facetRequests(q: Query, names: readonly string[]): FacetRequest[] {
  for (const f of names)
    if (!FACETS.includes(f)) throw bad(`'${f.slice(0, 40)}' is not a facet of the organization search. Facets: ${FACETS.join(', ')}.`);
  const limit = Number(one(q, 'facet.limit') ?? SEARCH_LIMITS.defaultFacetLimit);
  const mincount = Number(one(q, 'minDocs') ?? 0) + 1;
  return names.map((field) => ({ field, limit, mincount, sort: 'count' }));
}

export function registerOrganizationRoutes(app: FastifyInstance, deps: OrganizationRouteDeps): void {
  const { config, onRequest, store } = deps;
  const json = (request: FastifyRequest) => jsonOnly(request, config.http.requireAccept).contentType;
  const cached = { digestValidators: true };
  let built: { version: string; organizations: OrganizationIndex } | undefined;

  /** The index of the institutions of the current data, rebuilt when the data version moves. */
  async function organizations(): Promise<OrganizationIndex> {
    const version = await store.dataVersion();
    if (built?.version !== version) built = { version, organizations: buildOrganizationIndex(await store.listProviders()) };
    return built.organizations;
  }

  /**
   * A search of the organizations, with the limits and time budget of the other searches
   * (docs/api.md "Bounds"); its errors are answered as theirs are (../errorMapping.ts).
   */
  async function search(request: SearchRequest): Promise<{ result: SearchResult; docs: string[] }> {
    const { index, docs } = await organizations();
    const s = config.search;
    checkClauses(request.query, s.maxClauses);
    const result = index.search(request, Date.now() + s.timeBudgetMs, {
      maxExpansionsPerTerm: s.maxExpansionsPerTerm,
      maxExpansionsPerQuery: s.maxExpansionsPerQuery,
    });
    return { result, docs: result.ids.map((id) => docs.get(id) ?? JSON.stringify({ id })) };
  }

  app.get(
    '/search/organization',
    { onRequest, schema: organizationSearchSchema, config: { ...cached, parameterHints: ORGANIZATION_PARAMETER_HINTS } },
    async (request, reply) => {
      const type = json(request);
      const q = request.query as Query;
      const offset = Number(one(q, 'offset') ?? 0);
      const cursor = one(q, 'cursorMark');
      if (cursor !== undefined && offset !== 0)
        throw bad('offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).');
      if (cursor === '') throw bad("cursorMark is empty: send '*' to start deep paging.");
      const { sort, seed } = parseSort(one(q, 'sort'));
      const engineRequest: SearchRequest = {
        ...selection(q),
        facets: facetRequests(q, [...new Set(list(q.facet))]),
        sort,
        offset,
        rows: Number(one(q, 'rows') ?? SEARCH_LIMITS.defaultRows),
        ...(cursor !== undefined ? { cursor } : {}),
      };
      const { result, docs } = await search(engineRequest);
      // The person search's shape (spec 2.1), without the `entities` of the item search.
      const answer: Record<string, unknown> = {
        numberOfResults: result.total,
        results: [{ name: 'single', docs: docs.map((d) => JSON.parse(d) as unknown), numberOfDocs: result.total }],
        facets: result.facets.map((f) => JSON.parse(facetEntry(f.field, f.values)) as unknown),
        correctedQuery: '',
        highlightedTerms: result.matchedTerms,
        randomSeed: seed,
      };
      if (result.nextCursor !== undefined) answer.nextCursorMark = result.nextCursor;
      return reply.header('Content-Type', type).send(JSON.stringify(answer));
    },
  );

  app.get('/search/organization/facets', { onRequest, schema: organizationFacetsSchema, config: cached }, async (request, reply) => {
    const wanted = (request.query as { type?: string }).type?.toUpperCase();
    const facets = FACETS.filter(() => wanted === undefined || wanted === 'SEARCH').map((name) => ({ name, type: 'SEARCH' }));
    return reply.header('Content-Type', json(request)).send(JSON.stringify(facets));
  });

  app.get(
    '/search/organization/facets/:facetName',
    { onRequest, schema: organizationFacetValuesSchema, config: { ...cached, parameterHints: ORGANIZATION_PARAMETER_HINTS } },
    async (request, reply) => {
      const type = json(request);
      const { facetName } = request.params as { facetName: string };
      const q = request.query as Query;
      const facets = facetRequests(q, [facetName]);
      const { result } = await search({ ...selection(q), facets, sort: { kind: 'relevance' }, offset: 0, rows: 0 });
      return reply.header('Content-Type', type).send(facetEntry(facetName, result.facets[0]?.values ?? []));
    },
  );

  app.get(
    '/search/organization/facets/maxpages',
    { onRequest, schema: maxPagesSchema('organization'), config: cached },
    async (request, reply) => reply.header('Content-Type', json(request)).send(maxPages(SEARCH_LIMITS)),
  );

  app.get(
    '/search/organization/sortcriteria',
    { onRequest, schema: organizationSortCriteriaSchema, config: cached },
    async (request, reply) => reply.header('Content-Type', json(request)).send(JSON.stringify(SORTS)),
  );

  app.get('/search/organization/suggest', { onRequest, schema: organizationSuggestSchema, config: cached }, async (request, reply) => {
    const type = json(request);
    const q = request.query as Query;
    const prefix = one(q, 'query') ?? '';
    if (prefix.length > SEARCH_LIMITS.maxQueryLength)
      throw bad(`query is ${prefix.length} characters long; a prefix of at most ${SEARCH_LIMITS.maxQueryLength} is read.`);
    if (prefix.trim() === '') throw bad('query is empty: give the first letters of a name to complete.');
    const { index } = await organizations();
    return reply
      .header('Content-Type', type)
      .send(JSON.stringify(index.suggest(prefix, Number(one(q, 'rows') ?? SEARCH_LIMITS.defaultSuggestions))));
  });
}
