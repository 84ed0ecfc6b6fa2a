/**
 * Writes every failure as the error body of docs/decisions.md "Errors", in the format the
 * client asked for, with the CORS headers of every answer; which answer an error gets is
 * decided in one place, ./errorMapping.ts. Also the 404 and 405 of a path no route answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERRORS } from '../errors.js';
import { errorToJson, errorToXml, type ErrorBody } from './bodies/errorBody.js';
import { pathOf, type KnownPaths } from './allowedMethods.js';
import type { CorsHeaders } from './corsHeaders.js';
import { apiErrorOf, type ErrorMappingSettings } from './errorMapping.js';
import { errorRepresentation } from './formatChoice.js';
import { redactUrl } from './redact.js';

export type SendError = (request: FastifyRequest, reply: FastifyReply, error: ApiError) => FastifyReply;

export function createErrorSender(cors: CorsHeaders): SendError {
  return (request, reply, error) => {
    const body: ErrorBody = { status: error.status, name: error.errorName, message: error.message };
    // The catalog's one 500 (internal) carries the id of the request's log line in the body too (docs/errors.md).
    if (error.status === ERRORS.internal.status) body.requestId = String(request.id);
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

export function installErrorHandling(app: FastifyInstance, send: SendError, known: KnownPaths, settings: ErrorMappingSettings): void {
  app.setErrorHandler((error, request, reply) => send(request, reply, apiErrorOf(error, request, settings)));
  app.setNotFoundHandler((request, reply) => {
    // Known: the path the routes see (without /2); shown: the path as sent.
    const shownPath = redactUrl(pathOf(request.originalUrl));
    if (!known.isKnown(pathOf(request.url)))
      return send(request, reply, ApiError.of('routeNotFound', request.method, shownPath, known.operations()));
    return send(
      request,
      reply,
      ApiError.of('methodNotAllowed', request.method, shownPath).withHeaders({ Allow: known.allowOf(pathOf(request.url)) }),
    );
  });
}
