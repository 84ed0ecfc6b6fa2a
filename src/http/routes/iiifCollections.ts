/**
 * Hierarchies as IIIF viewers and aggregators walk them (docs/iiif.md):
 *
 * - `GET /items/{id}/iiif/collection`: a IIIF Presentation 3.0 Collection
 *   (https://iiif.io/api/presentation/3.0/#51-collection) of an item with children: its own
 *   manifest first when it has binaries, then each child, as its Collection when it has
 *   children itself, else as its Manifest (a child without either is left out); `partOf` the
 *   parent's Collection. More than `iiif.pageSize` children: the Collection lists Collections
 *   of `iiif.pageSize` children each, `/items/{id}/iiif/collection/{n}`, each `partOf` it.
 * - `GET /iiif/discovery`: IIIF Change Discovery 1.0 (https://iiif.io/api/discovery/1.0/), an
 *   Activity Streams OrderedCollection of the store's changes, oldest first, in pages of
 *   `iiif.pageSize` items' changes at `/iiif/discovery/page/{n}` (0 the oldest), made from the
 *   datestamps and tombstones the OAI-PMH provider keeps (docs/oai-pmh.md "Datestamps and deletions").
 *
 * Negotiation, CORS and the key as for the manifests (./iiif.ts); a digest ETag (../validators.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Config } from '../../config.js';
import type { ChildNode } from '../../domain/hierarchy.js';
import { isValidItemId } from '../../domain/itemIds.js';
import { ApiError } from '../../errors.js';
import { itemFieldsFromJson } from '../../formats/itemFields.js';
import type { Store } from '../../store/Store.js';
import { IIIF_PRESENTATION_CONTEXT, packageBinaries } from '../bodies/iiifManifest.js';
import { OPEN_CORS } from '../openCors.js';
import { collectionUrl, iiifBase, iiifContentType } from './iiif.js';

export interface IiifCollectionDeps {
  config: Config;
  store: Pick<Store, 'getItemDocument' | 'getAncestry' | 'getChildren' | 'countOaiRecords' | 'listOaiActivity'>;
}

export const DISCOVERY_CONTEXT = 'http://iiif.io/api/discovery/1/context.json';
/** Activity Streams as JSON-LD (its profile); JSON to a client that prefers it. */
const DISCOVERY_TYPE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

type Json = Record<string, unknown>;
const none = (text: string) => ({ none: [text] });
const manifestUrl = (base: string, id: string) => `${base}/items/${encodeURIComponent(id)}/iiif`;
const PAGE = /^(0|[1-9]\d{0,8})$/;

export function registerIiifCollectionRoutes(app: FastifyInstance, deps: IiifCollectionDeps): void {
  const { config, store } = deps;
  const size = config.iiif.pageSize;
  const options: RouteShorthandOptions = {
    schema: { hide: true },
    config: { ...OPEN_CORS, digestValidators: true },
  };

  /** Whether the item has binaries (a manifest), and its label; undefined when it is gone or blocked. */
  async function readItem(id: string): Promise<{ manifest: boolean; label: string } | undefined> {
    const doc = await store.getItemDocument(id, 'json');
    if (doc === undefined || doc.blockedReason !== null) return undefined;
    const text = doc.body.toString('utf8');
    return { manifest: packageBinaries(JSON.parse(text)).length > 0, label: itemFieldsFromJson(text, id).result.label };
  }

  const hasManifest = async (id: string) => (await readItem(id))?.manifest;

  async function members(base: string, children: readonly ChildNode[]): Promise<Json[]> {
    const out: Json[] = [];
    for (const child of children) {
      const label = none(child.label || child.id);
      if (child.childCount > 0) out.push({ id: collectionUrl(base, child.id), type: 'Collection', label });
      else if (await hasManifest(child.id)) out.push({ id: manifestUrl(base, child.id), type: 'Manifest', label });
    }
    return out;
  }

  function pageNumber(text: string | undefined): number | undefined {
    if (text === undefined) return undefined;
    if (!PAGE.test(text))
      throw ApiError.of('badRequest', `the page '${text.slice(0, 20)}' is not a whole number; follow the links of the first answer.`);
    return Number(text);
  }

  const send = (request: FastifyRequest, reply: FastifyReply, body: Json, type: string) => {
    const json = JSON.stringify(body);
    return reply.header('Content-Type', type).header('Vary', 'Accept, Accept-Encoding').send(json);
  };

  async function collection(request: FastifyRequest<{ Params: { id: string; page?: string } }>, reply: FastifyReply) {
    const { id } = request.params;
    if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
    const type = iiifContentType(config, request);
    const page = pageNumber(request.params.page);
    const { base } = iiifBase(request, '/items/');
    const item = await readItem(id);
    if (item === undefined) {
      const doc = await store.getItemDocument(id, 'json');
      if (doc === undefined) throw ApiError.of('itemNotFound', id);
      throw ApiError.of('itemBlocked', id, doc.blockedReason ?? '');
    }
    const total = (await store.getChildren(id, 0, 0))?.total ?? 0;
    if (total === 0) throw ApiError.of('itemHasNoChildren', id);
    const pages = Math.ceil(total / size);
    // The label as /parents shows it; a root has no chain there (docs/api.md "GET /items/{id}/parents").
    const ancestry = await store.getAncestry(id);
    const label = ancestry?.nodes[0]?.label || item.label || id;
    const parent = ancestry?.nodes[1];
    const self = collectionUrl(base, id);
    const range = (n: number) => `${label} (${(n - 1) * size + 1}–${Math.min(n * size, total)})`;
    const context = { '@context': IIIF_PRESENTATION_CONTEXT };
    if (page !== undefined) {
      if (page < 1 || page > pages) throw ApiError.of('iiifPageNotFound', `The Collection of item '${id}'`, page, 1, pages);
      const children = (await store.getChildren(id, (page - 1) * size, size))?.nodes ?? [];
      return send(
        request,
        reply,
        {
          ...context,
          id: `${self}/${page}`,
          type: 'Collection',
          label: none(range(page)),
          partOf: [{ id: self, type: 'Collection', label: none(label) }],
          items: await members(base, children),
        },
        type,
      );
    }
    const items: Json[] = item.manifest ? [{ id: manifestUrl(base, id), type: 'Manifest', label: none(label) }] : [];
    if (pages === 1) items.push(...(await members(base, (await store.getChildren(id, 0, size))?.nodes ?? [])));
    else for (let n = 1; n <= pages; n++) items.push({ id: `${self}/${n}`, type: 'Collection', label: none(range(n)) });
    return send(
      request,
      reply,
      {
        ...context,
        id: self,
        type: 'Collection',
        label: none(label),
        ...(parent === undefined
          ? {}
          : { partOf: [{ id: collectionUrl(base, parent.id), type: 'Collection', label: none(parent.label || parent.id) }] }),
        items,
      },
      type,
    );
  }

  const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  async function discovery(request: FastifyRequest<{ Params: { page?: string } }>, reply: FastifyReply) {
    const json = iiifContentType(config, request).startsWith('application/json');
    const type = json ? 'application/json; charset=utf-8' : DISCOVERY_TYPE;
    const page = pageNumber(request.params.page);
    const { base } = iiifBase(request, '/iiif/discovery');
    const self = `${base}/iiif/discovery`;
    const pageUrl = (n: number) => ({ id: `${self}/page/${n}`, type: 'OrderedCollectionPage' });
    const last = Math.max(0, Math.ceil((await store.countOaiRecords()) / size) - 1);
    const context = { '@context': DISCOVERY_CONTEXT };
    if (page === undefined) {
      return send(request, reply, { ...context, id: self, type: 'OrderedCollection', first: pageUrl(0), last: pageUrl(last) }, type);
    }
    if (page > last) throw ApiError.of('iiifPageNotFound', 'The change discovery stream', page, 0, last);
    const activities: Json[] = [];
    for (const record of await store.listOaiActivity(page * size, size)) {
      const endTime = isoSeconds(record.datestamp);
      const objects = {
        manifest: { id: manifestUrl(base, record.id), type: 'Manifest' },
        collection: { id: collectionUrl(base, record.id), type: 'Collection' },
      };
      if (record.deleted) {
        // Whichever of the two it had is gone (the tombstone does not say which).
        activities.push({ type: 'Delete', object: objects.manifest, endTime }, { type: 'Delete', object: objects.collection, endTime });
        continue;
      }
      const kind = record.created === record.datestamp ? 'Create' : 'Update';
      if (await hasManifest(record.id)) activities.push({ type: kind, object: objects.manifest, endTime });
      if (((await store.getChildren(record.id, 0, 0))?.total ?? 0) > 0)
        activities.push({ type: kind, object: objects.collection, endTime });
    }
    return send(
      request,
      reply,
      {
        ...context,
        id: `${self}/page/${page}`,
        type: 'OrderedCollectionPage',
        partOf: { id: self, type: 'OrderedCollection' },
        ...(page > 0 ? { prev: pageUrl(page - 1) } : {}),
        ...(page < last ? { next: pageUrl(page + 1) } : {}),
        orderedItems: activities,
      },
      type,
    );
  }

  type ItemParams = { Params: { id: string; page?: string } };
  type PageParams = { Params: { page?: string } };
  app.get<ItemParams>('/items/:id/iiif/collection', options, collection);
  app.get<ItemParams>('/items/:id/iiif/collection/:page', options, collection);
  app.get<PageParams>('/iiif/discovery', options, discovery);
  app.get<PageParams>('/iiif/discovery/page/:page', options, discovery);
}
