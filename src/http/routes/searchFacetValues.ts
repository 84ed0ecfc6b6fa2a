/**
 * GET /search/facets/{facetName} and /search/person/facets/{facetName} (ddb-openapi-6.8
 * getSearchFacetsFacetName, getSearchPersonFacetsFacetName; 2.6.1 also as
 * /entities/facets/{facetName}), and the `facets/maxpages` of items, persons and /entities
 * (getSearchFacetsMaxpage, getSearchPersonFacetsMaxpages, deprecated in 6.8). A facet's
 * values are those of the search with `facet=<name>&rows=0`, on the same engine and with
 * the same parameters as GET /search (GET /entities): docs/search.md "Facet values".
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { PERSON_FACETS } from '../../domain/personFacets.js';
import { ITEM_FACETS } from '../../domain/itemFacets.js';
import type { FacetCounts } from '../../search/engine/types.js';
import type { SearchRunner } from '../../search/searchPool.js';
import {
  ITEM_FACET_VALUE_HINTS,
  itemFacetValuesSchema,
  maxPagesSchema,
  PERSON_FACET_VALUE_HINTS,
  personFacetValuesSchema,
} from '../facetValueSchemas.js';
import { jsonOnly } from '../formatChoice.js';
import { ENTITY_LIMITS } from '../schemas.js';
import { SEARCH_LIMITS } from '../searchSchemas.js';
import { toItemSearch } from '../searchRequest/itemSearch.js';
import { linkedItemRequest } from './itemSearchRun.js';
import { personResult, toPersonSearch } from '../searchRequest/personSearch.js';
import type { Query } from '../searchRequest/queryParameters.js';

export interface FacetValueRouteDeps {
  config: Config;
  search: Pick<SearchRunner, 'engine'>;
}

/** The facet entry of a search answer (spec 2.2): `{field, numberOfFacets, facetValues}`. */
export function facetEntry(field: string, values: FacetCounts['values']): string {
  return JSON.stringify({ field, numberOfFacets: values.length, facetValues: values.map((v) => ({ count: v.count, value: v.value })) });
}

function checkFacet(name: string, facets: readonly string[], index: string): void {
  if (!facets.includes(name))
    throw ApiError.of('invalidSearch', `'${name.slice(0, 40)}' is not a facet of the ${index}. Facets: ${facets.join(', ')}.`);
}

/**
 * What offset paging reaches (docs/search.md "Maximum pages"): with the default rows a
 * page, the pages whose offset is at most the largest offset taken; cursorMark has no end.
 */
export function maxPages(limits: { defaultRows: number; maxOffset: number }): string {
  return JSON.stringify({
    maxPages: Math.floor(limits.maxOffset / limits.defaultRows) + 1,
    rows: limits.defaultRows,
    maxOffset: limits.maxOffset,
  });
}

export function registerFacetValueRoutes(app: FastifyInstance, deps: FacetValueRouteDeps): void {
  const { config, search } = deps;
  const json = (request: FastifyRequest) => jsonOnly(request, config.http.requireAccept).contentType;
  const cached = { digestValidators: true };

  app.get(
    '/search/facets/:facetName',
    { schema: itemFacetValuesSchema, config: { ...cached, parameterHints: ITEM_FACET_VALUE_HINTS } },
    async (request, reply) => {
      const type = json(request);
      const { facetName } = request.params as { facetName: string };
      checkFacet(facetName, ITEM_FACETS, 'item search');
      const s = toItemSearch({ ...(request.query as Query), facet: facetName, rows: 0 });
      // The hits of GET /search, the items linked to the persons named included
      // (./itemSearchRun.ts); the query as sent: no spelling correction replaces it.
      const { request: engineRequest } = await linkedItemRequest(search, s, (r) => {
        const asSent = { ...r };
        delete asSent.spellcheck;
        return asSent;
      });
      const answer = await search.engine({ kind: 'item', request: engineRequest });
      return reply.header('Content-Type', type).send(facetEntry(facetName, answer.facets[0]?.values ?? []));
    },
  );

  for (const prefix of ['/search/person', '/entities']) {
    app.get(
      `${prefix}/facets/:facetName`,
      { schema: personFacetValuesSchema, config: { ...cached, parameterHints: PERSON_FACET_VALUE_HINTS } },
      async (request, reply) => {
        const type = json(request);
        const { facetName } = request.params as { facetName: string };
        checkFacet(facetName, PERSON_FACETS, 'person search');
        const personSearch = toPersonSearch({ ...(request.query as Query), facet: facetName, rows: 0 });
        const result = personResult(personSearch, await search.engine({ kind: 'person', request: personSearch.request }));
        return reply
          .header('Content-Type', type)
          .send(facetEntry(facetName, result.facets.find((f) => f.field === facetName)?.values ?? []));
      },
    );
    app.get(`${prefix}/facets/maxpages`, { schema: maxPagesSchema('person'), config: cached }, async (request, reply) =>
      reply.header('Content-Type', json(request)).send(maxPages(ENTITY_LIMITS)),
    );
  }

  app.get('/search/facets/maxpages', { schema: maxPagesSchema('item'), config: cached }, async (request, reply) =>
    reply.header('Content-Type', json(request)).send(maxPages(SEARCH_LIMITS)),
  );
}
