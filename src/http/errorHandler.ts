/**
 * Maps every failure to the error body of decisions.md "Errors", in the
 * format the client asked for. Only ApiError and Fastify's own 4xx become
 * client errors; anything else is a 500 with a request id that is also in
 * the log line, and never a stack trace in the body.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { errorToJson, errorToXml, type ErrorBody } from '../formats/errorBody.js';
import { errorRepresentation } from './formatChoice.js';

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError, requestId?: string) {
  const body: ErrorBody = { status: error.status, name: error.errorName, message: error.message };
  if (requestId !== undefined) body.requestId = requestId;
  const rep = errorRepresentation(request);
  for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  return reply
    .code(error.status)
    .header('Content-Type', rep.contentType)
    .send(rep.format === 'xml' ? errorToXml(body) : errorToJson(body));
}

/** Fastify's own client errors (bad URL encoding, validation, ...) as our 400. */
function fromFastify(error: FastifyError): ApiError | undefined {
  if (error.validation) {
    return ApiError.of('badRequest', `${error.message}. See /openapi.json for the parameters of this operation.`);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return ApiError.of('badRequest', error.message);
  }
  return undefined;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return sendError(request, reply, error);
    const client = fromFastify(error);
    if (client) return sendError(request, reply, client);
    request.log.error({ err: error, requestId: request.id }, 'internal error');
    return sendError(request, reply, ApiError.of('internal', String(request.id)), String(request.id));
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, ApiError.of('routeNotFound', request.method, request.url.split('?')[0] ?? '')));
}
