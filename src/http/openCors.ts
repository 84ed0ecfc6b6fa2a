/**
 * Route config that opens CORS to every origin whatever http.corsOrigin says:
 * IIIF viewers run on other sites and fetch manifests and images from there
 * (https://iiif.io/api/presentation/3.0/#63-cross-origin-resource-sharing).
 * @fastify/cors merges a route's `config.cors` over its registered options.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    cors?: { origin: '*'; exposedHeaders?: string[] };
  }
}

export const OPEN_CORS: { cors: { origin: '*' } } = { cors: { origin: '*' } };

/** Binaries also expose what a ranged read needs (PDF.js, media players reading by fetch). */
export const OPEN_CORS_RANGES: { cors: { origin: '*'; exposedHeaders: string[] } } = {
  cors: {
    origin: '*',
    exposedHeaders: ['ETag', 'Last-Modified', 'Content-Range', 'Accept-Ranges', 'Content-Length', 'Retry-After', 'WWW-Authenticate'],
  },
};
