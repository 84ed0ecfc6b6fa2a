/**
 * Paging of a search: a page by offset and rows, or deep paging by cursor (docs/search.md
 * "`GET /search`"). The v1 searches name the offset `offset`, Solr names it `start`; the two do not
 * go together with `cursorMark`, which is `*` to start, then the last answer's nextCursorMark.
 */
import { ApiError } from '../../errors.js';
import { one, type Query } from './queryParameters.js';

export interface Paging {
  offset: number;
  rows: number;
  /** `*` or a nextCursorMark; absent: offset paging. */
  cursor?: string;
}

export interface PagingDialect {
  /** The name of the offset: `offset` (v1) or `start` (Solr). */
  offset: 'offset' | 'start';
  /** Rows when the request names none. */
  defaultRows: number;
}

export function readPaging(q: Query, dialect: PagingDialect): Paging {
  const offset = Number(one(q, dialect.offset) ?? 0);
  const cursor = one(q, 'cursorMark');
  if (cursor !== undefined && offset !== 0)
    throw ApiError.of(
      'invalidSearch',
      dialect.offset === 'start'
        ? // Solr's own words for it.
          'Cursor functionality requires start=0: page with cursorMark alone (start with cursorMark=*).'
        : 'offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).',
    );
  if (cursor === '') throw ApiError.of('invalidSearch', "cursorMark is empty: send '*' to start deep paging.");
  const rows = Number(one(q, 'rows') ?? dialect.defaultRows);
  return cursor === undefined ? { offset, rows } : { offset, rows, cursor };
}
