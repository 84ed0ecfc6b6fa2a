/**
 * GET /search/index/{index}/select, the Solr-native search of the DDB API's newer
 * generation (docs/search.md "Solr-native select"; ddb-openapi-6.8 getSolrSearch), which its clients call
 * (the `ddb search` command of @maschinenlesbar.org/deutsche-digitale-bibliothek-cli):
 * `search` is the item index, `person` the person index. The parameters are Solr's
 * (q, fq, fl, rows, start, sort, facet, facet.field, facet.limit, facet.mincount,
 * facet.sort, cursorMark, wt, q.op), the answer Solr's JSON, errors included
 * (../bodies/solrResponse.ts): a client of Solr reads `error.msg` and `error.code`.
 * The stored fields that `fl` picks are listed in docs/search.md "Solr-native select".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { solrErrorToJson, solrResponseToJson, type SolrParams } from '../bodies/solrResponse.js';
import { and } from '../../query/ast.js';
import { type Schema } from '../../search/engine/schema.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { personSchema } from '../../search/schemas/personSchema.js';
import { ITEM_FACETS } from '../../domain/itemFacets.js';
import type { FacetRequest, SearchRequest, SearchSort } from '../../search/engine/types.js';
import type { StoredValue } from '../../search/indexHost.js';
import type { SearchKind } from '../../domain/searchFeed.js';
import { apiErrorOf } from '../errorMapping.js';
import { jsonOnly } from '../formatChoice.js';
import { isCredentialParameter } from '../redact.js';
import { SEARCH_LIMITS, solrSelectSchema } from '../searchSchemas.js';
import { list, one, parseFor, type Query, type SearchService } from './searchEngine.js';

const INDEXES: Record<string, { kind: SearchKind; schema: Schema }> = {
  search: { kind: 'item', schema: itemSchema },
  person: { kind: 'person', schema: personSchema },
};

/** The stored fields of a hit (IndexHost's EngineAnswer.fields), per index. */
export const STORED_FIELDS: Record<SearchKind, readonly string[]> = {
  item: [
    'id',
    'title',
    'subtitle',
    'label',
    'thumbnail',
    'media',
    'category',
    'type',
    'latitude',
    'longitude',
    ...ITEM_FACETS,
    'begin_time',
    'end_time',
  ],
  person: [
    'id',
    'type',
    'preferredName',
    'variantName',
    'dateOfBirth',
    'dateOfDeath',
    'placeOfBirth',
    'placeOfDeath',
    'professionOrOccupation',
    'gender',
    'thumbnail',
    'count',
  ],
};

const bad = (msg: string) => ApiError.of('invalidSearch', msg);

/** Solr's sort: `score desc`, `id asc|desc`, `<sort key> asc|desc`, `random_<seed> asc`, optionally followed by `, id asc`. */
export function parseSolrSort(text: string | undefined, schema: Schema): SearchSort {
  if (text === undefined || text.trim() === '') return { kind: 'relevance' };
  const clauses = text.split(',').map((c) => c.trim().split(/\s+/));
  // Every order here ends with the id ascending already (cursors need no more).
  if (clauses.length === 2 && clauses[1]!.join(' ') === 'id asc') clauses.pop();
  const keys = schema.sortKeys.map((k) => k.name);
  const allowed = `score desc, id asc, id desc, ${keys.map((k) => `${k} asc, ${k} desc`).join(', ')} or random_<seed> asc`;
  if (clauses.length !== 1 || clauses[0]!.length !== 2)
    throw bad(`Can't use sort '${text.slice(0, 60)}': give one field and a direction, e.g. sort=score desc. Sorts: ${allowed}.`);
  const [field, dir] = clauses[0] as [string, string];
  if (dir !== 'asc' && dir !== 'desc') throw bad(`Unknown sort order '${dir.slice(0, 20)}' in sort: use asc or desc.`);
  const descending = dir === 'desc';
  if (field === 'score') {
    if (!descending) throw bad('sort=score asc is not offered: the relevance order is score desc.');
    return { kind: 'relevance' };
  }
  if (field === 'id') return { kind: 'id', descending };
  if (field.startsWith('random_') && field.length > 'random_'.length) {
    if (descending) throw bad(`sort=${field} desc is not offered: a random order is ${field} asc.`);
    return { kind: 'random', seed: field.slice('random_'.length) };
  }
  if (keys.includes(field)) return { kind: 'key', key: field, descending };
  throw bad(`Can't sort on '${field.slice(0, 40)}'. Sorts: ${allowed}.`);
}

/** `fl`: the stored fields to show and whether the score is one; `*` (the default) is every field. */
export function parseFieldList(text: string | undefined, stored: readonly string[]): { fields: readonly string[] | '*'; score: boolean } {
  const names = (text ?? '*').split(/[\s,]+/).filter((n) => n !== '');
  let all = names.length === 0;
  let score = false;
  const fields: string[] = [];
  for (const n of names) {
    if (n === '*') all = true;
    else if (n === 'score') score = true;
    else if (stored.includes(n)) fields.push(n);
    else
      throw bad(
        `fl names '${n.slice(0, 40)}', which is not a stored field. Stored fields: ${stored.join(', ')}; * for all, score for the score.`,
      );
  }
  return { fields: all ? '*' : fields, score };
}

function picked(doc: Record<string, StoredValue>, fields: readonly string[] | '*', score: number | undefined): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = {};
  if (fields === '*') Object.assign(out, doc);
  else for (const f of fields) if (doc[f] !== undefined) out[f] = doc[f]!;
  if (score !== undefined) out.score = score;
  return out;
}

function facetLimit(text: string | undefined): number {
  if (text === undefined) return SEARCH_LIMITS.defaultFacetLimit;
  if (!/^-?[0-9]{1,7}$/.test(text.trim()))
    throw bad(`facet.limit must be a whole number, or -1 for every value; got '${text.slice(0, 20)}'.`);
  const n = Number(text.trim());
  return n < 0 ? -1 : n;
}

export interface SolrSearch {
  kind: SearchKind;
  request: SearchRequest;
  fl: { fields: readonly string[] | '*'; score: boolean };
  facets: boolean;
  /** spellcheck=true: the answer has Solr's spellcheck block. */
  spellcheck: boolean;
}

export function toSolrSearch(index: string, q: Query): SolrSearch {
  const target = INDEXES[index];
  if (target === undefined) throw bad(`The index '${index.slice(0, 40)}' is not served here. Indexes: search (items), person (persons).`);
  const { kind, schema } = target;
  const wt = one(q, 'wt');
  if (wt !== undefined && wt !== 'json') throw bad(`wt=${wt.slice(0, 20)} is not offered: the answer is Solr's JSON (wt=json).`);
  const op = one(q, 'q.op');
  if (op !== undefined && op !== 'AND' && op !== 'OR') throw bad(`q.op must be AND or OR, not '${op.slice(0, 20)}'.`);
  const operator = op as 'AND' | 'OR' | undefined;
  const text = one(q, 'q');
  const fq = list(q.fq);
  if (fq.length > SEARCH_LIMITS.maxFilters) throw bad(`${fq.length} fq parameters are too many; at most ${SEARCH_LIMITS.maxFilters}.`);
  const query = and([
    parseFor(schema, text === undefined || text.trim() === '' ? '*:*' : text, SEARCH_LIMITS.maxQueryLength, operator),
    ...fq.filter((f) => f.trim() !== '').map((f) => parseFor(schema, f, SEARCH_LIMITS.maxQueryLength, operator)),
  ]);
  const start = Number(one(q, 'start') ?? 0);
  const cursor = one(q, 'cursorMark');
  if (cursor !== undefined && start !== 0)
    throw bad('Cursor functionality requires start=0: page with cursorMark alone (start with cursorMark=*).');
  if (cursor === '') throw bad("cursorMark is empty: send '*' to start deep paging.");
  const facetOn = one(q, 'facet');
  const facets = facetOn === 'true' || facetOn === 'on';
  const facetRequests: FacetRequest[] = [];
  if (facets) {
    const limit = facetLimit(one(q, 'facet.limit'));
    const mincount = Number(one(q, 'facet.mincount') ?? 0);
    const sort = (one(q, 'facet.sort') ?? (limit > 0 ? 'count' : 'index')) as 'count' | 'index';
    for (const field of new Set(list(q['facet.field']))) {
      if (!schema.facets.includes(field))
        throw bad(`facet.field '${field.slice(0, 40)}' is not a facet of the ${index} index. Facets: ${schema.facets.join(', ')}.`);
      facetRequests.push({ field, limit, mincount, sort });
    }
  }
  const request: SearchRequest = {
    query,
    facets: facetRequests,
    sort: parseSolrSort(one(q, 'sort'), schema),
    offset: start,
    rows: Number(one(q, 'rows') ?? SEARCH_LIMITS.solrDefaultRows),
  };
  if (cursor !== undefined) request.cursor = cursor;
  // Solr's spellcheck component (docs/search-engine.md "Spellcheck"): spellcheck=true, spellcheck.minHits (default 1).
  const spell = one(q, 'spellcheck');
  const spellcheck = spell === 'true' || spell === 'on';
  if (spellcheck && text !== undefined && text.trim() !== '') {
    const minHits = Number(one(q, 'spellcheck.minHits') ?? 1);
    if (!Number.isSafeInteger(minHits) || minHits < 0)
      throw bad(`spellcheck.minHits must be a whole number ≥ 0, not '${String(one(q, 'spellcheck.minHits')).slice(0, 20)}'.`);
    request.spellcheck = { minHits, text };
  }
  return { kind, request, spellcheck, fl: parseFieldList(one(q, 'fl'), STORED_FIELDS[kind]), facets };
}

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
  onRequest: onRequestHookHandler;
  search: SearchService;
}

export function registerSolrRoutes(app: FastifyInstance, deps: SolrRouteDeps): void {
  const { config, onRequest, search } = deps;
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
    { onRequest, schema: solrSelectSchema, errorHandler, config: { digestValidators: false } },
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
        docs: stored.map((doc, i) => picked(doc, s.fl.fields, s.fl.score ? answer.scores[i] : undefined)),
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
