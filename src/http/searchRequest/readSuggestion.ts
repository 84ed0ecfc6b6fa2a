/**
 * The suggestions of a search (`/search/suggest`, `/search/person/suggest`,
 * `/search/organization/suggest`; docs/search.md "Suggestions"): `query`, the first letters
 * to complete, and `rows`, how many completions at most.
 */
import { ApiError } from '../../errors.js';
import { one, type Query } from './queryParameters.js';

export interface SuggestionDialect {
  /** What is completed, for the message on an empty prefix: "a name", "a title (of a name)". */
  completes: string;
  maxLength: number;
  defaultRows: number;
}

export function readSuggestion(q: Query, dialect: SuggestionDialect): { prefix: string; rows: number } {
  const prefix = one(q, 'query') ?? '';
  if (prefix.length > dialect.maxLength)
    throw ApiError.of('invalidSearch', `query is ${prefix.length} characters long; a prefix of at most ${dialect.maxLength} is read.`);
  if (prefix.trim() === '')
    throw ApiError.of('invalidSearch', `query is empty: give the first letters of ${dialect.completes} to complete.`);
  return { prefix, rows: Number(one(q, 'rows') ?? dialect.defaultRows) };
}
