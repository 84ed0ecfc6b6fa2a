/**
 * The one mapping from an error to the catalog's answer (src/errors.ts; docs/errors.md):
 * its status, the catalog's exception name, its message and its headers (Retry-After where
 * the client is asked to wait). Every route's failure goes through apiErrorOf, whichever shape
 * the route answers in: the catalog's JSON or XML body (./errorHandler.ts), Solr's error shape
 * (./routes/searchSelect.ts), a page (./routes/pages.ts). The OAI-PMH route answers the
 * protocol's own errors itself (status 200, OAI-PMH 2.0 section 3.6); what the server refuses
 * there (its rate limit, a store gone away) is the catalog's body as on every route.
 *
 * - an ApiError is its own answer;
 * - an error below HTTP is answered by its code (src/errorCodes.ts), never by its class's name;
 * - Fastify's own client errors are our 400s; their messages are not passed on when they
 *   may quote the URL or a header, which may carry a key (docs/decisions.md "Keys never leak");
 * - anything else is a 500 with a request id that is also in the log line, never a stack trace.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import { type CodedError, errorCodeOf } from '../errorCodes.js';
import { ApiError } from '../errors.js';
import type { SearchLimitError, SearchOverBudgetError, SearchBusyError } from '../search/engine/searchLimits.js';

/** What the mapping needs of the config: the search's time budget, which a deadline error does not carry. */
export interface ErrorMappingSettings {
  timeBudgetMs: number;
}

/** How long a client is asked to wait before it retries a request the store could not answer. */
const STORE_RETRY_AFTER_SECONDS = 1;

/** A search over its budget, or refused while every worker is busy, asks to wait about one budget. */
const retryAfter = (budgetMs: number) => Math.max(1, Math.ceil(budgetMs / 1000));

function retryLater(error: ApiError, seconds: number): ApiError {
  return error.withHeaders({ 'Retry-After': String(seconds) });
}

/** An error below HTTP, by its code (src/errorCodes.ts lists each code's answer). */
function fromCode(error: CodedError, settings: ErrorMappingSettings, requestId: string): Answer {
  switch (error.code) {
    case 'query.syntax':
      return { api: ApiError.of('invalidQuery', error.message) };
    case 'search.request':
      return { api: ApiError.of('invalidSearch', error.message) };
    case 'search.limit': {
      const limit = (error as SearchLimitError).limit;
      switch (limit.key) {
        case 'tooManyClauses':
          return { api: ApiError.of('tooManyClauses', limit.clauses, limit.max) };
        case 'wildcardTooBroad':
          return { api: ApiError.of('wildcardTooBroad', limit.pattern, limit.max) };
        case 'queryTooBroad':
          return { api: ApiError.of('queryTooBroad', limit.max) };
      }
      break;
    }
    case 'search.overBudget': {
      // SearchDeadlineError (a search on this thread) carries no budget: it is the config's.
      const budgetMs = (error as Partial<SearchOverBudgetError>).budgetMs ?? settings.timeBudgetMs;
      return { api: retryLater(ApiError.of('searchOverBudget', budgetMs, retryAfter(budgetMs)), retryAfter(budgetMs)) };
    }
    case 'search.busy': {
      const seconds = retryAfter((error as SearchBusyError).budgetMs);
      return { api: retryLater(ApiError.of('searchBusy', seconds), seconds) };
    }
    case 'store.unreachable':
    case 'store.busy':
      // The store's own message names the server (never its password): for the operator's log.
      return {
        api: retryLater(ApiError.of('storeUnavailable', STORE_RETRY_AFTER_SECONDS), STORE_RETRY_AFTER_SECONDS),
        log: 'store',
      };
  }
  return { api: ApiError.of('internal', requestId), log: 'internal' };
}

/**
 * Fastify's own client errors as our 400. Validation messages name the parameter and the
 * rule, never the value; any other message of Fastify's may quote the URL or a header, so
 * it is not passed on.
 */
function fromFastify(error: FastifyError): ApiError | undefined {
  if (error.validation) {
    return ApiError.of('badRequest', `${error.message}. See /openapi.json for the parameters of this operation.`);
  }
  if (error.code === 'FST_ERR_BAD_URL') return ApiError.of('malformedUrl', 'path');
  // Content-type parser errors: one may quote the Content-Type header.
  if (error.code?.startsWith('FST_ERR_CTP_')) {
    return ApiError.of('badRequest', 'this API takes no request body. Send GET without a body and without Content-Type.');
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return ApiError.of(
      'badRequest',
      `the request could not be read (${error.code ?? error.statusCode}). See docs/api.md for the form of requests.`,
    );
  }
  return undefined;
}

/** The catalog's answer, and whether the error is one for the operator's log (a store gone away, a bug). */
export interface Answer {
  api: ApiError;
  log?: 'store' | 'internal';
}

/** The one mapping: the catalog's answer to `error`, raised anywhere while the request `requestId` was answered. */
export function answerOf(error: unknown, settings: ErrorMappingSettings, requestId: string): Answer {
  if (error instanceof ApiError) return { api: error };
  if (errorCodeOf(error) !== undefined) return fromCode(error as CodedError, settings, requestId);
  const client = error instanceof Error ? fromFastify(error as FastifyError) : undefined;
  if (client !== undefined) return { api: client };
  return { api: ApiError.of('internal', requestId), log: 'internal' };
}

/** answerOf for a request, written to the request's log when it is the operator's to see. */
export function apiErrorOf(error: unknown, request: FastifyRequest, settings: ErrorMappingSettings): ApiError {
  const { api, log } = answerOf(error, settings, String(request.id));
  if (log === 'store') request.log.warn({ requestId: request.id, reason: (error as Error).message }, 'store unavailable');
  else if (log === 'internal') request.log.error({ err: error, requestId: request.id }, 'internal error');
  return api;
}
