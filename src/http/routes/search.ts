/**
 * v1 GET /search, the item search (docs/search.md; ddb-openapi-6.8 getSearch), with
 * /search/facets, /search/sortcriteria and /search/suggest and their /search/person forms.
 * Each is answered under /2 too (../generation.ts). The engine runs in the
 * search service (./searchEngine.ts); ../searchRequest/itemSearch.ts turns the parameters
 * into an engine request, with messages that say what to fix; this file renders the answer. docs/search.md describes
 * the fields, facets and sorts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exportHits } from '../../search/exportHits.js';
import { afterIdOf, sendNdjson, wantsNdjson } from '../ndjson.js';
import type { Config } from '../../config.js';
import { searchResultToJson } from '../bodies/searchResult.js';
import { personSchema } from '../../search/schemas/personSchema.js';
import { ITEM_FACETS } from '../../domain/itemFacets.js';
import { jsonOnly } from '../formatChoice.js';
import { facetsSchema, SEARCH_LIMITS, SEARCH_PARAMETER_HINTS, searchSchema, sortCriteriaSchema, suggestSchema } from '../searchSchemas.js';
import { toItemSearch } from '../searchRequest/itemSearch.js';
import { linkedItemRequest, runItemSearch } from './itemSearchRun.js';
import type { Query } from '../searchRequest/queryParameters.js';
import { ITEM_SORTS, PERSON_SORTS } from '../searchRequest/readSort.js';
import { readSuggestion } from '../searchRequest/readSuggestion.js';
import type { SearchService } from './searchEngine.js';

export interface SearchRouteDeps {
  config: Config;
  search: SearchService;
}

/** How each facet is shown by /search/facets?type=… (docs/search.md "Facets"). */
const ITEM_FACET_TYPES: Record<string, 'SEARCH' | 'EXTENDED' | 'TECHNICAL'> = Object.fromEntries(
  ITEM_FACETS.map((f) => [
    f,
    f.endsWith('_normdata')
      ? 'TECHNICAL'
      : [
            'time_fct',
            'place_fct',
            'affiliate_fct',
            'keywords_fct',
            'language_fct',
            'type_fct',
            'sector_fct',
            'provider_fct',
            'license_group',
          ].includes(f)
        ? 'SEARCH'
        : 'EXTENDED',
  ]),
);
const PERSON_FACET_TYPES: Record<string, 'SEARCH'> = Object.fromEntries(personSchema.facets.map((f) => [f, 'SEARCH' as const]));

const SORTS = { item: ITEM_SORTS, person: PERSON_SORTS } as const;

export function registerSearchRoutes(app: FastifyInstance, deps: SearchRouteDeps): void {
  const { config, search } = deps;
  const json = (request: FastifyRequest) => jsonOnly(request, config.http.requireAccept).contentType;
  const cached = { config: { digestValidators: true } };

  app.get(
    '/search',
    { ...cached, schema: searchSchema, config: { ...cached.config, parameterHints: SEARCH_PARAMETER_HINTS } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const s = toItemSearch(request.query as Query);
      if (wantsNdjson(request)) {
        const { query, filters } = (await linkedItemRequest(search, s)).request;
        return sendNdjson(
          reply,
          exportHits((e) => search.engine(e), {
            kind: 'item',
            query,
            ...(filters ? { filters } : {}),
            afterId: afterIdOf(request.query as Query),
          }),
        );
      }
      const type = json(request);
      // The persons first: the items linked to them are found too (./itemSearchRun.ts).
      const { items, persons, highlightedTerms } = await runItemSearch(search, s);
      const body = searchResultToJson({
        total: items.total,
        docs: items.docs,
        facets: items.facets,
        entities: persons?.docs ?? [],
        correctedQuery: items.correctedQuery ?? '',
        highlightedTerms,
        randomSeed: s.randomSeed,
        ...(items.nextCursor !== undefined ? { nextCursorMark: items.nextCursor } : {}),
      });
      return reply.header('Content-Type', type).send(body);
    },
  );

  // /entities/facets, /entities/sortcriteria, /entities/suggest: the 2.6.1 names of the /search/person forms.
  for (const [prefix, kind] of [
    ['/search', 'item'],
    ['/search/person', 'person'],
    ['/entities', 'person'],
  ] as const) {
    const types = kind === 'item' ? ITEM_FACET_TYPES : PERSON_FACET_TYPES;
    app.get(`${prefix}/facets`, { ...cached, schema: facetsSchema(kind) }, async (request, reply) => {
      const type = json(request);
      const wanted = (request.query as { type?: string }).type?.toUpperCase();
      const facets = Object.entries(types)
        .filter(([, t]) => wanted === undefined || t === wanted)
        .map(([name, t]) => ({ name, type: t }));
      return reply.header('Content-Type', type).send(JSON.stringify(facets));
    });
    app.get(`${prefix}/sortcriteria`, { ...cached, schema: sortCriteriaSchema(kind) }, async (request, reply) => {
      return reply.header('Content-Type', json(request)).send(JSON.stringify(SORTS[kind]));
    });
    app.get(`${prefix}/suggest`, { ...cached, schema: suggestSchema(kind) }, async (request, reply) => {
      const type = json(request);
      const q = request.query as Query;
      const { prefix: prefixText, rows } = readSuggestion(q, {
        completes: 'a title (of a name)',
        maxLength: SEARCH_LIMITS.maxQueryLength,
        defaultRows: SEARCH_LIMITS.defaultSuggestions,
      });
      const suggestions = await search.suggest(kind, prefixText, rows);
      return reply.header('Content-Type', type).send(JSON.stringify(suggestions));
    });
  }
}
