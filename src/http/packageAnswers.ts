/**
 * The answer to GET /items/{id}/aip and /items/{id} (spec 4.3, 4.4;
 * docs/decisions.md "Item package"), shared by the route and by the fast path in
 * front of Fastify (./fastPath.ts): status, headers in the order the route
 * sets them, and body. Throws the ApiError to answer instead.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { ItemHead, Store } from '../store/Store.js';
import { createItemDocuments } from './itemDocuments.js';
import { CompressedCache } from './compressedCache.js';
import { notModified } from './conditional.js';
import { itemRepresentation, itemVary } from './formatChoice.js';
import { negotiateEncoding } from './negotiate.js';
import { redactUrl } from './redact.js';

export interface PackageAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** undefined for 304. */
  body: Buffer | undefined;
}

export interface PackageAnswers {
  answer(request: { headers: IncomingHttpHeaders }, id: string): Promise<PackageAnswer>;
}

/** The item's validators, or the error to answer instead. */
function usable<T extends ItemHead>(id: string, item: T | undefined): T {
  if (!item) throw ApiError.of('itemNotFound', redactUrl(id));
  if (item.blockedReason !== null) throw ApiError.of('itemBlocked', redactUrl(id), item.blockedReason);
  return item;
}

export function createPackageAnswers(
  store: Pick<Store, 'dataVersion' | 'getItemDocument' | 'getItemHead'>,
  config: Config,
): PackageAnswers {
  const cache = new CompressedCache(config.http.compressedCacheBytes);
  // Heads and uncompressed bodies, kept while the data stays the same (./itemDocuments.ts).
  const documents = createItemDocuments(store, config.http.packageBodyCacheBytes);
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;
  const vary = itemVary(config.http.corsOrigin);
  return {
    async answer(request, id): Promise<PackageAnswer> {
      const rep = itemRepresentation(request, config.http.requireAccept);
      const encoding = negotiateEncoding(request.headers['accept-encoding']);
      // A body compressed before is cached under its ETag: then the head is all we read.
      const doc = encoding === 'identity' ? await documents.document(id, rep.format) : undefined;
      let item: ItemHead = doc !== undefined ? usable(id, doc.head) : usable(id, await documents.head(id));
      let tag = `${item.etag}-${rep.format}`;
      if (notModified(request, tag, item.lastModified)) {
        return {
          status: 304,
          headers: { vary, 'cache-control': cacheControl, 'last-modified': item.lastModified.toUTCString(), etag: `"${tag}"` },
          body: undefined,
        };
      }
      if (doc) {
        return {
          status: 200,
          headers: {
            vary,
            'cache-control': cacheControl,
            'content-type': rep.contentType,
            'last-modified': item.lastModified.toUTCString(),
            etag: `"${tag}"`,
          },
          body: doc.body,
        };
      }
      const compressed = encoding as Exclude<typeof encoding, 'identity'>;
      let body = cache.get(tag, compressed);
      if (!body) {
        // Read anew with the body, and answer with what was read: a commit between the two reads
        // must not put a new body under the old ETag.
        const fresh = usable(id, await store.getItemDocument(id, rep.format));
        item = fresh;
        tag = `${fresh.etag}-${rep.format}`;
        // A store that keeps the body as brotli hands it over: nothing to compress.
        body =
          compressed === 'br' && fresh.brotli !== undefined
            ? cache.keep(tag, compressed, fresh.brotli)
            : cache.put(tag, compressed, fresh.body);
      }
      return {
        status: 200,
        headers: {
          vary,
          'cache-control': cacheControl,
          'content-type': rep.contentType,
          'last-modified': item.lastModified.toUTCString(),
          etag: `"${tag}-${encoding}"`,
          'content-encoding': encoding,
        },
        body,
      };
    },
  };
}
