/**
 * Route schema of GET /search/mlt, "more like this" (ddb-openapi-6.8.yml and -2.6.1.yml
 * getSearchMlt: parameters fields, query, offset, rows; the example adds facet=id and
 * id=<item id>). The files give the answer as `200-jsononly`: it is the answer of
 * GET /search (docs/search.md "More like this").
 */
import { ITEM_FACETS } from '../domain/itemFacets.js';
import { keyQuery } from './schemas.js';
import { jsonErrors, SEARCH_LIMITS } from './searchSchemas.js';

import { MLT_DEFAULT_FIELDS, MLT_TEXT_FIELDS } from '../search/moreLikeThis.js';

export { MLT_DEFAULT_FIELDS, MLT_MAX_TERMS, MLT_TEXT_FIELDS } from '../search/moreLikeThis.js';
export const MLT_DEFAULT_ROWS = 10;

export const mltSchema = {
  summary: 'Items like a given item (ddb-openapi-6.8 getSearchMlt)',
  querystring: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The item to find similar items to (its 32-character id).' },
      facet: {
        type: 'array',
        items: { type: 'string' },
        description: 'Only id, as in the OpenAPI example (facet=id&id=…): id names the item.',
      },
      fields: {
        type: 'array',
        items: { type: 'string' },
        description: `What to compare by, separated by commas or repeated: text fields ${MLT_TEXT_FIELDS.join(', ')} (shared words) or facets ${ITEM_FACETS.join(', ')} (shared values). Default ${MLT_DEFAULT_FIELDS.join(',')}.`,
      },
      query: { type: 'string', description: 'Lucene query the similar items must also match; default *:*.' },
      offset: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxOffset, default: 0 },
      rows: { type: 'integer', minimum: 0, maximum: SEARCH_LIMITS.maxRows, default: MLT_DEFAULT_ROWS },
      ...keyQuery,
    },
  },
  response: {
    200: {
      description:
        'The answer of GET /search: numberOfResults, results [{name: "single", docs, numberOfDocs}], facets [], entities [], correctedQuery, highlightedTerms (the item\'s terms that matched), randomSeed.',
      content: { 'application/json': { schema: { type: 'object' } } },
    },
    304: { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' },
    ...jsonErrors,
    404: { ...jsonErrors[400], description: 'No item has this id.' },
  },
} as const;
