/**
 * GET /search/mlt, "more like this" (ddb-openapi-6.8 getSearchMlt): items similar to a
 * given item, by the words of its text fields and the values of its facets named in
 * `fields` (the OpenAPI example: `?facet=id&id=JGTO…&fields=place,title`); the comparison
 * itself is src/search/moreLikeThis.ts. docs/search.md "More like this".
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { searchResultToJson } from '../bodies/searchResult.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { ITEM_FACETS } from '../../domain/itemFacets.js';
import { MLT_TEXT_FIELDS, moreLikeThis } from '../../search/moreLikeThis.js';
import { jsonOnly } from '../formatChoice.js';
import { MLT_DEFAULT_FIELDS, MLT_DEFAULT_ROWS, mltSchema } from '../mltSchema.js';
import { SEARCH_LIMITS } from '../searchSchemas.js';
import { parseFor } from '../searchRequest/parseQueryText.js';
import { list, one, type Query } from '../searchRequest/queryParameters.js';
import type { SearchService } from './searchEngine.js';

export interface MltRouteDeps {
  config: Config;
  search: Pick<SearchService, 'engine'>;
}

const bad = (message: string) => ApiError.of('invalidSearch', message);

/** `fields`: names separated by commas or repeated; each a text field or a facet. */
export function mltFields(q: Query): string[] {
  const names = list(q.fields)
    .flatMap((v) => v.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) return [...MLT_DEFAULT_FIELDS];
  for (const n of names) {
    if (!(MLT_TEXT_FIELDS as readonly string[]).includes(n) && !(ITEM_FACETS as readonly string[]).includes(n)) {
      throw bad(
        `fields names '${n.slice(0, 40)}', which items are not compared by. Text fields: ${MLT_TEXT_FIELDS.join(', ')}; facets: ${ITEM_FACETS.join(', ')}.`,
      );
    }
  }
  return [...new Set(names)];
}

export function registerMltRoutes(app: FastifyInstance, deps: MltRouteDeps): void {
  const { config, search } = deps;
  app.get('/search/mlt', { schema: mltSchema, config: { digestValidators: true } }, async (request, reply) => {
    const type = jsonOnly(request, config.http.requireAccept).contentType;
    const q = request.query as Query;
    for (const f of list(q.facet)) {
      if (f !== 'id')
        throw bad(`facet=${f.slice(0, 40)} is not offered here: give the item as facet=id&id=<item id> (or id=<item id> alone).`);
    }
    const id = one(q, 'id');
    if (id === undefined || id.trim() === '')
      throw bad('id is missing: give the item to compare with, e.g. /search/mlt?id=<item id>&fields=place,title.');
    const fields = mltFields(q);
    const text = one(q, 'query');
    const restrict = parseFor(itemSchema, text, SEARCH_LIMITS.maxQueryLength);
    const offset = Number(one(q, 'offset') ?? 0);
    const rows = Number(one(q, 'rows') ?? MLT_DEFAULT_ROWS);

    const like = await moreLikeThis((s) => search.engine(s), { id, fields, restrict, offset, rows });
    if (like === undefined) throw ApiError.of('itemNotFound', id);
    const body = searchResultToJson({
      total: like.total,
      docs: like.docs,
      facets: [],
      entities: [],
      correctedQuery: '',
      highlightedTerms: like.matchedTerms,
      randomSeed: '',
    });
    return reply.header('Content-Type', type).send(body);
  });
}
