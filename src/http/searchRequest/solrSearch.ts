/**
 * GET /search/index/{index}/select, Solr's parameters (docs/search.md "Solr-native select":
 * q, fq, fl, rows, start, sort, facet, facet.field, facet.limit, facet.mincount, facet.sort,
 * cursorMark, wt, q.op, spellcheck, spellcheck.minHits, defType=edismax with qf, pf, mm:
 * readEdismax.ts) as a request of the engine: `search`
 * is the item index, `person` the person index.
 */
import { ApiError } from '../../errors.js';
import { and } from '../../query/ast.js';
import type { SearchKind } from '../../domain/searchFeed.js';
import type { Schema } from '../../search/engine/schema.js';
import type { SearchRequest } from '../../search/engine/types.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { personSchema } from '../../search/schemas/personSchema.js';
import { SEARCH_LIMITS } from '../searchSchemas.js';
import { parseFor, readOperator } from './parseQueryText.js';
import { list, one, type Query } from './queryParameters.js';
import { readEdismax } from './readEdismax.js';
import { readPaging } from './readPaging.js';
import { readShownFields, type ShownFields } from './readShownFields.js';
import { readSolrFacets } from './readSolrFacets.js';
import { readSolrSort } from './readSolrSort.js';

const INDEXES: Record<string, { kind: SearchKind; schema: Schema }> = {
  search: { kind: 'item', schema: itemSchema },
  person: { kind: 'person', schema: personSchema },
};

const bad = (msg: string) => ApiError.of('invalidSearch', msg);

export interface SolrSearch {
  kind: SearchKind;
  request: SearchRequest;
  fl: ShownFields;
  facets: boolean;
  /** spellcheck=true: the answer has Solr's spellcheck block. */
  spellcheck: boolean;
}

export function toSolrSearch(index: string, q: Query): SolrSearch {
  const target = INDEXES[index];
  if (target === undefined) throw bad(`The index '${index.slice(0, 40)}' is not served here. Indexes: search (items), person (persons).`);
  const { kind, schema } = target;
  const wt = one(q, 'wt');
  if (wt !== undefined && wt !== 'json') throw bad(`wt=${wt.slice(0, 20)} is not offered: the answer is Solr's JSON (wt=json).`);
  const operator = readOperator(q, 'q.op');
  const text = one(q, 'q');
  const fq = list(q.fq);
  if (fq.length > SEARCH_LIMITS.maxFilters) throw bad(`${fq.length} fq parameters are too many; at most ${SEARCH_LIMITS.maxFilters}.`);
  const query = and([
    readEdismax(q, schema, SEARCH_LIMITS.maxQueryLength, operator),
    ...fq.filter((f) => f.trim() !== '').map((f) => parseFor(schema, f, SEARCH_LIMITS.maxQueryLength, operator)),
  ]);
  const paging = readPaging(q, { offset: 'start', defaultRows: SEARCH_LIMITS.solrDefaultRows });
  const facets = readSolrFacets(q, schema, index, SEARCH_LIMITS.defaultFacetLimit);
  const request: SearchRequest = { query, facets: facets.facets, sort: readSolrSort(one(q, 'sort'), schema), ...paging };
  // Solr's spellcheck component (docs/search-engine.md "Spellcheck"): spellcheck=true, spellcheck.minHits (default 1).
  const spell = one(q, 'spellcheck');
  const spellcheck = spell === 'true' || spell === 'on';
  if (spellcheck && text !== undefined && text.trim() !== '') {
    const minHits = Number(one(q, 'spellcheck.minHits') ?? 1);
    if (!Number.isSafeInteger(minHits) || minHits < 0)
      throw bad(`spellcheck.minHits must be a whole number ≥ 0, not '${String(one(q, 'spellcheck.minHits')).slice(0, 20)}'.`);
    request.spellcheck = { minHits, text };
  }
  return { kind, request, spellcheck, fl: readShownFields(one(q, 'fl'), schema.storedFields ?? []), facets: facets.on };
}
