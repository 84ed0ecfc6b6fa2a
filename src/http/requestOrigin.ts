/**
 * The origin (scheme, host and port) a request was sent to, for answers that must name
 * absolute URLs (sitemaps, robots.txt, the pages' canonical links; docs/sitemaps.md). Behind a
 * proxy, `server.trustProxy` makes Fastify take them from X-Forwarded-Proto and -Host.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError, shown } from '../errors.js';

/** A Host header that can stand in a URL (RFC 3986 host and port); anything else would make the URLs junk. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `https://example.org:8443`; undefined when the Host header cannot stand in a URL. */
export function originOf(request: FastifyRequest): string | undefined {
  const host = request.host;
  return HOST.test(host) ? `${request.protocol}://${host}` : undefined;
}

/** The same, or a 400 that says why. */
export function requestOrigin(request: FastifyRequest): string {
  const origin = originOf(request);
  if (origin === undefined)
    throw ApiError.of(
      'badRequest',
      `the Host header '${shown(request.host)}' is not a host name with an optional port; this answer's URLs are built from it.`,
    );
  return origin;
}
