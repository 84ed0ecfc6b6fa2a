/**
 * A fast path in front of Fastify for the cheapest and most frequent answer:
 * the `parents` chain of an item (spec 4.4), rendered once and kept by
 * ./hierarchyAnswers.ts.
 *
 * Why (issue #5): such an answer costs a bare node:http server about 13 µs of
 * CPU here, most of it the kernel's; through Fastify, its hooks and plugins it
 * cost about 24 µs, so `parents` reached only 0.35-0.52 of the bare server.
 * Here the same answer takes the key check, the Accept negotiation and a
 * cache lookup, and nothing else.
 *
 * It answers only requests it can answer exactly as the route does, with the
 * same status, headers and body (test/http/fastPath.test.ts compares the two):
 * a GET of /items/{id}/parents with no query string and no percent-encoding,
 * a Host, an Accept the route accepts, no Accept-Encoding (@fastify/compress
 * decides those), and a valid key in the Authorization header. Everything
 * else, and every error, is left to Fastify, which answers it as before.
 *
 * It is off whenever Fastify would do more for a request than answer it:
 * with rate limiting on (the limiter counts in Fastify), with request logging
 * (log level info or lower: Fastify logs every request), and with a list of
 * CORS origins (the answer then depends on Origin).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { KeyedRequest } from './auth.js';
import { itemRepresentation } from './formatChoice.js';
import { PARENTS_VARY, type HierarchyAnswers } from './hierarchyAnswers.js';
import { isValidItemId } from '../store/itemIds.js';

/** Answers the request and returns true, or returns false and leaves it untouched. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface FastPathDeps {
  config: Config;
  /** Whether Fastify writes a log line for every request. */
  logsRequests: boolean;
  /** The headers @fastify/cors adds to every answer, when they do not depend on the request. */
  cors: { allowOrigin: string; exposeHeaders: string } | undefined;
  authenticate: (request: KeyedRequest) => string;
  hierarchies: HierarchyAnswers;
}

const PREFIX = '/items/';
const SUFFIX = '/parents';

export function createFastPath(deps: FastPathDeps): FastPath | undefined {
  const { config, cors } = deps;
  if (deps.logsRequests || config.http.rateLimitMax > 0 || cors === undefined) return undefined;
  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || url.length > config.http.maxUrlLength) return false;
    if (!url.startsWith(PREFIX) || !url.endsWith(SUFFIX)) return false;
    const id = url.slice(PREFIX.length, url.length - SUFFIX.length);
    // '?' and '%' would need Fastify's query and path decoding; a valid id has neither.
    if (!isValidItemId(id)) return false;
    const headers = req.headers;
    if (!headers.host || headers['accept-encoding'] !== undefined) return false;
    let format: 'json' | 'xml';
    let contentType: string;
    try {
      deps.authenticate({ headers });
      ({ format, contentType } = itemRepresentation({ headers }, config.http.requireAccept));
    } catch {
      return false; // Fastify writes the error.
    }
    const body = deps.hierarchies.body(id, format);
    if (body === undefined) return false;
    // A literal, not a spread of corsHeaders: the spread cost 1.4 µs a request.
    res.writeHead(200, {
      'access-control-allow-origin': cors.allowOrigin,
      'access-control-expose-headers': cors.exposeHeaders,
      'content-type': contentType,
      vary: PARENTS_VARY,
      'content-length': body.length,
    });
    res.end(body);
    return true;
  };
}
