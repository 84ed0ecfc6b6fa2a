/**
 * GET /items/{id}/aip, /items/{id} and /items/{id}/parents
 * (spec 4.3, 4.4; docs/decisions.md "Hierarchy", "Item package").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { isValidItemId } from '../../domain/itemIds.js';
import { redactUrl } from '../redact.js';
import { itemRepresentation, itemVary } from '../formatChoice.js';
import type { HierarchyAnswers } from '../hierarchyAnswers.js';
import type { ItemGraphAnswers } from '../itemGraphAnswers.js';
import { ITEM_LINKED_DATA } from '../linkedData.js';
import type { PackageAnswers } from '../packageAnswers.js';
import { aipSchema, itemSchema, parentsSchema } from '../schemas.js';
import { sendTagged } from '../validators.js';

export interface ItemRouteDeps {
  config: Config;
  hierarchies: HierarchyAnswers;
  packages: PackageAnswers;
  /** The item's EDM graph in RDF syntaxes, for GET /items/{id} (docs/linked-data.md). */
  graphs: ItemGraphAnswers;
}

type ItemRequest = FastifyRequest<{ Params: { id: string } }>;

function itemId(request: ItemRequest): string {
  const id = request.params.id;
  if (!isValidItemId(id)) throw ApiError.of('invalidItemId', redactUrl(id));
  return id;
}

export function registerItemRoutes(app: FastifyInstance, deps: ItemRouteDeps): void {
  const { config } = deps;
  const vary = itemVary(config.http.corsOrigin);
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;

  async function aip(request: ItemRequest, reply: FastifyReply) {
    const answer = await deps.packages.answer(request, itemId(request));
    return reply.headers(answer.headers).code(answer.status).send(answer.body);
  }

  /** GET /items/{id}: the package, or, when Accept ranks an RDF syntax first, the EDM graph in it. */
  async function item(request: ItemRequest, reply: FastifyReply) {
    const id = itemId(request);
    const choice = ITEM_LINKED_DATA.choose(request, config.http.requireAccept);
    const answer = choice.kind === 'rdf' ? await deps.graphs.answer(request, id, choice.type) : await deps.packages.answer(request, id);
    return reply.headers(answer.headers).code(answer.status).send(answer.body);
  }

  async function parents(request: ItemRequest, reply: FastifyReply) {
    const id = itemId(request);
    const rep = itemRepresentation(request, config.http.requireAccept);
    const answer = await deps.hierarchies.body(id, rep.format);
    if (answer === undefined) throw ApiError.of('itemNotFound', redactUrl(id));
    // The fast path (../fastPath.ts) writes these headers too, in this order.
    return sendTagged(request, reply.header('Content-Type', rep.contentType).header('Vary', vary), answer, cacheControl);
  }

  // `compress: false`: package bodies are compressed once and cached (../packageAnswers.ts), never per request.
  type Route = { Params: { id: string } };
  app.get<Route>('/items/:id/aip', { schema: aipSchema, compress: false }, aip);
  app.get<Route>('/items/:id', { schema: itemSchema, compress: false }, item);
  app.get<Route>('/items/:id/parents', { schema: parentsSchema }, parents);
}
