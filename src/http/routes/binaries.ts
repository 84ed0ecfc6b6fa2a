/**
 * GET /binary/<path>: the files the packages point to (spec 2.4 `@path`;
 * docs/api.md "GET /binary/{path}").
 *
 * From the operator's media directory (media.path) by @fastify/send: Range
 * (one range; RFC 9110 §14.2, a multi-range request gets the whole file),
 * ETag, Last-Modified, 304, 412, 416, Content-Type by extension. A file the
 * directory does not hold is redirected to media.baseUrl when it is set: 307,
 * which keeps the method (§15.4.8) and says the place may change. No API key
 * by default: the real service's OpenAPI files (6.8, 2.6.1) give /binary no
 * security, and <img src> and IIIF viewers cannot send one; media.requireKey
 * asks for one.
 */
import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { binarySegments, type MediaDirectory } from '../../media/mediaDirectory.js';
import { OPEN_CORS_RANGES } from '../openCors.js';
import { commonErrors, keyQuery } from '../schemas.js';

export interface BinaryRouteDeps {
  config: Config;
  /** undefined when media.path is "". */
  media: MediaDirectory | undefined;
}

const binarySchema = {
  summary: 'A binary of an item: the file a package names in its binaries part',
  description:
    "The path is `/binary/<item id>/<variant>/<n>.<ext>` as in the packages. Served from the operator's media directory " +
    "with Range (one range), ETag, Last-Modified, 304, 412 and 416; or redirected (307) to the operator's media base URL. " +
    'No API key unless the operator sets media.requireKey; CORS open to every origin.',
  params: {
    type: 'object',
    properties: { '*': { type: 'string', description: 'The path after /binary/, e.g. NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR/list/1.jpg' } },
  },
  querystring: { type: 'object', properties: keyQuery },
  response: {
    200: {
      description: 'The file, with the Content-Type of its extension.',
      content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
    },
    206: { description: 'The range asked for (Content-Range).', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
    304: { description: 'Not modified (If-None-Match / If-Modified-Since).', type: 'null' },
    307: { description: 'The file is not in the media directory: Location is its place under media.baseUrl.', type: 'null' },
    400: { ...commonErrors[400], description: "The path is not a valid binary path (an empty segment, '..', an encoded '/', NUL, ...)." },
    401: commonErrors[401],
    403: { ...commonErrors[403], description: 'The API key is unknown or revoked (only with media.requireKey).' },
    404: { ...commonErrors[404], description: 'No such binary, or this service serves none (BinaryNotFoundException).' },
    412: { ...commonErrors[404], description: 'If-Match or If-Unmodified-Since did not hold (PreconditionFailedException).' },
    416: {
      ...commonErrors[404],
      description: 'The range lies outside the file; Content-Range: bytes */<size> (RangeNotSatisfiableException).',
    },
    429: commonErrors[429],
    500: commonErrors[500],
  },
} as const;

/** Types a browser runs scripts in when the file is opened directly: sandboxed, as a file from elsewhere. */
const ACTIVE_CONTENT = /^(text\/html|image\/svg\+xml|application\/xhtml\+xml|application\/xml|text\/xml)\b/i;

/** The path after /binary/, still percent-encoded (the router's decoding would hide an encoded '/'). */
function rawBinaryPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.slice(path.indexOf('/binary/') + '/binary/'.length);
}

export function registerBinaryRoutes(app: FastifyInstance, deps: BinaryRouteDeps): void {
  const { config, media } = deps;
  const baseUrl = config.media.baseUrl.replace(/\/+$/, '');
  const maxAge = config.http.cacheMaxAgeSeconds;

  async function binary(request: FastifyRequest, reply: FastifyReply) {
    const raw = rawBinaryPath(request.url);
    const segments = binarySegments(raw);
    if (segments === undefined) throw ApiError.of('invalidBinaryPath', `/binary/${raw}`);
    if (media === undefined && baseUrl === '') throw ApiError.of('binariesNotServed');
    const file = media === undefined ? undefined : await media.find(segments);
    if (file === undefined) {
      if (baseUrl === '') throw ApiError.of('binaryNotFound', `/binary/${segments.join('/')}`);
      return reply
        .code(307)
        .header('Location', `${baseUrl}/${segments.map(encodeURIComponent).join('/')}`)
        .header('Cache-Control', `public, max-age=${maxAge}`)
        .send();
    }
    const sent = await send(request.raw, `/${file.relative.map(encodeURIComponent).join('/')}`, {
      root: media!.root,
      index: false,
      dotfiles: 'ignore',
      maxAge: maxAge * 1000,
    });
    if (sent.type === 'directory') throw ApiError.of('binaryNotFound', `/binary/${segments.join('/')}`);
    if (sent.type === 'error') {
      sent.stream.destroy();
      if (sent.statusCode === 416) {
        throw ApiError.of('rangeNotSatisfiable', request.headers.range ?? '', file.size).withHeaders({
          'Content-Range': String(sent.headers['Content-Range'] ?? `bytes */${file.size}`),
        });
      }
      if (sent.statusCode === 412) throw ApiError.of('preconditionFailed');
      if (sent.statusCode < 500) throw ApiError.of('binaryNotFound', `/binary/${segments.join('/')}`);
      throw sent.metadata.error;
    }
    const type = String(sent.headers['Content-Type'] ?? '');
    reply.code(sent.statusCode).headers(sent.headers).header('X-Content-Type-Options', 'nosniff');
    if (ACTIVE_CONTENT.test(type)) reply.header('Content-Security-Policy', 'sandbox');
    return reply.send(sent.stream);
  }

  app.get(
    '/binary/*',
    {
      // The OpenAPI description says when no key is asked for (an empty security list).
      schema: config.media.requireKey ? binarySchema : { ...binarySchema, security: [] },
      // A 206 must carry the bytes asked for, not a compressed form of them; images do not compress.
      compress: false,
      // Viewers on other sites draw these images (IIIF), whatever http.corsOrigin says.
      // A link to an image may carry a cache-buster or a size hint (`?v=2`, `?width=100`): not a mistake to refuse.
      config: { ...OPEN_CORS_RANGES, ignoresQuery: true },
    },
    binary,
  );
}
