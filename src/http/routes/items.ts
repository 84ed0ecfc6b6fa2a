/**
 * GET /items/{id}/aip, /items/{id} and /items/{id}/parents
 * (spec 4.3, 4.4; decisions.md "Hierarchy", "Item package").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { isValidItemId } from '../../store/itemIds.js';
import type { ItemHead, Store } from '../../store/Store.js';
import { CompressedCache } from '../compressedCache.js';
import { notModified } from '../conditional.js';
import { itemRepresentation } from '../formatChoice.js';
import { PARENTS_VARY, type HierarchyAnswers } from '../hierarchyAnswers.js';
import { negotiateEncoding } from '../negotiate.js';
import { aipSchema, parentsSchema } from '../schemas.js';

export interface ItemRouteDeps {
  store: Store;
  config: Config;
  onRequest: onRequestHookHandler;
  hierarchies: HierarchyAnswers;
}

type ItemRequest = FastifyRequest<{ Params: { id: string } }>;

function itemId(request: ItemRequest): string {
  const id = request.params.id;
  if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
  return id;
}

export function registerItemRoutes(app: FastifyInstance, deps: ItemRouteDeps): void {
  const { store, config } = deps;
  const cache = new CompressedCache(config.http.compressedCacheBytes);
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;

  /** The item's validators, or the error to answer instead. */
  function usable<T extends ItemHead>(id: string, item: T | undefined): T {
    if (!item) throw ApiError.of('itemNotFound', id);
    if (item.blockedReason !== null) throw ApiError.of('itemBlocked', id, item.blockedReason);
    return item;
  }

  async function aip(request: ItemRequest, reply: FastifyReply) {
    const id = itemId(request);
    const rep = itemRepresentation(request, config.http.requireAccept);
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    // A body compressed before is cached under its ETag: then the head is all we read.
    const doc = encoding === 'identity' ? usable(id, store.getItemDocument(id, rep.format)) : undefined;
    let item: ItemHead = doc ?? usable(id, store.getItemHead(id));
    let tag = `${item.etag}-${rep.format}`;
    reply.header('Vary', 'Accept, Accept-Encoding').header('Cache-Control', cacheControl);
    if (notModified(request, tag, item.lastModified)) {
      return reply.header('Last-Modified', item.lastModified.toUTCString()).header('ETag', `"${tag}"`).code(304).send();
    }
    reply.header('Content-Type', rep.contentType);
    if (doc) {
      return reply.header('Last-Modified', doc.lastModified.toUTCString()).header('ETag', `"${tag}"`).send(doc.body);
    }
    let body = cache.get(tag, encoding as Exclude<typeof encoding, 'identity'>);
    if (!body) {
      // Read anew with the body, and answer with what was read: a commit between the two reads
      // must not put a new body under the old ETag.
      const fresh = usable(id, store.getItemDocument(id, rep.format));
      item = fresh;
      tag = `${fresh.etag}-${rep.format}`;
      body = cache.put(tag, encoding as Exclude<typeof encoding, 'identity'>, fresh.body);
    }
    return reply
      .header('Last-Modified', item.lastModified.toUTCString())
      .header('ETag', `"${tag}-${encoding}"`)
      .header('Content-Encoding', encoding)
      .send(body);
  }

  async function parents(request: ItemRequest, reply: FastifyReply) {
    const id = itemId(request);
    const rep = itemRepresentation(request, config.http.requireAccept);
    const body = deps.hierarchies.body(id, rep.format);
    if (body === undefined) throw ApiError.of('itemNotFound', id);
    return reply.header('Content-Type', rep.contentType).header('Vary', PARENTS_VARY).send(body);
  }

  // `compress: false`: package bodies are compressed once and cached above, never per request.
  type Route = { Params: { id: string } };
  const onRequest = deps.onRequest;
  app.get<Route>('/items/:id/aip', { onRequest, schema: aipSchema, compress: false }, aip);
  app.get<Route>('/items/:id', { onRequest, schema: { ...aipSchema, summary: 'The package; path of the newer API generation (decisions.md "Requests")' }, compress: false }, aip);
  app.get<Route>('/items/:id/parents', { onRequest, schema: parentsSchema }, parents);
}
