/**
 * The newer generation of the real API lives under `/2` (its clients'
 * default base URL is https://api.deutsche-digitale-bibliothek.de/2), the
 * 2014 one at the root. Both speak the same operations here, so a client of
 * either works by changing the host alone (docs/decisions.md "The `/2` prefix"): every path is
 * answered under `/2` too, by stripping the prefix before routing (Fastify's
 * rewriteUrl, and the fast path) rather than by a second set of routes.
 */

/** The path prefix of the newer API generation. */
export const GENERATION_PREFIX = '/2';

/**
 * The request target without the `/2` prefix: `/2/items/X` → `/items/X`,
 * `/2` and `/2?q` → `/` and `/?q`. Anything else (`/20/…`, `/2x`) is returned
 * as it is. Only one prefix is removed: `/2/2/items/X` is not a path of ours.
 */
export function withoutGenerationPrefix(url: string): string {
  if (!url.startsWith(GENERATION_PREFIX)) return url;
  const next = url.charCodeAt(GENERATION_PREFIX.length);
  if (Number.isNaN(next)) return '/';
  if (next === 0x2f /* / */) return url.slice(GENERATION_PREFIX.length);
  if (next === 0x3f /* ? */) return `/${url.slice(GENERATION_PREFIX.length)}`;
  return url;
}

/** The prefix a request came under: '/2' or ''. Links in answers keep it. */
export function generationPrefixOf(originalUrl: string): string {
  return withoutGenerationPrefix(originalUrl) === originalUrl ? '' : GENERATION_PREFIX;
}
