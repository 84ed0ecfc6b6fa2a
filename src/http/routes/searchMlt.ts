/**
 * GET /search/mlt, "more like this" (ddb-openapi-6.8 getSearchMlt): items similar to a
 * given item, by the words of its text fields and the values of its facets named in
 * `fields` (the OpenAPI example: `?facet=id&id=JGTO…&fields=place,title`). Built on the
 * engine's public calls: the item's stored fields (a search for its id with
 * `fields: true`), then a relevance search for any of its terms, without the item itself.
 * docs/search.md "More like this".
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { searchResultToJson } from '../bodies/searchResult.js';
import { and, or, type QueryNode } from '../../query/ast.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { ITEM_FACETS } from '../../domain/itemFacets.js';
import { tokens } from '../../search/engine/fold.js';
import type { StoredValue } from '../../search/indexHost.js';
import { jsonOnly } from '../formatChoice.js';
import { MLT_DEFAULT_FIELDS, MLT_DEFAULT_ROWS, MLT_MAX_TERMS, MLT_TEXT_FIELDS, mltSchema } from '../mltSchema.js';
import { SEARCH_LIMITS } from '../searchSchemas.js';
import { parseFor } from '../searchRequest/parseQueryText.js';
import { list, one, type Query } from '../searchRequest/queryParameters.js';
import type { SearchService } from './searchEngine.js';

export interface MltRouteDeps {
  config: Config;
  search: Pick<SearchService, 'engine'>;
}

/** Where a text field's words come from among an item's stored fields (itemDocument.ts builds the field from it). */
const TEXT_SOURCE: Record<(typeof MLT_TEXT_FIELDS)[number], string> = {
  title: 'title',
  subtitle: 'subtitle',
  keywords: 'keywords_fct',
  affiliate: 'affiliate_fct',
  place: 'place_fct',
  provider: 'provider_fct',
};

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

const values = (v: StoredValue | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [String(v)]);

/**
 * The clauses of the comparison: each distinct word of a text field (a term on that field),
 * each value of a facet (an exact value), in the order of `fields`, at most MLT_MAX_TERMS.
 */
export function mltClauses(stored: Record<string, StoredValue>, fields: readonly string[]): QueryNode<string>[] {
  const clauses: QueryNode<string>[] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    const source = TEXT_SOURCE[field as keyof typeof TEXT_SOURCE];
    const terms = source !== undefined ? values(stored[source]).flatMap((v) => tokens(v)) : values(stored[field]);
    for (const text of terms) {
      const key = `${field}\u0000${text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      clauses.push({ kind: 'term', field, text });
      if (clauses.length === MLT_MAX_TERMS) return clauses;
    }
  }
  return clauses;
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

    const self: QueryNode<string> = { kind: 'term', field: 'id', text: id };
    const source = await search.engine({
      kind: 'item',
      request: { query: self, sort: { kind: 'relevance' }, offset: 0, rows: 1 },
      fields: true,
    });
    const stored = source.fields?.[0];
    if (source.total === 0 || stored === undefined) throw ApiError.of('itemNotFound', id);
    const clauses = mltClauses(stored, fields);
    const like =
      clauses.length === 0
        ? undefined
        : await search.engine({
            kind: 'item',
            request: { query: and([restrict, or(clauses), { kind: 'not', child: self }]), sort: { kind: 'relevance' }, offset, rows },
          });
    const body = searchResultToJson({
      total: like?.total ?? 0,
      docs: like?.docs ?? [],
      facets: [],
      entities: [],
      correctedQuery: '',
      highlightedTerms: like?.matchedTerms ?? [],
      randomSeed: '',
    });
    return reply.header('Content-Type', type).send(body);
  });
}
