/**
 * Maps every failure to the error body of docs/decisions.md "Errors", in the
 * format the client asked for, with the CORS headers of every answer. Only
 * ApiError and Fastify's own 4xx become client errors, and a store that cannot
 * answer now a 503 (storeErrorOf); anything else is a 500 with a request id
 * that is also in the log line, and never a stack trace in the body. No message echoes a raw URL or
 * header, as either may carry a key (docs/decisions.md "Keys never leak").
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { StoreBusyError, StoreUnreachableError } from '../store/storeErrors.js';
import { errorToJson, errorToXml, type ErrorBody } from './bodies/errorBody.js';
import { ALLOW, pathOf } from './allowedMethods.js';
import type { CorsHeaders } from './corsHeaders.js';
import { errorRepresentation } from './formatChoice.js';
import { redactUrl } from './redact.js';

export type SendError = (request: FastifyRequest, reply: FastifyReply, error: ApiError, requestId?: string) => FastifyReply;

export function createErrorSender(cors: CorsHeaders): SendError {
  return (request, reply, error, requestId) => {
    const body: ErrorBody = { status: error.status, name: error.errorName, message: error.message };
    if (requestId !== undefined) body.requestId = requestId;
    const rep = errorRepresentation(request);
    for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
    // Errors raised before @fastify/cors ran (414, no Host, a malformed URL) need its headers too.
    cors.addTo(reply, request.headers.origin);
    return reply
      .code(error.status)
      .header('Content-Type', rep.contentType)
      .send(rep.format === 'xml' ? errorToXml(body) : errorToJson(body));
  };
}

/**
 * Fastify's own client errors as our 400. Validation messages name the
 * parameter and the rule, never the value; any other message of Fastify's
 * may quote the URL or a header, so it is not passed on.
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

/** Fastify's framework errors (a malformed URL, before routing) as our answers. */
export function frameworkErrorOf(error: FastifyError): ApiError {
  return fromFastify(error) ?? ApiError.of('badRequest', 'the request could not be routed. See docs/api.md for the form of requests.');
}

/** How long a client is asked to wait before it retries a request the store could not answer. */
const STORE_RETRY_AFTER_SECONDS = 1;

/**
 * A store that cannot answer now (storeErrors.ts) as the catalog's 503, logged as a warning
 * with the store's own message (which names the server, never its password).
 */
export function storeErrorOf(error: unknown, request: FastifyRequest): ApiError | undefined {
  if (!(error instanceof StoreUnreachableError || error instanceof StoreBusyError)) return undefined;
  request.log.warn({ requestId: request.id, reason: error.message }, 'store unavailable');
  return ApiError.of('storeUnavailable', STORE_RETRY_AFTER_SECONDS).withHeaders({ 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) });
}

export function installErrorHandling(app: FastifyInstance, send: SendError, isKnownPath: (path: string) => boolean): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return send(request, reply, error);
    const client = fromFastify(error) ?? storeErrorOf(error, request);
    if (client) return send(request, reply, client);
    request.log.error({ err: error, requestId: request.id }, 'internal error');
    return send(request, reply, ApiError.of('internal', String(request.id)), String(request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    // Known: the path the routes see (without /2); shown: the path as sent.
    const shownPath = redactUrl(pathOf(request.originalUrl));
    if (!isKnownPath(pathOf(request.url))) return send(request, reply, ApiError.of('routeNotFound', request.method, shownPath));
    return send(request, reply, ApiError.of('methodNotAllowed', request.method, shownPath).withHeaders({ Allow: ALLOW }));
  });
}
