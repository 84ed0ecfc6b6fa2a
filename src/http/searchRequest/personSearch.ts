/**
 * GET /search/person (and /entities, its 2.6.1 name) as a request of the engine over the
 * person schema (docs/api.md "`GET /entities`", its "Relevance"), and the engine's
 * answer back as the body's result. /search/person/facets/{facetName} reads the same
 * parameters.
 *
 * What sets the person search apart from the item search, kept as it has always answered:
 * the query is read over the person fields of the parser (src/query/ast.ts QUERY_FIELDS)
 * and an empty `query` is an error, not every person; genders are read in either
 * vocabulary; its orders are tiers (exact preferred name, all the query's words in the
 * preferred name, the rest; each by count descending, then name); and its cursor mark
 * wraps the engine's cursor with a fingerprint of the search, so that a mark of another
 * search is refused with a message about cursorMark.
 */
import { createHash } from 'node:crypto';
import { and, type QueryNode } from '../../query/ast.js';
import { PERSON_FACETS } from '../../domain/personFacets.js';
import { ApiError } from '../../errors.js';
import { tokens } from '../../search/engine/fold.js';
import type { SearchRequest, SearchSort } from '../../search/engine/types.js';
import type { EngineAnswer } from '../../search/indexHost.js';
import { normaliseFacetValue, normaliseQuery } from '../../search/schemas/personFields.js';
import type { EntitiesResult } from '../bodies/entities.js';
import { ENTITY_FIELD_PARAMETERS, ENTITY_LIMITS } from '../schemas.js';
import { fieldClauses, type FieldParameter } from './fieldClauses.js';
import { parseQueryText } from './parseQueryText.js';
import { list, one, type Query } from './queryParameters.js';
import { readFacets } from './readFacets.js';
import { readFilters } from './readFilters.js';
import { readPaging } from './readPaging.js';
import { PERSON_SORTS, readSort, type NamedSort } from './readSort.js';

const FACETS: readonly string[] = PERSON_FACETS;

/** Each per-field parameter (2.6.1's `preferredName=Goethe`) a phrase on its field, `count` a number. */
const FIELD_PARAMETERS: Record<string, FieldParameter> = Object.fromEntries(
  Object.entries(ENTITY_FIELD_PARAMETERS).map(([name, field]) => [name, { field, as: field === 'count' ? 'number' : 'phrase' }]),
);

const BY_COUNT = [
  { key: 'count', descending: true },
  { key: 'preferredName', descending: false },
] as const;

/** Text terms a relevance tier looks for in the preferred name: plain or preferredName terms outside NOT. */
function positiveNameTerms(node: QueryNode<string>): string[] {
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

/**
 * What the person sorts mean (docs/api.md "Relevance"): relevance = exact preferred name,
 * then all the query's words in the preferred name, then the rest, each by count
 * descending, then name; COUNT_DESC = count, name; ALPHA_* by the folded name; then the
 * id. RANDOM_<seed> hashes seed and id.
 */
function personSort(sort: NamedSort, query: QueryNode<string>): SearchSort {
  switch (sort.kind) {
    case 'alpha':
      return { kind: 'key', key: 'preferredName', descending: sort.descending };
    case 'count':
      return { kind: 'tiers', exact: false, tiers: [], keys: BY_COUNT };
    case 'random':
      return { kind: 'random', seed: sort.seed };
    case 'relevance': {
      const terms = positiveNameTerms(query);
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
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string')
    throw ApiError.of('invalidSearch', "cursorMark is not valid: send '*' to start, then the nextCursorMark of the previous response.");
  if (parsed[0] !== fingerprint)
    throw ApiError.of(
      'invalidSearch',
      'cursorMark belongs to another search: keep query, filters and sort the same while paging, or start again with cursorMark=*.',
    );
  return parsed[1];
}

export interface PersonSearch {
  request: SearchRequest;
  /** The seed of a random order, answered as `randomSeed` ("" for any other order). */
  randomSeed: string;
  /** The cursorMark as sent; absent: offset paging. */
  cursorMark?: string;
  /** Identifies query, filters and sort, so that a cursor is not reused for another search. */
  fingerprint: string;
}

export function toPersonSearch(q: Query): PersonSearch {
  const text = one(q, 'query');
  const query = normaliseQuery(
    and([
      parseQueryText(text ?? '*:*', { maxLength: ENTITY_LIMITS.maxQueryLength }),
      ...fieldClauses(q, FIELD_PARAMETERS, ENTITY_LIMITS.maxQueryLength),
    ]),
  );
  const facets = readFacets(q, {
    facets: FACETS,
    defaultLimit: ENTITY_LIMITS.defaultFacetLimit,
    unknown: (f) => `facet '${f.slice(0, 40)}' does not exist. Facets: ${FACETS.join(', ')}.`,
  });
  for (const name of Object.keys(q))
    if (name.endsWith('_fct') && !FACETS.includes(name))
      throw ApiError.of('invalidSearch', `'${name.slice(0, 40)}' is not a facet to filter on. Facets: ${FACETS.join(', ')}.`);
  const filters = readFilters(q, { facets: FACETS, normalise: normaliseFacetValue });
  const { cursor: cursorMark, ...page } = readPaging(q, { offset: 'offset', defaultRows: ENTITY_LIMITS.defaultRows });
  const { sort, seed } = readSort(one(q, 'sort'), PERSON_SORTS);
  // The per-field parameters count in the fingerprint as the query does.
  const queryText = JSON.stringify([text ?? '*:*', ...Object.keys(ENTITY_FIELD_PARAMETERS).map((name) => list(q[name]))]);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([queryText, Object.entries(filters).sort(), sort]))
    .digest('base64url')
    .slice(0, 16);
  const request: SearchRequest = {
    query,
    filters,
    facets,
    sort: personSort(sort, query),
    ...page,
    ...(cursorMark === undefined ? {} : { cursor: cursorMark === '*' ? '*' : unwrapCursor(cursorMark, fingerprint) }),
    // Did you mean (docs/search-engine.md "Spellcheck"): the API's default minHits is 1.
    ...(text === undefined || text.trim() === '' ? {} : { spellcheck: { minHits: 1, text } }),
  };
  return { request, randomSeed: seed, fingerprint, ...(cursorMark === undefined ? {} : { cursorMark }) };
}

/** The engine's answer to a person search as the body's result. */
export function personResult(search: PersonSearch, answer: EngineAnswer): EntitiesResult {
  // An empty page answers the mark it was sent (the end is reached).
  const mark = search.cursorMark;
  const nextCursorMark =
    mark === undefined ? undefined : answer.ids.length === 0 ? mark : wrapCursor(search.fingerprint, answer.nextCursor!);
  return {
    total: answer.total,
    docs: answer.docs,
    facets: answer.facets,
    highlightedTerms: answer.matchedTerms,
    correctedQuery: answer.correctedQuery ?? '',
    nextCursorMark,
  };
}
