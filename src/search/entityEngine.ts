/**
 * The entity search (GET /entities: spec 2.1, 2.2, 4.2; docs/decisions.md "Entity search") as a
 * search of the engine over `personSchema` (one engine for items and persons,
 * docs/decisions.md "Item search"), and its answer back.
 *
 * Orders as docs/api.md "Relevance" documents them, which the engine gives as `tiers`
 * sorts: relevance = exact preferred name, then all the query's words in the preferred
 * name, then the rest, each by count descending, then name; COUNT_DESC = count, name;
 * ALPHA_* by the folded name; then the id. RANDOM_<seed> hashes seed and id.
 *
 * The cursor mark wraps the engine's cursor with the route's fingerprint, so that a mark is
 * checked with the messages /entities has always given.
 */
import type { QueryNode } from '../query/ast.js';
import type { SearchRequest, SearchSort } from './engine/types.js';
import { SearchRequestError, type EntitySearch, type EntitySearchResult, type FacetResult } from './entitySearch.js';
import { tokens } from './engine/fold.js';
import type { EngineAnswer, EngineSearch } from './indexHost.js';

const BY_COUNT = [
  { key: 'count', descending: true },
  { key: 'preferredName', descending: false },
] as const;

/** Text terms a relevance tier looks for in the preferred name: plain or preferredName terms outside NOT. */
function positiveNameTerms(node: QueryNode): string[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(positiveNameTerms);
    case 'term':
    case 'phrase':
      return (node.field === null || node.field === 'preferredName') && tokens(node.text).length > 0 ? [node.text] : [];
    default:
      return [];
  }
}

function engineSort(search: EntitySearch): SearchSort {
  const sort = search.sort;
  switch (sort.kind) {
    case 'alpha':
      return { kind: 'key', key: 'preferredName', descending: sort.descending };
    case 'count':
      return { kind: 'tiers', exact: false, tiers: [], keys: BY_COUNT };
    case 'random':
      return { kind: 'random', seed: sort.seed };
    case 'relevance': {
      const terms = positiveNameTerms(search.query);
      if (terms.length === 0) return { kind: 'tiers', exact: false, tiers: [], keys: BY_COUNT };
      const inName: QueryNode<string> = { kind: 'and', children: terms.map((text) => ({ kind: 'phrase', field: 'preferredName', text })) };
      return { kind: 'tiers', exact: true, tiers: [inName], keys: BY_COUNT };
    }
  }
}

function wrapCursor(fingerprint: string, cursor: string): string {
  return Buffer.from(JSON.stringify([fingerprint, cursor])).toString('base64url');
}

/** The engine's cursor inside a cursor mark of this search. */
function unwrapCursor(mark: string, fingerprint: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(mark, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
    throw new SearchRequestError("cursorMark is not valid: send '*' to start, then the nextCursorMark of the previous response.");
  }
  if (parsed[0] !== fingerprint) {
    throw new SearchRequestError(
      'cursorMark belongs to another search: keep query, filters and sort the same while paging, or start again with cursorMark=*.',
    );
  }
  return parsed[1];
}

/** The engine search of an entity search; throws SearchRequestError for a cursor mark that is not this search's. */
export function entityEngineSearch(search: EntitySearch): EngineSearch {
  const filters: Record<string, readonly string[]> = {};
  for (const [facet, values] of search.filters) filters[facet] = values;
  const mark = search.cursorMark;
  const request: SearchRequest = {
    query: search.query,
    filters,
    // minDocs: a value is listed when its count exceeds it (Solr's mincount is "at least").
    facets: search.facets.map((field) => ({ field, limit: search.facetLimit, mincount: search.minDocs + 1, sort: 'count' })),
    sort: engineSort(search),
    offset: search.offset,
    rows: search.rows,
    ...(mark === undefined ? {} : { cursor: mark === '*' ? '*' : unwrapCursor(mark, search.fingerprint) }),
    // Did you mean (docs/search-engine.md "Spellcheck"): the API's default minHits is 1.
    ...(search.queryText === undefined || search.queryText.trim() === '' ? {} : { spellcheck: { minHits: 1, text: search.queryText } }),
  };
  return { kind: 'person', request };
}

/** The engine's answer as the entity search's result. */
export function entityResult(search: EntitySearch, answer: EngineAnswer): EntitySearchResult {
  let nextCursorMark: string | undefined;
  if (search.cursorMark !== undefined) {
    // An empty page answers the mark it was sent, as before (the end is reached).
    nextCursorMark = answer.ids.length === 0 ? search.cursorMark : wrapCursor(search.fingerprint, answer.nextCursor!);
  }
  return {
    total: answer.total,
    docs: answer.docs,
    facets: answer.facets as FacetResult[],
    highlightedTerms: answer.matchedTerms,
    correctedQuery: answer.correctedQuery ?? '',
    nextCursorMark,
  };
}
