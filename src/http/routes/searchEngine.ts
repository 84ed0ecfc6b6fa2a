/**
 * What the search routes need of the search service: the engine's search and
 * suggestions, as the search runner gives them (src/search/searchPool.ts runs the engine
 * in its workers), and the query-string helpers they share. Errors: the service throws
 * the search's coded errors (src/errorCodes.ts), answered by ../errorMapping.ts (a 400 for a
 * request the engine cannot answer, a 503 past the time budget).
 */
import { ApiError } from '../../errors.js';
import { parseQuery, type QueryNode } from '../../query/parse.js';
import { queryFields, type Schema } from '../../search/engine/schema.js';
import type { EngineAnswer, EngineSearch } from '../../search/indexHost.js';
import type { SearchKind } from '../../domain/searchFeed.js';

export interface SearchService {
  engine(search: EngineSearch): Promise<EngineAnswer>;
  suggest(kind: SearchKind, prefix: string, limit: number): Promise<string[]>;
}

export type Query = Record<string, string | string[] | number | undefined>;

export const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** A parameter that must come at most once. */
export function one(q: Query, name: string): string | undefined {
  const v = q[name];
  if (Array.isArray(v)) {
    if (v.length > 1) throw ApiError.of('invalidSearch', `The parameter ${name} is given ${v.length} times; send it once.`);
    return v[0] === undefined ? undefined : String(v[0]);
  }
  return v === undefined ? undefined : String(v);
}

/** Parses a query over a schema's fields; a syntax error is the catalog's 400 with its position (../errorMapping.ts). */
export function parseFor(schema: Schema, text: string, maxLength: number, defaultOperator: 'AND' | 'OR' = 'AND'): QueryNode<string> {
  return parseQuery(text, { fields: queryFields(schema), maxLength, defaultOperator });
}
