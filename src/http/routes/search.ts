/**
 * v1 GET /search, the item search (docs/search.md; ddb-openapi-6.8 getSearch), with
 * /search/facets, /search/sortcriteria and /search/suggest and their /search/person forms.
 * Each is answered under /2 too (../generation.ts). The engine runs in the
 * search service (./searchEngine.ts); this file turns parameters into an engine request,
 * with messages that say what to fix, and renders the answer. docs/search.md describes
 * the fields, facets and sorts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { exportHits } from '../../search/exportHits.js';
import { afterIdOf, sendNdjson, wantsNdjson } from '../ndjson.js';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { searchResultToJson } from '../bodies/searchResult.js';
import { and, or, type QueryNode } from '../../query/ast.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { personSchema } from '../../search/schemas/personSchema.js';
import { ITEM_FACETS } from '../../domain/itemFacets.js';
import type { FacetRequest, SearchRequest, SearchSort } from '../../search/engine/types.js';
import { jsonOnly } from '../formatChoice.js';
import {
  facetsSchema,
  ITEM_FIELD_PARAMETERS,
  SEARCH_LIMITS,
  SEARCH_PARAMETER_HINTS,
  searchSchema,
  sortCriteriaSchema,
  suggestSchema,
} from '../searchSchemas.js';
import { list, one, parseFor, type Query, type SearchService } from './searchEngine.js';

const FACET_NAMES: readonly string[] = ITEM_FACETS;

function parseSort(text: string | undefined): { sort: SearchSort; seed: string } {
  const t = (text ?? '').trim();
  const upper = t.toUpperCase();
  if (t === '' || upper === 'RELEVANCE') return { sort: { kind: 'relevance' }, seed: '' };
  if (upper === 'ALPHA_ASC' || upper === 'ALPHA_DESC')
    return { sort: { kind: 'key', key: 'title', descending: upper === 'ALPHA_DESC' }, seed: '' };
  if (upper.startsWith('RANDOM_') && t.length > 'RANDOM_'.length) {
    const seed = t.slice('RANDOM_'.length);
    return { sort: { kind: 'random', seed }, seed };
  }
  throw ApiError.of('invalidSearch', `sort '${t.slice(0, 40)}' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC or RANDOM_<seed>.`);
}

/** The per-field parameters (title=…, place=…) as query clauses: a phrase each, an id a term. */
function fieldClauses(q: Query): QueryNode<string>[] {
  const clauses: QueryNode<string>[] = [];
  for (const field of ITEM_FIELD_PARAMETERS) {
    for (const value of list(q[field])) {
      if (value.length > SEARCH_LIMITS.maxQueryLength) {
        throw ApiError.of(
          'invalidSearch',
          `The value of ${field} is ${value.length} characters long; at most ${SEARCH_LIMITS.maxQueryLength} are read.`,
        );
      }
      if (value.trim() === '')
        throw ApiError.of('invalidSearch', `${field} is empty: give the text to look for, or leave the parameter out.`);
      clauses.push(field === 'id' ? { kind: 'term', field, text: value } : { kind: 'phrase', field, text: value });
    }
  }
  return clauses;
}

function facetFilters(q: Query): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const name of FACET_NAMES) {
    const values = list(q[name]);
    if (values.length === 0) continue;
    if (values.some((v) => v === ''))
      throw ApiError.of('invalidSearch', `${name} is empty: give a value to keep (facet=${name} lists them), or leave the parameter out.`);
    filters[name] = values;
  }
  return filters;
}

/**
 * The persons shown beside the items (`entities`): those whose preferred or variant name
 * holds the query's free words (terms, phrases and prefixes without a field, outside NOT),
 * combined as the query combines them; none when the query has no free words.
 */
export function entityQuery(node: QueryNode<string>): QueryNode<string> | undefined {
  switch (node.kind) {
    case 'term':
    case 'phrase':
    case 'prefix':
      if (node.field !== null) return undefined;
      return or([
        { ...node, field: 'preferredName' },
        { ...node, field: 'variantName' },
      ]);
    case 'and':
    case 'or': {
      const parts = node.children.map(entityQuery).filter((c): c is QueryNode<string> => c !== undefined);
      if (parts.length === 0) return undefined;
      return node.kind === 'and' ? and(parts) : or(parts);
    }
    default:
      return undefined;
  }
}

export interface ItemSearch {
  request: SearchRequest;
  persons: SearchRequest | undefined;
  randomSeed: string;
}

export function toItemSearch(q: Query): ItemSearch {
  const operator = one(q, 'defaultOperator');
  if (operator !== undefined && operator !== 'AND' && operator !== 'OR')
    throw ApiError.of('invalidSearch', `defaultOperator must be AND or OR, not '${operator.slice(0, 20)}'.`);
  const text = one(q, 'query');
  const main = parseFor(
    itemSchema,
    text === undefined || text.trim() === '' ? '*:*' : text,
    SEARCH_LIMITS.maxQueryLength,
    operator as 'AND' | 'OR' | undefined,
  );
  const query = and([main, ...fieldClauses(q)]);
  const facetNames = [...new Set(list(q.facet))];
  for (const f of facetNames) {
    if (!FACET_NAMES.includes(f))
      throw ApiError.of('invalidSearch', `facet '${f.slice(0, 40)}' is not a facet of this index. Facets: ${FACET_NAMES.join(', ')}.`);
  }
  const num = (name: string, fallback: number) => {
    const v = one(q, name);
    return v === undefined ? fallback : Number(v);
  };
  const offset = num('offset', 0);
  const cursor = one(q, 'cursorMark');
  if (cursor !== undefined && offset !== 0)
    throw ApiError.of('invalidSearch', 'offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).');
  if (cursor === '') throw ApiError.of('invalidSearch', "cursorMark is empty: send '*' to start deep paging.");
  const { sort, seed } = parseSort(one(q, 'sort'));
  const limit = num('facet.limit', SEARCH_LIMITS.defaultFacetLimit);
  const mincount = num('minDocs', 0) + 1;
  const facets: FacetRequest[] = facetNames.map((field) => ({ field, limit, mincount, sort: 'count' }));
  const request: SearchRequest = { query, filters: facetFilters(q), facets, sort, offset, rows: num('rows', SEARCH_LIMITS.defaultRows) };
  if (cursor !== undefined) request.cursor = cursor;
  // Did you mean (docs/search-engine.md "Spellcheck"): the API's default minHits is 1.
  if (text !== undefined && text.trim() !== '') request.spellcheck = { minHits: 1, text };
  const names = entityQuery(main);
  const persons: SearchRequest | undefined = names && {
    query: names,
    sort: { kind: 'relevance' },
    offset: 0,
    rows: SEARCH_LIMITS.entities,
  };
  return { request, persons, randomSeed: seed };
}

export interface SearchRouteDeps {
  config: Config;
  onRequest: onRequestHookHandler;
  search: SearchService;
}

/** How each facet is shown by /search/facets?type=… (docs/search.md "Facets"). */
const ITEM_FACET_TYPES: Record<string, 'SEARCH' | 'EXTENDED' | 'TECHNICAL'> = Object.fromEntries(
  ITEM_FACETS.map((f) => [
    f,
    f.endsWith('_normdata')
      ? 'TECHNICAL'
      : ['time_fct', 'place_fct', 'affiliate_fct', 'keywords_fct', 'language_fct', 'type_fct', 'sector_fct', 'provider_fct'].includes(f)
        ? 'SEARCH'
        : 'EXTENDED',
  ]),
);
const PERSON_FACET_TYPES: Record<string, 'SEARCH'> = Object.fromEntries(personSchema.facets.map((f) => [f, 'SEARCH' as const]));

const SORTS = {
  item: { sortCriteria: ['RELEVANCE', 'ALPHA_ASC', 'ALPHA_DESC', 'RANDOM_<seed>'], defaultSortCriterion: 'RELEVANCE' },
  person: { sortCriteria: ['RELEVANCE', 'ALPHA_ASC', 'ALPHA_DESC', 'COUNT_DESC', 'RANDOM_<seed>'], defaultSortCriterion: 'RELEVANCE' },
} as const;

export function registerSearchRoutes(app: FastifyInstance, deps: SearchRouteDeps): void {
  const { config, onRequest, search } = deps;
  const json = (request: FastifyRequest) => jsonOnly(request, config.http.requireAccept).contentType;
  const cached = { onRequest, config: { digestValidators: true } };

  app.get(
    '/search',
    { ...cached, schema: searchSchema, config: { ...cached.config, parameterHints: SEARCH_PARAMETER_HINTS } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const s = toItemSearch(request.query as Query);
      if (wantsNdjson(request)) {
        const { query, filters } = s.request;
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
      const [items, persons] = await Promise.all([
        search.engine({ kind: 'item', request: s.request }),
        s.persons ? search.engine({ kind: 'person', request: s.persons }) : undefined,
      ]);
      const body = searchResultToJson({
        total: items.total,
        docs: items.docs,
        facets: items.facets,
        entities: persons?.docs ?? [],
        correctedQuery: items.correctedQuery ?? '',
        highlightedTerms: items.matchedTerms,
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
      const prefixText = one(q, 'query') ?? '';
      if (prefixText.length > SEARCH_LIMITS.maxQueryLength) {
        throw ApiError.of(
          'invalidSearch',
          `query is ${prefixText.length} characters long; a prefix of at most ${SEARCH_LIMITS.maxQueryLength} is read.`,
        );
      }
      if (prefixText.trim() === '')
        throw ApiError.of('invalidSearch', 'query is empty: give the first letters of a title (of a name) to complete.');
      const rows = Number(one(q, 'rows') ?? SEARCH_LIMITS.defaultSuggestions);
      const suggestions = await search.suggest(kind, prefixText, rows);
      return reply.header('Content-Type', type).send(JSON.stringify(suggestions));
    });
  }
}
