/**
 * Solr's faceting (docs/search.md "Solr-native select"): `facet=true` (or `on`) turns it on,
 * `facet.field` (repeatable) names the facets, `facet.limit` caps the values (-1: every
 * value), `facet.mincount` is the least count listed, `facet.sort` is `count` (the default
 * with a limit) or `index` (the default without).
 */
import { ApiError } from '../../errors.js';
import type { Schema } from '../../search/engine/schema.js';
import type { FacetRequest } from '../../search/engine/types.js';
import { list, one, type Query } from './queryParameters.js';

const bad = (message: string) => ApiError.of('invalidSearch', message);

/** `facet.limit`: a whole number, any negative one meaning every value (-1). */
export function readFacetLimit(text: string | undefined, defaultLimit: number): number {
  if (text === undefined) return defaultLimit;
  if (!/^-?[0-9]{1,7}$/.test(text.trim()))
    throw bad(`facet.limit must be a whole number, or -1 for every value; got '${text.slice(0, 20)}'.`);
  const n = Number(text.trim());
  return n < 0 ? -1 : n;
}

/** Whether faceting is on, and the facets it counts; `index` names the index in messages. */
export function readSolrFacets(q: Query, schema: Schema, index: string, defaultLimit: number): { on: boolean; facets: FacetRequest[] } {
  const facetOn = one(q, 'facet');
  const on = facetOn === 'true' || facetOn === 'on';
  const facets: FacetRequest[] = [];
  if (!on) return { on, facets };
  const limit = readFacetLimit(one(q, 'facet.limit'), defaultLimit);
  const mincount = Number(one(q, 'facet.mincount') ?? 0);
  const sort = (one(q, 'facet.sort') ?? (limit > 0 ? 'count' : 'index')) as 'count' | 'index';
  for (const field of new Set(list(q['facet.field']))) {
    if (!schema.facets.includes(field))
      throw bad(`facet.field '${field.slice(0, 40)}' is not a facet of the ${index} index. Facets: ${schema.facets.join(', ')}.`);
    facets.push({ field, limit, mincount, sort });
  }
  return { on, facets };
}
