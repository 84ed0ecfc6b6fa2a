/**
 * GET /items/{id}/children (docs/decisions.md "Children"; ddb-openapi-6.8.yml
 * getItemsIdChildren): one level down, ordered by position, then label, then
 * id, paged with `offset` and `rows`. 404 for an unknown item and 403 for a
 * blocked one, as `aip`. Validators: a digest ETag of each rendered page
 * (../validators.ts), Cache-Control, 304.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { childrenToJson, childrenToXml } from '../bodies/children.js';
import { LruCache } from '../../lruCache.js';
import { isValidItemId } from '../../domain/itemIds.js';
import type { Store } from '../../store/Store.js';
import { itemRepresentation, itemVary } from '../formatChoice.js';
import { servable } from '../itemAccess.js';
import { CHILDREN_LIMITS, childrenSchema } from '../partSchemas.js';
import { sendTagged, tagged, type TaggedBody } from '../validators.js';

const CHILDREN_CACHE_BYTES = 16 * 1024 * 1024;

export interface ChildrenRouteDeps {
  config: Config;
  store: Pick<Store, 'dataVersion' | 'getChildren' | 'getItemHead'>;
}

type Route = { Params: { id: string }; Querystring: { offset?: number; rows?: number } };

export function registerChildrenRoutes(app: FastifyInstance, deps: ChildrenRouteDeps): void {
  const { config, store } = deps;
  // Rendered pages, until the data changes (store.dataVersion(), as ../hierarchyAnswers.ts does).
  const bodies = new LruCache<TaggedBody>(CHILDREN_CACHE_BYTES, (b) => b.body.length + 160);
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;
  // With a list of CORS origins the answer depends on Origin too (../formatChoice.ts).
  const vary = itemVary(config.http.corsOrigin);
  let version = '';

  async function body(id: string, offset: number, rows: number, format: 'json' | 'xml'): Promise<TaggedBody> {
    const now = await store.dataVersion();
    if (now !== version) {
      bodies.clear();
      version = now;
    }
    const key = `${format}\u0000${offset}\u0000${rows}\u0000${id}`;
    let cached = bodies.get(key);
    if (cached === undefined) {
      const page = await store.getChildren(id, offset, rows);
      // Deleted between the check and the read.
      if (!page) throw ApiError.of('itemNotFound', id);
      cached = tagged(Buffer.from(format === 'json' ? childrenToJson(page) : childrenToXml(page)));
      bodies.set(key, cached);
    }
    return cached;
  }

  async function children(request: FastifyRequest<Route>, reply: FastifyReply) {
    const id = request.params.id;
    if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
    const rep = itemRepresentation(request, config.http.requireAccept);
    servable(id, await store.getItemHead(id));
    const offset = request.query.offset ?? 0;
    const rows = request.query.rows ?? CHILDREN_LIMITS.defaultRows;
    return sendTagged(
      request,
      reply.header('Content-Type', rep.contentType).header('Vary', vary),
      await body(id, offset, rows, rep.format),
      cacheControl,
    );
  }

  app.get<Route>('/items/:id/children', { schema: childrenSchema }, children);
}
