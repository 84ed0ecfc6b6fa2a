/**
 * The parts of an item package as resources of their own (docs/decisions.md
 * "Parts of a package"; ddb-openapi-6.8.yml getItemsIdView, getItemsIdEdm, getItemsIdIndexingProfile,
 * getItemsIdBinaries, getItemsIdSource, getItemsIdSourceComponent): what each
 * answers is ../../formats/packageParts.ts's, how is ../partAnswers.ts's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { PACKAGE_PARTS, type PackagePart } from '../../formats/packageParts.js';
import { labelLanguage } from '../../formats/viewLabels.js';
import { isValidItemId } from '../../domain/itemIds.js';
import type { Store } from '../../store/Store.js';
import type { ItemGraphAnswers } from '../itemGraphAnswers.js';
import { EDM_LINKED_DATA } from '../linkedData.js';
import { createPartAnswers } from '../partAnswers.js';
import { partSchema } from '../partSchemas.js';

export interface PartRouteDeps {
  config: Config;
  store: Pick<Store, 'getItemDocument' | 'getItemHead'>;
  /** The EDM graph in the RDF syntaxes besides RDF/XML, for GET /items/{id}/edm (docs/linked-data.md). */
  graphs: ItemGraphAnswers;
}

type Route = { Params: { id: string }; Querystring: { lang?: string } };

export function registerPartRoutes(app: FastifyInstance, deps: PartRouteDeps): void {
  const parts = createPartAnswers(deps.store, deps.config);
  const handler = (part: PackagePart) => async (request: FastifyRequest<Route>, reply: FastifyReply) => {
    const id = request.params.id;
    if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
    const choice =
      part === 'edm' ? EDM_LINKED_DATA.choose(request, deps.config.http.requireAccept) : ({ kind: 'route', offer: undefined } as const);
    const answer =
      choice.kind === 'rdf'
        ? await deps.graphs.answer(request, id, choice.type)
        : await parts.answer(request, id, part, labelLanguage(request.query.lang));
    return reply.headers(answer.headers).code(answer.status).send(answer.body);
  };
  for (const part of PACKAGE_PARTS) {
    // `compress: false`: bodies are compressed once and cached (../partAnswers.ts), never per request.
    app.get<Route>(`/items/:id/${part}`, { schema: partSchema(part), compress: false }, handler(part));
  }
}
