/**
 * The stable codes of the errors raised below HTTP that a request can meet: the query
 * parser's, the search's and the store's. Each error class carries its code (`code`), and
 * the HTTP layer turns an error into the catalog's answer by that code alone, in one
 * function (src/http/errorMapping.ts), never by the class's name. docs/errors.md
 * "Internal error codes" lists them, generated from this table by `npm run docs:errors`.
 *
 * A code is data, so it survives the trip from a search worker thread or another process
 * of the node (src/search/searchPool.ts, src/search/ipcSearch.ts) where a class would not.
 */
import type { ErrorKey } from './errors.js';

export interface ErrorCodeEntry {
  /** The classes that carry the code, and where they live. */
  readonly raisedBy: string;
  /** Whose failure it is: the request's (a 4xx), the search's at this moment, or the store's. */
  readonly blame: 'request' | 'search' | 'store';
  /** The catalog entries (src/errors.ts) the code is answered with. */
  readonly answers: readonly ErrorKey[];
  /** When it is raised, for docs/errors.md. */
  readonly when: string;
}

export const ERROR_CODES = {
  'query.syntax': {
    raisedBy: '`QuerySyntaxError` (src/query/errors.ts)',
    blame: 'request',
    answers: ['invalidQuery'],
    when: 'the query is not Lucene syntax, or names a field the search does not have; the message gives the position',
  },
  'search.request': {
    raisedBy: '`SearchRequestError` (src/search/engine/errors.ts)',
    blame: 'request',
    answers: ['invalidSearch'],
    when: 'the search cannot be answered as asked (a cursor of another search, a sort on a field without order); the message says what to fix',
  },
  'search.limit': {
    raisedBy: '`SearchLimitError` (src/search/engine/searchLimits.ts)',
    blame: 'request',
    answers: ['tooManyClauses', 'wildcardTooBroad', 'queryTooBroad'],
    when: 'the query is over one of the bounds of the `search` config (clauses, wildcard expansions)',
  },
  'search.overBudget': {
    raisedBy: '`SearchOverBudgetError` (src/search/engine/searchLimits.ts), `SearchDeadlineError` (src/search/engine/errors.ts)',
    blame: 'search',
    answers: ['searchOverBudget'],
    when: 'the search ran past `search.timeBudgetMs`',
  },
  'search.busy': {
    raisedBy: '`SearchBusyError` (src/search/engine/searchLimits.ts)',
    blame: 'search',
    answers: ['searchBusy'],
    when: 'every search worker is busy and `search.queueLength` searches wait already',
  },
  'store.unreachable': {
    raisedBy: '`StoreUnreachableError` (src/domain/storeErrors.ts)',
    blame: 'store',
    answers: ['storeUnavailable'],
    when: "the store's server (with replicas, every server reads may go to) cannot be reached",
  },
  'store.busy': {
    raisedBy: '`StoreBusyError` (src/domain/storeErrors.ts)',
    blame: 'store',
    answers: ['storeUnavailable'],
    when: "another process held SQLite's write lock past `store.busyTimeoutSeconds`",
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** An error that carries one of the codes. */
export interface CodedError extends Error {
  readonly code: ErrorCode;
}

/** `e`'s code when it is an error with one of ours; undefined for anything else (Node's `ENOENT`, a driver's SQLSTATE). */
export function errorCodeOf(e: unknown): ErrorCode | undefined {
  if (!(e instanceof Error)) return undefined;
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : undefined;
}
