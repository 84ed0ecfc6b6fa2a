/**
 * GET /search/person and GET /entities, its 2.6.1 name: the person search (spec 2.1, 2.2,
 * 4.2; docs/api.md "`GET /entities`"). ../searchRequest/personSearch.ts turns the
 * parameters into a request of the engine, with messages that say what to fix; the engine
 * runs in the search service; this file renders the answer. The search runner of the server
 * is started here.
 */
import { exportHits } from '../../search/exportHits.js';
import { afterIdOf, sendNdjson, wantsNdjson } from '../ndjson.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { entitiesToJson } from '../bodies/entities.js';
import { createSearchRunner, type SearchRunner } from '../../search/searchPool.js';
import { searchIndexFiles } from '../../search/indexPath.js';
import type { Store } from '../../store/Store.js';
import { jsonOnly } from '../formatChoice.js';
import { entitiesSchema, ENTITY_PARAMETER_HINTS } from '../schemas.js';
import { personResult, toPersonSearch } from '../searchRequest/personSearch.js';
import type { Query } from '../searchRequest/queryParameters.js';

export interface EntityRouteDeps {
  store: Store;
  config: Config;
  /** The runner to use (a worker of `serve --workers N` forwards to its primary); default: one of this process's own. */
  searches?: SearchRunner | undefined;
}

/** Returns the search runner, for /health/ready and /metrics. */
export function registerEntityRoutes(app: FastifyInstance, deps: EntityRouteDeps): SearchRunner {
  // Searches run off the event loop, within a time budget, so that an expensive one cannot
  // delay other requests (docs/decisions.md "Bounded searches"; src/search/searchPool.ts).
  const indexFiles = searchIndexFiles(deps.config);
  const searches = deps.searches ?? createSearchRunner(deps.store, deps.config.search, indexFiles ? { indexFiles } : {});
  // A listening server starts its workers at once; inject() in tests starts them with the first search.
  app.addHook('onListen', (done) => {
    searches.start();
    done();
  });
  app.addHook('onClose', async () => searches.close());
  // /search/person is the canonical path of the same search since API 6.8, which deprecates
  // /entities (docs/decisions.md "Paths").
  for (const path of ['/entities', '/search/person'])
    app.get(
      path,
      { schema: entitiesSchema, config: { parameterHints: ENTITY_PARAMETER_HINTS, digestValidators: true } },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const search = toPersonSearch(request.query as Query);
        if (wantsNdjson(request)) {
          const { query, filters } = search.request;
          return sendNdjson(
            reply,
            exportHits((e) => searches.engine(e), {
              kind: 'person',
              query,
              ...(filters ? { filters } : {}),
              afterId: afterIdOf(request.query as Query),
            }),
          );
        }
        const rep = jsonOnly(request, deps.config.http.requireAccept);
        const answer = await searches.engine({ kind: 'person', request: search.request });
        return reply.header('Content-Type', rep.contentType).send(entitiesToJson(personResult(search, answer), search.randomSeed));
      },
    );
  return searches;
}
