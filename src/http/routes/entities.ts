/**
 * GET /entities: the person search (spec 2.1, 2.2, 4.2; decisions.md
 * "Entity search"). Turns query parameters into an EntitySearch, checks
 * them with messages that say what to fix, and renders the result.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { entitiesToJson } from '../../formats/entities.js';
import { parseQuery, QuerySyntaxError } from '../../query/parse.js';
import { FACETS, type EntitySearch, type EntitySort, type FacetName } from '../../search/entitySearch.js';
import { normaliseFacetValue, normaliseQuery } from '../../search/personFields.js';
import { createSearchRunner } from '../../search/searchPool.js';
import type { Store } from '../../store/Store.js';
import { jsonOnly } from '../formatChoice.js';
import { entitiesSchema, ENTITY_LIMITS } from '../schemas.js';

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
  throw ApiError.of('invalidSearch', `sort '${t.slice(0, 40)}' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>.`);
}

function isFacet(name: string): name is FacetName {
  return (FACETS as readonly string[]).includes(name);
}

export function toEntitySearch(q: Query): { search: EntitySearch; randomSeed: string } {
  const queryText = one(q, 'query') ?? '*:*';
  let query;
  try {
    query = normaliseQuery(parseQuery(queryText, { maxLength: ENTITY_LIMITS.maxQueryLength }));
  } catch (e) {
    if (e instanceof QuerySyntaxError) throw ApiError.of('invalidQuery', e.message);
    throw e;
  }
  const facets = list(q.facet);
  for (const f of facets) {
    if (!isFacet(f)) throw ApiError.of('invalidSearch', `facet '${f.slice(0, 40)}' does not exist. Facets: ${FACETS.join(', ')}.`);
  }
  const filters = new Map<FacetName, string[]>();
  for (const name of Object.keys(q)) {
    if (isFacet(name)) filters.set(name, list(q[name]).map((v) => normaliseFacetValue(name, v)));
    else if (name.endsWith('_fct')) throw ApiError.of('invalidSearch', `'${name.slice(0, 40)}' is not a facet to filter on. Facets: ${FACETS.join(', ')}.`);
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
      fingerprint,
    },
    randomSeed: seed,
  };
}

export interface EntityRouteDeps {
  store: Store;
  config: Config;
  onRequest: onRequestHookHandler;
}

export function registerEntityRoutes(app: FastifyInstance, deps: EntityRouteDeps): void {
  // Searches run off the event loop, within a time budget (issue #13; src/search/searchPool.ts).
  const searches = createSearchRunner(deps.store, deps.config.search);
  // A listening server starts its workers at once; inject() in tests starts them with the first search.
  app.addHook('onListen', (done) => {
    searches.start();
    done();
  });
  app.addHook('onClose', async () => searches.close());
  app.get('/entities', { onRequest: deps.onRequest, schema: entitiesSchema }, async (request: FastifyRequest, reply: FastifyReply) => {
    const rep = jsonOnly(request, deps.config.http.requireAccept);
    const { search, randomSeed } = toEntitySearch(request.query as Query);
    const result = await searches.run(search);
    return reply.header('Content-Type', rep.contentType).send(entitiesToJson(result, randomSeed));
  });
}
