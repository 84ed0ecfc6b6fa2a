/**
 * GET /items/{id}/iiif: the item as a IIIF Presentation 3.0 manifest
 * (docs/api.md "GET /items/{id}/iiif"), built by src/http/bodies/iiifManifest.ts
 * from the stored package and the sizes of the images in the media directory.
 *
 * JSON-LD with the Presentation 3 profile, or plain JSON to a client that asks
 * for it (https://iiif.io/api/presentation/3.0/#63-responses); CORS open to
 * every origin; the API key as on every item operation.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError, shown } from '../../errors.js';
import { buildManifest, canvasSources, IIIF_PRESENTATION_CONTEXT, packageBinaries } from '../bodies/iiifManifest.js';
import { binarySegments, type ImageSize, type MediaDirectory } from '../../media/mediaDirectory.js';
import { isValidItemId } from '../../domain/itemIds.js';
import type { Store } from '../../store/Store.js';
import { notModified } from '../conditional.js';
import { negotiate } from '../negotiate.js';
import { OPEN_CORS } from '../openCors.js';
import { commonErrors, itemParams, keyQuery } from '../schemas.js';

export interface IiifRouteDeps {
  config: Config;
  store: Pick<Store, 'getItemDocument' | 'getAncestry'>;
  /** undefined when media.path is "": every canvas then has the default size. */
  media: MediaDirectory | undefined;
}

const LD_JSON = `application/ld+json;profile="${IIIF_PRESENTATION_CONTEXT}"`;
const JSON_TYPE = 'application/json; charset=utf-8';
/** JSON-LD first: `*∕*` gets it; a client that prefers application/json gets that (§6.3). */
const OFFERS = ['application/ld+json', 'application/json'];
const OFFERED = `${LD_JSON} or application/json`;

/** A Host header that can stand in a URL (RFC 3986 host and port); anything else would make the manifest's ids junk. */
export const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const iiifSchema = {
  summary: 'The item as a IIIF Presentation 3.0 manifest',
  description:
    'One Canvas per binary position, in position order; label, summary and metadata from the view; rights, requiredStatement, ' +
    'provider, homepage; seeAlso the package. Canvas sizes from the images in the media directory, else 1000 × 1000. CORS open to every origin.',
  params: itemParams,
  querystring: { type: 'object', properties: keyQuery },
  response: {
    200: {
      description: 'The manifest (https://iiif.io/api/presentation/3.0/#52-manifest).',
      content: {
        [LD_JSON]: { schema: { type: 'object', description: 'IIIF Presentation 3.0 Manifest' } },
        'application/json': { schema: { type: 'object', description: 'IIIF Presentation 3.0 Manifest' } },
      },
    },
    304: { description: 'Not modified (If-None-Match / If-Modified-Since).', type: 'null' },
    ...commonErrors,
    404: {
      ...commonErrors[404],
      description: 'The item does not exist (ItemNotFoundException), or has no binaries (NoBinariesException).',
    },
    406: { ...commonErrors[406], description: 'The Accept header allows neither application/ld+json nor application/json.' },
  },
} as const;

/** The type of a IIIF answer for the request's Accept (§6.3); a 406 when it allows neither. */
export function iiifContentType(config: Config, request: FastifyRequest): string {
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') {
    if (config.http.requireAccept) throw ApiError.of('notAcceptable', `${OFFERED} (none was sent)`);
    return LD_JSON;
  }
  const offer = negotiate(accept, OFFERS);
  if (offer === undefined) throw ApiError.of('notAcceptable', OFFERED);
  return offer === 'application/json' ? JSON_TYPE : LD_JSON;
}

/**
 * The scheme, host and path prefix IIIF ids are built from: the request's, so that a resource
 * fetched under /2 names itself under /2 (../generation.ts). `marker` is where the route's own
 * path starts (`/items/`, `/iiif/`).
 */
export function iiifBase(request: FastifyRequest, marker: string, what = 'IIIF ids'): { serviceUrl: string; base: string } {
  const host = request.host;
  if (!HOST.test(host))
    throw ApiError.of(
      'badRequest',
      `the Host header '${shown(host)}' is not a host name with an optional port; the ${what} are built from it.`,
    );
  const serviceUrl = `${request.protocol}://${host}`;
  const path = request.originalUrl.split('?')[0] ?? '';
  return { serviceUrl, base: serviceUrl + path.slice(0, path.indexOf(marker)) };
}

/** The URL of an item's IIIF Collection (docs/iiif.md "Collections"). */
export const collectionUrl = (base: string, id: string): string => `${base}/items/${encodeURIComponent(id)}/iiif/collection`;

/**
 * The manifest of an item (docs/iiif.md), its id `manifestUrl`; with the Last-Modified of the
 * package or of the newest image in it. Throws the catalog's errors (no such item, blocked, no binaries).
 */
export async function itemManifest(
  deps: IiifRouteDeps,
  id: string,
  urls: { manifestUrl: string; serviceUrl: string; base: string },
): Promise<{ body: string; lastModified: Date }> {
  const { store, media } = deps;
  const doc = await store.getItemDocument(id, 'json');
  if (!doc) throw ApiError.of('itemNotFound', id);
  if (doc.blockedReason !== null) throw ApiError.of('itemBlocked', id, doc.blockedReason);
  const pkg: unknown = JSON.parse(doc.body.toString('utf8'));
  const sources = canvasSources(packageBinaries(pkg));
  if (sources.length === 0) throw ApiError.of('itemHasNoBinaries', id);

  // For each canvas, the largest variant the media directory holds, and its size.
  const found = new Map<string, ImageSize | null>();
  let lastModified = doc.lastModified;
  if (media !== undefined) {
    for (const source of sources) {
      for (const variant of source.variants) {
        // The package's path is data: it gets the same checks as a request's.
        const segments = binarySegments(variant.path.slice('/binary/'.length));
        const file = segments === undefined ? undefined : await media.find(segments);
        if (file === undefined) continue;
        found.set(variant.path, (await media.imageSize(file)) ?? null);
        if (file.mtime > lastModified) lastModified = file.mtime;
        break;
      }
    }
  }

  // The parent's Collection, when the store holds the parent (docs/iiif.md "Collections").
  const parent = (await store.getAncestry(id))?.nodes[1];
  const body = JSON.stringify(
    buildManifest({
      itemId: id,
      pkg,
      manifestUrl: urls.manifestUrl,
      serviceUrl: urls.serviceUrl,
      media: found,
      partOf: parent === undefined ? undefined : { id: collectionUrl(urls.base, parent.id), label: parent.label },
    }),
  );
  return { body, lastModified };
}

/** A manifest answer: validators, 304 or the body in `type`. */
export function sendManifest(
  request: FastifyRequest,
  reply: FastifyReply,
  manifest: { body: string; lastModified: Date },
  type: string,
  cacheControl: string,
) {
  // Weak: the same manifest compressed or not (RFC 9110 §8.8.1).
  const tag = createHash('sha1').update(manifest.body).digest('base64url');
  reply
    .header('Vary', 'Accept, Accept-Encoding')
    .header('Cache-Control', cacheControl)
    .header('ETag', `W/"${tag}"`)
    .header('Last-Modified', manifest.lastModified.toUTCString());
  if (notModified(request, tag, manifest.lastModified)) return reply.code(304).send();
  return reply.header('Content-Type', type).send(manifest.body);
}

export function registerIiifRoutes(app: FastifyInstance, deps: IiifRouteDeps): void {
  const { config } = deps;
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;

  async function manifest(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const id = request.params.id;
    if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
    const type = iiifContentType(config, request);
    const { serviceUrl, base } = iiifBase(request, '/items/', "manifest's URLs");
    const answer = await itemManifest(deps, id, { manifestUrl: `${base}/items/${encodeURIComponent(id)}/iiif`, serviceUrl, base });
    return sendManifest(request, reply, answer, type, cacheControl);
  }

  app.get<{ Params: { id: string } }>('/items/:id/iiif', { schema: iiifSchema, config: OPEN_CORS }, manifest);
}
