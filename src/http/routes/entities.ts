/**
 * GET /entities: the person search (spec 2.1, 2.2, 4.2; docs/decisions.md
 * "Entity search"). Turns query parameters into an EntitySearch, checks
 * them with messages that say what to fix, and renders the result.
 */
import { exportHits } from '../../search/exportHits.js';
import { entityEngineSearch } from '../../search/entityEngine.js';
import { afterIdOf, sendNdjson, wantsNdjson } from '../ndjson.js';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { entitiesToJson } from '../bodies/entities.js';
import { and } from '../../query/ast.js';
import { parseQuery, type QueryNode } from '../../query/parse.js';
import { FACETS, type EntitySearch, type EntitySort, type FacetName } from '../../search/entitySearch.js';
import { normaliseFacetValue, normaliseQuery } from '../../search/schemas/personFields.js';
import { createSearchRunner, type SearchRunner } from '../../search/searchPool.js';
import { searchIndexFiles } from '../../search/indexPath.js';
import type { Store } from '../../store/Store.js';
import { jsonOnly } from '../formatChoice.js';
import { entitiesSchema, ENTITY_FIELD_PARAMETERS, ENTITY_LIMITS, ENTITY_PARAMETER_HINTS } from '../schemas.js';

type Query = Record<string, string | string[] | number | undefined>;

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

function one(q: Query, name: string): string | undefined {
  const v = q[name];
  if (Array.isArray(v)) {
    if (v.length > 1) throw ApiError.of('invalidSearch', `The parameter ${name} is given ${v.length} times; send it once.`);
    return v[0];
  }
  return v === undefined ? undefined : String(v);
}

function parseSort(text: string | undefined): { sort: EntitySort; seed: string } {
  const t = (text ?? '').trim();
  if (t === '') return { sort: { kind: 'relevance' }, seed: '' };
  const upper = t.toUpperCase();
  if (upper === 'RELEVANCE') return { sort: { kind: 'relevance' }, seed: '' };
  if (upper === 'ALPHA_ASC' || upper === 'ALPHA_DESC') return { sort: { kind: 'alpha', descending: upper === 'ALPHA_DESC' }, seed: '' };
  if (upper === 'COUNT_DESC') return { sort: { kind: 'count' }, seed: '' };
  if (upper.startsWith('RANDOM_') && t.length > 'RANDOM_'.length) {
    const seed = t.slice('RANDOM_'.length);
    return { sort: { kind: 'random', seed }, seed };
  }
  throw ApiError.of(
    'invalidSearch',
    `sort '${t.slice(0, 40)}' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>.`,
  );
}

function isFacet(name: string): name is FacetName {
  return (FACETS as readonly string[]).includes(name);
}

/**
 * The per-field parameters (2.6.1's `preferredName=Goethe`, schemas.ts ENTITY_FIELD_PARAMETERS)
 * as query clauses, each value one clause: a phrase on the field, a number for count.
 */
function fieldClauses(q: Query): QueryNode[] {
  const clauses: QueryNode[] = [];
  for (const [name, field] of Object.entries(ENTITY_FIELD_PARAMETERS)) {
    for (const value of list(q[name])) {
      if (value.length > ENTITY_LIMITS.maxQueryLength) {
        throw ApiError.of(
          'invalidSearch',
          `The value of ${name} is ${value.length} characters long; at most ${ENTITY_LIMITS.maxQueryLength} are read.`,
        );
      }
      if (field === 'count') {
        if (!/^[0-9]{1,16}$/.test(value))
          throw ApiError.of(
            'invalidSearch',
            'count must be a whole number in the digits 0-9, e.g. count=3; for a range use query=count:[1 TO *].',
          );
        clauses.push({ kind: 'term', field, text: String(Number(value)) });
      } else {
        if (value.trim() === '')
          throw ApiError.of('invalidSearch', `${name} is empty: give the text to look for, or leave the parameter out.`);
        clauses.push({ kind: 'phrase', field, text: value });
      }
    }
  }
  return clauses;
}

export function toEntitySearch(q: Query): { search: EntitySearch; randomSeed: string } {
  const mainText = one(q, 'query') ?? '*:*';
  // A syntax error is the catalog's 400 with its position (../errorMapping.ts).
  const query = normaliseQuery(and([parseQuery(mainText, { maxLength: ENTITY_LIMITS.maxQueryLength }), ...fieldClauses(q)]));
  // The clauses count in the cursor's fingerprint as the query does.
  const queryText = JSON.stringify([mainText, ...Object.keys(ENTITY_FIELD_PARAMETERS).map((name) => list(q[name]))]);
  const facets = list(q.facet);
  for (const f of facets) {
    if (!isFacet(f)) throw ApiError.of('invalidSearch', `facet '${f.slice(0, 40)}' does not exist. Facets: ${FACETS.join(', ')}.`);
  }
  const filters = new Map<FacetName, string[]>();
  for (const name of Object.keys(q)) {
    if (isFacet(name))
      filters.set(
        name,
        list(q[name]).map((v) => normaliseFacetValue(name, v)),
      );
    else if (name.endsWith('_fct'))
      throw ApiError.of('invalidSearch', `'${name.slice(0, 40)}' is not a facet to filter on. Facets: ${FACETS.join(', ')}.`);
  }
  const num = (name: string, fallback: number) => {
    const v = one(q, name);
    return v === undefined ? fallback : Number(v);
  };
  const offset = num('offset', 0);
  const cursorMark = one(q, 'cursorMark');
  if (cursorMark !== undefined && offset !== 0) {
    throw ApiError.of('invalidSearch', 'offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).');
  }
  if (cursorMark === '') throw ApiError.of('invalidSearch', "cursorMark is empty: send '*' to start deep paging.");
  const { sort, seed } = parseSort(one(q, 'sort'));
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([queryText, [...filters].sort(), sort]))
    .digest('base64url')
    .slice(0, 16);
  return {
    search: {
      query,
      filters,
      facets: [...new Set(facets)] as FacetName[],
      facetLimit: num('facet.limit', ENTITY_LIMITS.defaultFacetLimit),
      minDocs: num('minDocs', 0),
      sort,
      offset,
      rows: num('rows', ENTITY_LIMITS.defaultRows),
      cursorMark,
      ...(one(q, 'query') === undefined ? {} : { queryText: one(q, 'query')! }),
      fingerprint,
    },
    randomSeed: seed,
  };
}

export interface EntityRouteDeps {
  store: Store;
  config: Config;
  onRequest: onRequestHookHandler;
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
      { onRequest: deps.onRequest, schema: entitiesSchema, config: { parameterHints: ENTITY_PARAMETER_HINTS, digestValidators: true } },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const { search, randomSeed } = toEntitySearch(request.query as Query);
        if (wantsNdjson(request)) {
          const { query, filters } = entityEngineSearch(search).request;
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
        const result = await searches.run(search);
        return reply.header('Content-Type', rep.contentType).send(entitiesToJson(result, randomSeed));
      },
    );
  return searches;
}
