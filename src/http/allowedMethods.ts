/**
 * The paths the API answers and the methods they allow. A known path asked
 * with another method is a 405 with `Allow` (RFC 9110 section 15.5.6), not a
 * 404; a plain OPTIONS, one that is not a CORS preflight, is answered with
 * `Allow` (RFC 9110 section 9.3.7) instead of @fastify/cors's text/plain
 * 400, so that every answer has the catalog's shape (docs/decisions.md "Methods").
 */
import type { onRequestHookHandler, RouteOptions } from 'fastify';
import { ApiError } from '../errors.js';
import type { CorsHeaders } from './corsHeaders.js';
import type { SendError } from './errorHandler.js';
import { redactUrl } from './redact.js';

/** Every operation of the DDB's API is read-only (spec section 4). */
export const ALLOW = 'GET, HEAD, OPTIONS';

/** The Allow of a path that also takes POST: OAI-PMH's (OAI-PMH 2.0 section 3.1.1.2) and the Reconciliation API's forms. */
const ALLOW_POST = 'GET, HEAD, POST, OPTIONS';

/**
 * The paths the routes answer, learnt from the routes themselves (an onRoute
 * hook), so that every route, and every route added later, has its 405.
 * `*` is OPTIONS for the whole server.
 */
export interface KnownPaths {
  /** onRoute hook: records the route's URL pattern. */
  onRoute(route: RouteOptions): void;
  /** Whether a concrete path (no query string, /2 prefix already removed) is one of the routes'. */
  isKnown(path: string): boolean;
  /** The `Allow` of a known path: ALLOW, with POST where a route takes it. */
  allowOf(path: string): string;
  /**
   * The operations for the 404's message: the paths of the GET routes that /openapi.json
   * describes (not hidden), in the order they were registered, as OpenAPI writes them
   * (`/items/{id}/aip`, `/binary/{path}`), joined by ', '.
   */
  operations(): string;
}

/** A route pattern as OpenAPI writes its path: `:id` as `{id}`, a trailing `*` as `{path}` (./routes/openapi.ts). */
function describedPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
}

/** A route pattern as a regular expression: `:id` one segment, `*` the rest. */
function patternOf(url: string): RegExp {
  const parts = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

export function createKnownPaths(): KnownPaths {
  const patterns: RegExp[] = [/^\*$/];
  const posted: RegExp[] = [];
  const seen = new Set<string>();
  const described: string[] = [];
  let listed: string | undefined;
  return {
    onRoute(route) {
      // Only the GET routes: @fastify/cors's OPTIONS route for '*' would make every path known.
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (methods.includes('POST')) posted.push(patternOf(route.url));
      if (!methods.includes('GET') || seen.has(route.url)) return;
      // A page that shares its path with the API answers browsers only (./routes/pages.ts):
      // for the API the path is known only through a route of its own.
      if (route.constraints?.page !== undefined) return;
      seen.add(route.url);
      patterns.push(patternOf(route.url));
      if (route.schema?.hide !== true) {
        described.push(describedPath(route.url));
        listed = undefined;
      }
    },
    isKnown: (path) => patterns.some((p) => p.test(path)),
    allowOf: (path) => (posted.some((p) => p.test(path)) ? ALLOW_POST : ALLOW),
    operations: () => (listed ??= described.join(', ')),
  };
}

/** The path of a request target, without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/**
 * An onRequest hook, registered before @fastify/cors, that answers an
 * OPTIONS without `Origin` and `Access-Control-Request-Method`: 204 with
 * `Allow` on a known path, our 404 elsewhere. Preflights go on to the plugin.
 */
export function plainOptionsHook(cors: CorsHeaders, send: SendError, known: KnownPaths): onRequestHookHandler {
  // The reply is returned when sent (Fastify then waits for it, as for an async hook); else done() goes on.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  return (request, reply, done) => {
    if (
      request.method !== 'OPTIONS' ||
      (request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined)
    ) {
      return done();
    }
    const path = pathOf(request.url);
    if (!known.isKnown(path))
      return send(request, reply, ApiError.of('routeNotFound', 'OPTIONS', redactUrl(pathOf(request.originalUrl)), known.operations()));
    cors.addTo(reply, request.headers.origin);
    reply.code(204).header('Allow', known.allowOf(path)).header('Content-Length', '0').send();
  };
}
