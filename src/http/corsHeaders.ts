/**
 * The CORS headers of an answer that @fastify/cors did not see: errors raised
 * before its hook ran (a malformed URL, 414, a missing Host), the parser-level
 * errors Node hands to `clientError`, and plain OPTIONS requests (docs/decisions.md
 * "Malformed requests", "Methods"). They mirror what the plugin adds to a simple (non-preflight)
 * request, so that every answer carries the same CORS headers
 * (docs/decisions.md "CORS"): `Access-Control-Allow-Origin`
 * for an allowed origin, `Access-Control-Expose-Headers`, and `Vary: Origin`
 * when the answer depends on the origin (a list in `http.corsOrigin`,
 * https://fetch.spec.whatwg.org/#cors-protocol-and-http-caches).
 */
import type { FastifyReply } from 'fastify';

export interface CorsHeaders {
  /** Whether answers depend on the Origin header (a list of origins). */
  readonly byOrigin: boolean;
  /** The headers for a request from `origin`, Vary included when it applies. */
  of(origin: string | undefined): Record<string, string>;
  /** Adds them to a Fastify reply, leaving alone what the plugin already set. */
  addTo(reply: FastifyReply, origin: string | undefined): void;
}

export function createCorsHeaders(corsOrigin: string, exposedHeaders: readonly string[]): CorsHeaders {
  const origins = corsOrigin === '*' ? undefined : corsOrigin.split(',').map((s) => s.trim());
  const expose = exposedHeaders.join(', ');
  const allowOrigin = (origin: string | undefined): string | undefined => {
    if (origins === undefined || origins.includes('*')) return '*';
    return origin !== undefined && origins.includes(origin) ? origin : undefined;
  };
  return {
    byOrigin: origins !== undefined,
    of(origin) {
      const headers: Record<string, string> = {};
      const allowed = allowOrigin(origin);
      if (allowed !== undefined) headers['access-control-allow-origin'] = allowed;
      headers['access-control-expose-headers'] = expose;
      if (origins !== undefined) headers.vary = 'Origin';
      return headers;
    },
    addTo(reply, origin) {
      if (!reply.hasHeader('access-control-expose-headers')) {
        const allowed = allowOrigin(origin);
        if (allowed !== undefined) reply.header('access-control-allow-origin', allowed);
        reply.header('access-control-expose-headers', expose);
      }
      if (origins !== undefined) {
        const vary = String(reply.getHeader('vary') ?? '');
        if (!/(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary)) reply.header('vary', vary === '' ? 'Origin' : `${vary}, Origin`);
      }
    },
  };
}
