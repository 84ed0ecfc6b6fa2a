/**
 * Rendered `parents` bodies (spec 4.4), shared by the route and by the fast
 * path in front of Fastify (./fastPath.ts). A chain of 12 is 24 lookups and a
 * render; the answer only changes when the data does, which
 * store.dataVersion() tells.
 */
import { hierarchyToJson, hierarchyToXml } from '../formats/hierarchy.js';
import { LruCache } from '../lruCache.js';
import type { Store } from '../store/Store.js';

/** `parents` answers differ by Accept; Accept-Encoding because @fastify/compress may compress them. */
export const PARENTS_VARY = 'Accept, Accept-Encoding';

const HIERARCHY_CACHE_BYTES = 16 * 1024 * 1024;

export interface HierarchyAnswers {
  /** The body of the item's ancestry in the format, or undefined when there is no such item. */
  body(id: string, format: 'json' | 'xml'): Buffer | undefined;
}

export function createHierarchyAnswers(store: Pick<Store, 'dataVersion' | 'getAncestry'>): HierarchyAnswers {
  const bodies = new LruCache<Buffer>(HIERARCHY_CACHE_BYTES, (b) => b.length + 64);
  let version = '';
  return {
    body(id, format) {
      const now = store.dataVersion();
      if (now !== version) {
        bodies.clear();
        version = now;
      }
      const key = `${id}\u0000${format}`;
      let body = bodies.get(key);
      if (body === undefined) {
        const ancestry = store.getAncestry(id);
        if (!ancestry) return undefined;
        body = Buffer.from(format === 'json' ? hierarchyToJson(ancestry.nodes) : hierarchyToXml(ancestry.nodes));
        bodies.set(key, body);
      }
      return body;
    },
  };
}
