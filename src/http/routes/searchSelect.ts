/**
 * GET /search/index/{index}/select, the Solr-native search of the DDB API's newer
 * generation (docs/search.md "Solr-native select"; ddb-openapi-6.8 getSolrSearch), which its clients call
 * (the `ddb search` command of @maschinenlesbar.org/deutsche-digitale-bibliothek-cli):
 * `search` is the item index, `person` the person index. The parameters are Solr's
 * (q, fq, fl, rows, start, sort, facet, facet.field, facet.limit, facet.mincount,
 * facet.sort, cursorMark, wt, q.op), the answer Solr's JSON, errors included
 * (../bodies/solrResponse.ts): a client of Solr reads `error.msg` and `error.code`.
 * ../searchRequest/solrSearch.ts reads the parameters; the stored fields that `fl` picks are
 * the schema's (Schema.storedFields), listed in docs/search.md "Solr-native select".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { solrErrorToJson, solrResponseToJson, type SolrParams } from '../bodies/solrResponse.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { personSchema } from '../../search/schemas/personSchema.js';
import type { StoredValue } from '../../search/indexHost.js';
import type { SearchKind } from '../../domain/searchFeed.js';
import { apiErrorOf } from '../errorMapping.js';
import { jsonOnly } from '../formatChoice.js';
import { isCredentialParameter } from '../redact.js';
import { solrSelectSchema } from '../searchSchemas.js';
import type { Query } from '../searchRequest/queryParameters.js';
import { shownFieldsOf } from '../searchRequest/readShownFields.js';
import { toSolrSearch } from '../searchRequest/solrSearch.js';
import type { SearchService } from './searchEngine.js';

/** The stored fields of a hit, per index, which `fl` picks from: the schemas' (Schema.storedFields). */
export const STORED_FIELDS: Record<SearchKind, readonly string[]> = {
  item: itemSchema.storedFields ?? [],
  person: personSchema.storedFields ?? [],
};

const bad = (msg: string) => ApiError.of('invalidSearch', msg);

/**
 * The parameters Solr echoes in responseHeader.params: those the client sent (not the
 * schema's defaults), one value as a string and a repeated one as an array; never a
 * credential (`oauth_consumer_key`, `api_key`, `token`, ...: ../redact.ts), and a key sent
 * under another name is redacted by value from the whole answer (../requestSecrets.ts).
 */
function echoed(request: FastifyRequest): SolrParams {
  const params: SolrParams = {};
  const at = request.url.indexOf('?');
  if (at < 0) return params;
  for (const [name, value] of new URLSearchParams(request.url.slice(at + 1))) {
    if (isCredentialParameter(name)) continue;
    const had = params[name];
    params[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return params;
}

export interface SolrRouteDeps {
  config: Config;
  search: SearchService;
}

export function registerSolrRoutes(app: FastifyInstance, deps: SolrRouteDeps): void {
  const { config, search } = deps;
  /** Every failure of these routes in Solr's shape, with the status, message and headers of the catalog's answer. */
  const errorHandler = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const api = apiErrorOf(error, request, config.search);
    for (const [k, v] of Object.entries(api.headers)) reply.header(k, v);
    return reply
      .code(api.status)
      .header('Content-Type', 'application/json; charset=utf-8')
      .send(solrErrorToJson(echoed(request), api.status, api.message));
  };

  app.get(
    '/search/index/:index/:handler',
    { schema: solrSelectSchema, errorHandler, config: { digestValidators: false } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const started = performance.now();
      const type = jsonOnly(request, config.http.requireAccept).contentType;
      const { index, handler } = request.params as { index: string; handler: string };
      if (handler !== 'select')
        throw bad(
          `The request handler '${handler.slice(0, 40)}' is not served here: use select (/search/index/${index.slice(0, 40)}/select).`,
        );
      const s = toSolrSearch(index, request.query as Query);
      const answer = await search.engine({ kind: s.kind, request: s.request, fields: true });
      const stored = answer.fields ?? answer.docs.map((d) => JSON.parse(d) as Record<string, StoredValue>);
      const body = solrResponseToJson({
        params: echoed(request),
        qTime: Math.round(performance.now() - started),
        numFound: answer.total,
        start: s.request.cursor === undefined ? s.request.offset : 0,
        docs: stored.map((doc, i) => shownFieldsOf(doc, s.fl.fields, s.fl.score ? answer.scores[i] : undefined)),
        ...(answer.nextCursor !== undefined ? { nextCursorMark: answer.nextCursor } : {}),
        ...(s.facets ? { facetFields: answer.facets } : {}),
        ...(s.spellcheck
          ? {
              spellcheck: {
                correctlySpelled: answer.correctedQuery === undefined || answer.correctedQuery === '',
                collation: answer.correctedQuery ?? '',
              },
            }
          : {}),
      });
      return reply.header('Content-Type', type).send(body);
    },
  );
}
