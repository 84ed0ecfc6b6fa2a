/**
 * Cursor marks for deep paging (decisions.md: cursorMark / nextCursorMark,
 * as Solr's). A mark names the last row of the page and its sort key, and
 * the search it belongs to, so it cannot be reused for another query.
 */
import { SearchRequestError } from './entitySearch.js';

export function encodeCursor(fingerprint: string, row: number, key: number): string {
  return Buffer.from(JSON.stringify([fingerprint, row, key])).toString('base64url');
}

export function decodeCursor(mark: string, fingerprint: string): { row: number; key: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(mark, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[1] !== 'number' || typeof parsed[2] !== 'number') {
    throw new SearchRequestError("cursorMark is not valid: send '*' to start, then the nextCursorMark of the previous response.");
  }
  if (parsed[0] !== fingerprint) {
    throw new SearchRequestError('cursorMark belongs to another search: keep query, filters and sort the same while paging, or start again with cursorMark=*.');
  }
  return { row: parsed[1], key: parsed[2] };
}
