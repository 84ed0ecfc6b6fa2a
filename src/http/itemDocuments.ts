/**
 * Item heads and uncompressed package bodies kept per process, for
 * ./packageAnswers.ts: on PostgreSQL an identity answer was a round trip for its body on
 * every request. As `parents`' answers (./hierarchyAnswers.ts), what is kept holds while
 * store.dataVersion() stays the same, and all of it is dropped when that moves: a reloaded
 * or blocked item is never answered from here with what it was. The version is read before
 * the store is, so that what is read is never older than the version it is kept under.
 *
 * Keyed by the item's id (its ETag is only known once read); one entry holds the item's
 * head and the bodies asked for so far, bounded in bytes (http.packageBodyCacheBytes).
 */
import { LruCache } from '../lruCache.js';
import type { ItemFormat, ItemHead, Store } from '../store/Store.js';

export interface CachedItem {
  head: ItemHead;
  json?: Buffer;
  xml?: Buffer;
}

export interface ItemDocuments {
  /** The item's head, from memory when kept; undefined when there is no such item. */
  head(id: string): Promise<ItemHead | undefined>;
  /** The item's head and (unless it is blocked) its body in `format`; undefined when there is no such item. */
  document(id: string, format: ItemFormat): Promise<{ head: ItemHead; body: Buffer | undefined } | undefined>;
}

/** What an entry costs beyond its bodies: the key, the head and the map's bookkeeping. */
const ENTRY_BYTES = 256;

export function createItemDocuments(
  store: Pick<Store, 'dataVersion' | 'getItemDocument' | 'getItemHead'>,
  maxBytes: number,
): ItemDocuments {
  if (maxBytes === 0) {
    // Nothing kept: every request reads the store, as before this cache.
    return {
      head: (id) => store.getItemHead(id),
      async document(id, format) {
        const doc = await store.getItemDocument(id, format);
        return doc && { head: doc, body: doc.blockedReason === null ? doc.body : undefined };
      },
    };
  }
  const sizeOf = (e: CachedItem) => ENTRY_BYTES + (e.json?.length ?? 0) + (e.xml?.length ?? 0);
  const items = new LruCache<CachedItem>(maxBytes, sizeOf);
  let version = '';
  const current = async () => {
    const now = await store.dataVersion();
    if (now !== version) {
      items.clear();
      version = now;
    }
    return now;
  };
  return {
    async head(id) {
      const at = await current();
      const kept = items.get(id);
      if (kept !== undefined) return kept.head;
      const head = await store.getItemHead(id);
      // Kept only under the version it was read at: a request that read an older version than
      // another one's must not put it under the newer one.
      if (head !== undefined && at === version)
        items.set(id, { head: { etag: head.etag, lastModified: head.lastModified, blockedReason: head.blockedReason } });
      return head;
    },
    async document(id, format) {
      const at = await current();
      const kept = items.get(id);
      if (kept !== undefined && (kept[format] !== undefined || kept.head.blockedReason !== null))
        return { head: kept.head, body: kept[format] };
      const doc = await store.getItemDocument(id, format);
      if (doc === undefined) return undefined;
      const head: ItemHead = { etag: doc.etag, lastModified: doc.lastModified, blockedReason: doc.blockedReason };
      const body = head.blockedReason === null ? doc.body : undefined;
      if (at === version) {
        // The other format's body stays only if it is of the same content.
        const again = items.get(id);
        const entry: CachedItem = {
          head,
          ...(again !== undefined && again.head.etag === head.etag ? { json: again.json, xml: again.xml } : {}),
        };
        if (body !== undefined) entry[format] = body;
        items.set(id, entry);
      }
      return { head, body };
    },
  };
}
