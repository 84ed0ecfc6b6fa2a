/**
 * The request log: the lines Fastify writes for every request at log level
 * info (fastify/lib/log-controller.js: "incoming request", then "request
 * completed"), and the same lines for the requests the fast path answers
 * before Fastify (./fastPath.ts), so that the log does not depend on which of
 * the two answered (issue #13, point 11; test/http/requestLog.test.ts compares
 * them field by field).
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

/** The serializers of the server's logger (pino applies them to the fields of those names). */
export const logSerializers = {
  req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.originalUrl ?? req.url), remoteAddress: req.ip }),
};

/** The id of a request, in its log lines and in the body of a 500 (Fastify's genReqId). */
export const requestId = (): string => randomUUID();

/** Writes the request log lines of a request the fast path answered, after it wrote the answer. */
export type AnswerLog = (req: IncomingMessage, statusCode: number, started: number) => void;

/** pino's number for the level info. */
const INFO = 30;

/** The levels at which Fastify logs every request (it logs them at info). */
const REQUEST_LOG_LEVELS = ['info', 'debug', 'trace'];

/**
 * The request log of the fast path, written to the logger's own sink; undefined
 * when the logger writes no request lines at its level.
 *
 * The lines are built here rather than by pino: two pino calls cost about
 * four times as much, as much as the rest of a cached answer (issue #13). They
 * are pino's lines as the server's logger writes them: level, time, pino's
 * default base (pid, hostname), Fastify's request id binding, the fields, msg.
 */
export function createAnswerLog(logger: FastifyBaseLogger, sink: LogSink): AnswerLog | undefined {
  if (!REQUEST_LOG_LEVELS.includes(logger.level)) return undefined;
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":"`;
  return (req, statusCode, started) => {
    // As Fastify's request.ip without trustProxy; the fast path leaves requests with X-Forwarded-For
    // to Fastify when trustProxy is on.
    const logged = logSerializers.req({ method: req.method!, url: req.url!, ip: req.socket.remoteAddress });
    const head = `{"level":${INFO},"time":${Date.now()}${base}${requestId()}",`;
    sink.write(
      `${head}"req":${JSON.stringify(logged)},"msg":"incoming request"}\n` +
        `${head}"res":{"statusCode":${statusCode}},"responseTime":${performance.now() - started},"msg":"request completed"}\n`,
    );
  };
}
