/**
 * GET /search/organization and its facets, facets/{facetName}, facets/maxpages,
 * sortcriteria and suggest (ddb-openapi-6.8 getSearchOrganization…): the institutions the
 * stored packages name (the list of /institutions), searched by the one engine on an index
 * of their own (src/search/organizationIndex.ts), rebuilt when the data version moves.
 * Parameters and answers as the person search's family: docs/search.md "Organizations".
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { SearchRequest, SearchResult } from '../../search/engine/types.js';
import { buildOrganizationIndex, ORGANIZATION_FACETS, type OrganizationIndex } from '../../search/organizationIndex.js';
import { checkClauses } from '../../search/engine/searchLimits.js';
import type { Store } from '../../store/Store.js';
import { jsonOnly } from '../formatChoice.js';
import {
  ORGANIZATION_PARAMETER_HINTS,
  organizationFacetsSchema,
  organizationFacetValuesSchema,
  organizationSearchSchema,
  organizationSortCriteriaSchema,
  organizationSuggestSchema,
} from '../organizationSchemas.js';
import { maxPagesSchema } from '../facetValueSchemas.js';
import { SEARCH_LIMITS } from '../searchSchemas.js';
import { organizationFacets, organizationSelection, toOrganizationSearch } from '../searchRequest/organizationSearch.js';
import type { Query } from '../searchRequest/queryParameters.js';
import { ORGANIZATION_SORTS } from '../searchRequest/readSort.js';
import { readSuggestion } from '../searchRequest/readSuggestion.js';
import { facetEntry, maxPages } from './searchFacetValues.js';

export interface OrganizationRouteDeps {
  config: Config;
  store: Pick<Store, 'dataVersion' | 'listProviders'>;
}

const FACETS: readonly string[] = ORGANIZATION_FACETS;

export function registerOrganizationRoutes(app: FastifyInstance, deps: OrganizationRouteDeps): void {
  const { config, store } = deps;
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
    { schema: organizationSearchSchema, config: { ...cached, parameterHints: ORGANIZATION_PARAMETER_HINTS } },
    async (request, reply) => {
      const type = json(request);
      const { request: engineRequest, randomSeed } = toOrganizationSearch(request.query as Query);
      const { result, docs } = await search(engineRequest);
      // The person search's shape (spec 2.1), without the `entities` of the item search.
      const answer: Record<string, unknown> = {
        numberOfResults: result.total,
        results: [{ name: 'single', docs: docs.map((d) => JSON.parse(d) as unknown), numberOfDocs: result.total }],
        facets: result.facets.map((f) => JSON.parse(facetEntry(f.field, f.values)) as unknown),
        correctedQuery: '',
        highlightedTerms: result.matchedTerms,
        randomSeed,
      };
      if (result.nextCursor !== undefined) answer.nextCursorMark = result.nextCursor;
      return reply.header('Content-Type', type).send(JSON.stringify(answer));
    },
  );

  app.get('/search/organization/facets', { schema: organizationFacetsSchema, config: cached }, async (request, reply) => {
    const wanted = (request.query as { type?: string }).type?.toUpperCase();
    const facets = FACETS.filter(() => wanted === undefined || wanted === 'SEARCH').map((name) => ({ name, type: 'SEARCH' }));
    return reply.header('Content-Type', json(request)).send(JSON.stringify(facets));
  });

  app.get(
    '/search/organization/facets/:facetName',
    { schema: organizationFacetValuesSchema, config: { ...cached, parameterHints: ORGANIZATION_PARAMETER_HINTS } },
    async (request, reply) => {
      const type = json(request);
      const { facetName } = request.params as { facetName: string };
      const q = request.query as Query;
      const facets = organizationFacets(q, [facetName]);
      const { result } = await search({ ...organizationSelection(q), facets, sort: { kind: 'relevance' }, offset: 0, rows: 0 });
      return reply.header('Content-Type', type).send(facetEntry(facetName, result.facets[0]?.values ?? []));
    },
  );

  app.get('/search/organization/facets/maxpages', { schema: maxPagesSchema('organization'), config: cached }, async (request, reply) =>
    reply.header('Content-Type', json(request)).send(maxPages(SEARCH_LIMITS)),
  );

  app.get('/search/organization/sortcriteria', { schema: organizationSortCriteriaSchema, config: cached }, async (request, reply) =>
    reply.header('Content-Type', json(request)).send(JSON.stringify(ORGANIZATION_SORTS)),
  );

  app.get('/search/organization/suggest', { schema: organizationSuggestSchema, config: cached }, async (request, reply) => {
    const type = json(request);
    const { prefix, rows } = readSuggestion(request.query as Query, {
      completes: 'a name',
      maxLength: SEARCH_LIMITS.maxQueryLength,
      defaultRows: SEARCH_LIMITS.defaultSuggestions,
    });
    const { index } = await organizations();
    return reply.header('Content-Type', type).send(JSON.stringify(index.suggest(prefix, rows)));
  });
}
