/**
 * What the scale benchmark (bench/scale.ts) asks its search threads (bench/scaleWorker.ts),
 * and how a row of `npm run bench`, given as the path the HTTP bench requests, becomes the
 * engine searches the server runs for it: the route's own translation
 * (src/http/searchRequest: toItemSearch with its person search beside it, toPersonSearch,
 * toSolrSearch, the suggestion's limit), so the rows are the same searches without HTTP.
 */
import { toItemSearch } from '../src/http/searchRequest/itemSearch.js';
import { toPersonSearch } from '../src/http/searchRequest/personSearch.js';
import { toSolrSearch } from '../src/http/searchRequest/solrSearch.js';
import type { Query } from '../src/http/searchRequest/queryParameters.js';
import { SEARCH_LIMITS } from '../src/http/searchSchemas.js';
import type { SearchKind } from '../src/domain/searchFeed.js';
import type { FacetCounts, SearchRequest } from '../src/search/engine/types.js';

export interface ScaleSetup {
  dir: string;
  identity: string;
  /** The generation read once by the process (readSharedIndexes), with two threads or more; absent: the thread reads the files. */
  shared?: unknown;
}

export type ScaleOp =
  | { op: 'engine'; kind: SearchKind; request: SearchRequest }
  /** Shard `shard` of `shards` of one search scattered over the threads (SearchIndex.searchPart), as the server's pool does. */
  | { op: 'part'; kind: SearchKind; request: SearchRequest; shard: number; shards: number }
  | { op: 'suggest'; kind: SearchKind; prefix: string; limit: number }
  | { op: 'personTerms' }
  | { op: 'itemTerms' }
  /** The thread's live JS heap in bytes, after a full collection when the process runs with --expose-gc. */
  | { op: 'heap' };

/** The person rows' terms (bench/cases.ts entitySearchCases), and common ones to misspell. */
export interface PersonTerms {
  rare: string;
  common: string;
  veryCommon: string;
  spell: string[];
  hits: Record<'rare' | 'common' | 'veryCommon', number>;
}

export interface ToScaleWorker {
  id: number;
  op: ScaleOp;
}

export type ScaleAnswer =
  | { type: 'ready'; ms: number; kinds: Record<string, number>; heap: number }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'failed'; id: number; message: string };

export interface EngineHits {
  total: number;
  ids: string[];
  facets: FacetCounts[];
  nextCursor?: string;
  correctedQuery?: string;
}

function queryOf(path: string): { route: string; q: Query } {
  const url = new URL(path, 'http://bench');
  const q: Query = {};
  for (const [k, v] of url.searchParams) {
    const was = q[k];
    q[k] = was === undefined ? v : Array.isArray(was) ? [...was, v] : [String(was), v];
  }
  return { route: url.pathname, q };
}

/** The engine ops the server runs for a request path of the bench's rows (they run at once, as the route awaits them together). */
export function opsOf(path: string): ScaleOp[] {
  const { route, q } = queryOf(path);
  if (route === '/search') {
    const s = toItemSearch(q);
    const ops: ScaleOp[] = [{ op: 'engine', kind: 'item', request: s.request }];
    if (s.persons) ops.push({ op: 'engine', kind: 'person', request: s.persons });
    return ops;
  }
  if (route === '/entities' || route === '/search/person') return [{ op: 'engine', kind: 'person', request: toPersonSearch(q).request }];
  const select = /^\/search\/index\/(\w+)\/select$/.exec(route);
  if (select) {
    const s = toSolrSearch(select[1]!, q);
    return [{ op: 'engine', kind: s.kind, request: s.request }];
  }
  if (route === '/search/suggest' || route === '/entities/suggest') {
    const prefix = String(q.query ?? '');
    const limit = Number(q.rows ?? SEARCH_LIMITS.defaultSuggestions);
    return [{ op: 'suggest', kind: route === '/search/suggest' ? 'item' : 'person', prefix, limit }];
  }
  throw new Error(`bench/scaleOps.ts: no engine translation for ${path}`);
}

/**
 * The answer's fields the bench's helpers read (bench/itemSearch.ts itemCursorWalk,
 * bench/pageCases.ts misspelling, the facets), as the v1 JSON body has them: numberOfResults,
 * the docs' ids, the facets, nextCursorMark, correctedQuery.
 */
export function v1Body(path: string, hits: EngineHits): Buffer {
  const person = queryOf(path).route === '/entities';
  const docs = hits.ids.map((id) => ({ id }));
  const body = {
    numberOfResults: hits.total,
    results: [{ docs }],
    facets: hits.facets.map((f) => ({ field: f.field, facetValues: f.values })),
    correctedQuery: hits.correctedQuery ?? '',
    // The person route wraps the engine's cursor; the bench's item walk reads the item one.
    ...(hits.nextCursor !== undefined && !person ? { nextCursorMark: hits.nextCursor } : {}),
  };
  return Buffer.from(JSON.stringify(body));
}
