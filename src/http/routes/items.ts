/**
 * GET /items/{id}/aip, /items/{id} and /items/{id}/parents
 * (spec 4.3, 4.4; decisions.md "Hierarchy", "Item package").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { hierarchyToJson, hierarchyToXml } from '../../formats/hierarchy.js';
import { isValidItemId } from '../../store/itemIds.js';
import type { ItemHead, Store } from '../../store/Store.js';
import { CompressedCache } from '../compressedCache.js';
import { LruCache } from '../../lruCache.js';
import { notModified } from '../conditional.js';
import { itemRepresentation } from '../formatChoice.js';
import { negotiateEncoding } from '../negotiate.js';
import { aipSchema, parentsSchema } from '../schemas.js';

export interface ItemRouteDeps {
  store: Store;
  config: Config;
  onRequest: onRequestHookHandler;
}

type ItemRequest = FastifyRequest<{ Params: { id: string } }>;

const HIERARCHY_CACHE_BYTES = 16 * 1024 * 1024;

function itemId(request: ItemRequest): string {
  const id = request.params.id;
  if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
  return id;
}

export function registerItemRoutes(app: FastifyInstance, deps: ItemRouteDeps): void {
  const { store, config } = deps;
  const cache = new CompressedCache(config.http.compressedCacheBytes);
  // Rendered hierarchies: a chain of 12 is 24 lookups and a render; the answer only
  // changes when the data does, which store.dataVersion() tells.
  const hierarchies = new LruCache<Buffer>(HIERARCHY_CACHE_BYTES, (b) => b.length + 64);
  let hierarchiesVersion = '';
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
    const version = store.dataVersion();
    if (version !== hierarchiesVersion) {
      hierarchies.clear();
      hierarchiesVersion = version;
    }
    const key = `${id}\u0000${rep.format}`;
    let body = hierarchies.get(key);
    if (body === undefined) {
      const ancestry = store.getAncestry(id);
      if (!ancestry) throw ApiError.of('itemNotFound', id);
      body = Buffer.from(rep.format === 'json' ? hierarchyToJson(ancestry.nodes) : hierarchyToXml(ancestry.nodes));
      hierarchies.set(key, body);
    }
    return reply.header('Content-Type', rep.contentType).header('Vary', 'Accept, Accept-Encoding').send(body);
  }

  // `compress: false`: package bodies are compressed once and cached above, never per request.
  type Route = { Params: { id: string } };
  const onRequest = deps.onRequest;
  app.get<Route>('/items/:id/aip', { onRequest, schema: aipSchema, compress: false }, aip);
  app.get<Route>('/items/:id', { onRequest, schema: { ...aipSchema, summary: 'The package; path of the newer API generation (decisions.md "Requests")' }, compress: false }, aip);
  app.get<Route>('/items/:id/parents', { onRequest, schema: parentsSchema }, parents);
}
