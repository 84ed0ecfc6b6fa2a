/**
 * Rendered `parents` bodies (spec 4.4), shared by the route and by the fast
 * path in front of Fastify (./fastPath.ts). A chain of 12 is 24 lookups and a
 * render; the answer only changes when the data does, which
 * store.dataVersion() tells. Each body is kept with its ETag, a digest made
 * once (./validators.ts).
 */
import { hierarchyToJson, hierarchyToXml } from './bodies/hierarchy.js';
import { LruCache } from '../lruCache.js';
import type { Store } from '../store/Store.js';
import { tagged, type TaggedBody } from './validators.js';

const HIERARCHY_CACHE_BYTES = 16 * 1024 * 1024;

export interface HierarchyAnswers {
  /** The body of the item's ancestry in the format and its ETag, or undefined when there is no such item. */
  body(id: string, format: 'json' | 'xml'): Promise<TaggedBody | undefined>;
}

export function createHierarchyAnswers(store: Pick<Store, 'dataVersion' | 'getAncestry'>): HierarchyAnswers {
  // One cache per format, keyed by the id alone: a composite key was a string built and hashed per request.
  const sizeOf = (b: TaggedBody) => b.body.length + 128;
  const bodies = {
    json: new LruCache<TaggedBody>(HIERARCHY_CACHE_BYTES / 2, sizeOf),
    xml: new LruCache<TaggedBody>(HIERARCHY_CACHE_BYTES / 2, sizeOf),
  };
  let version = '';
  return {
    async body(id, format) {
      const now = await store.dataVersion();
      if (now !== version) {
        bodies.json.clear();
        bodies.xml.clear();
        version = now;
      }
      const cache = bodies[format];
      let body = cache.get(id);
      if (body === undefined) {
        const ancestry = await store.getAncestry(id);
        if (!ancestry) return undefined;
        body = tagged(Buffer.from(format === 'json' ? hierarchyToJson(ancestry.nodes) : hierarchyToXml(ancestry.nodes)));
        cache.set(id, body);
      }
      return body;
    },
  };
}
