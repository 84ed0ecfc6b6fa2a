/**
 * The request log: one line per request at log level info, written by this
 * code for the requests the fast path answers (./fastPath.ts) and for those
 * Fastify answers (an onResponse hook; Fastify's own two lines per request,
 * "incoming request" and "request completed", are switched off), so that the
 * log does not depend on which of the two answered (docs/configuration.md "The
 * request log"; test/http/requestLog.test.ts compares them field by field). One line, as
 * pino-http and most access logs write: a third less log than Fastify's two
 * lines, with the same fields.
 *
 * API keys travel in the query string and in the Authorization header: a
 * logged request is its method, its URL with the key redacted (./redact.ts)
 * and the client's address, never a header.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { LogSink } from './logSink.js';
import { redactUrl } from './redact.js';

/** What the `req` serializer reads: a FastifyRequest, or the fast path's record of a request. */
export interface LoggedRequest {
  method: string;
  url: string;
  /** Fastify's: the URL as sent, before the /2 prefix was removed for routing (./generation.ts). */
  originalUrl?: string;
  ip: string | undefined;
}

/** The logged request: the URL redacted by name, and by value for the request's secrets (./requestSecrets.ts). */
function requestFields(req: LoggedRequest, secrets: readonly string[]) {
  return { method: req.method, url: redactUrl(req.originalUrl ?? req.url, secrets), remoteAddress: req.ip };
}

/** The serializers of the server's logger (pino applies them to the fields of those names). */
export const logSerializers = {
  req: (req: LoggedRequest) => requestFields(req, []),
};

/** The id of a request, in its log lines and in the body of a 500 (Fastify's genReqId). */
export const requestId = (): string => randomUUID();

/** Writes the request log line of a request the fast path answered, after it wrote the answer. */
export type AnswerLog = (req: IncomingMessage, statusCode: number, started: number) => void;

/** Writes the request log line of a request Fastify answered (its onResponse hook), with the request's secrets. */
export type RouteLog = (
  request: LoggedRequest,
  reqId: string,
  statusCode: number,
  responseTimeMs: number,
  secrets: readonly string[],
) => void;

/** pino's number for the level info. */
const INFO = 30;

/** The levels at which Fastify logs every request (it logs them at info). */
const REQUEST_LOG_LEVELS = ['info', 'debug', 'trace'];

/**
 * The request log of both paths, written to the logger's own sink; undefined
 * when the logger writes no request lines at its level.
 *
 * The line is built here rather than by pino: a pino call costs several times
 * as much, about as much as the rest of a cached answer in the bench. It is a
 * pino line as the server's logger writes one: level, time, pino's default
 * base (pid, hostname), Fastify's request id binding, the fields, msg.
 */
export function createRequestLog(logger: FastifyBaseLogger, sink: LogSink): { answer: AnswerLog; route: RouteLog } | undefined {
  if (!REQUEST_LOG_LEVELS.includes(logger.level)) return undefined;
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":"`;
  const line = (request: LoggedRequest, reqId: string, statusCode: number, responseTimeMs: number, secrets: readonly string[] = []) =>
    sink.write(
      `{"level":${INFO},"time":${Date.now()}${base}${reqId}","req":${JSON.stringify(requestFields(request, secrets))},` +
        `"res":{"statusCode":${statusCode}},"responseTime":${responseTimeMs},"msg":"request completed"}\n`,
    );
  return {
    // As Fastify's request.ip without trustProxy; the fast path leaves requests with X-Forwarded-For
    // to Fastify when trustProxy is on. Its URLs hold no secret: a valid id too short to be a key, no query.
    answer: (req, statusCode, started) =>
      line({ method: req.method!, url: req.url!, ip: req.socket.remoteAddress }, requestId(), statusCode, performance.now() - started),
    route: line,
  };
}
