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
import { GEO_FIELD, readGeocode, readLocalShape, readPoint, type SpatialDefaults } from './readGeo.js';
import type { GeoShape } from '../../search/engine/geo.js';

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

/** An fq that is a spatial filter: Solr's local params, or a LatLonType query `geocode:…`; undefined for any other. */
function spatialFilter(fq: string, defaults: SpatialDefaults): { shape: GeoShape; lat?: number; lon?: number } | undefined {
  const local = readLocalShape(fq, defaults, 'fq');
  if (local !== undefined) return local;
  const t = fq.trim();
  if (!t.startsWith(`${GEO_FIELD}:`)) return undefined;
  const value = t.slice(GEO_FIELD.length + 1).trim();
  return readGeocode(value.startsWith('"') && value.endsWith('"') && value.length > 1 ? value.slice(1, -1) : value);
}

/**
 * `sort=geodist() asc|desc` (optionally `, id asc`): by the distance from `pt`, else from the
 * point of the one spatial filter; undefined for another sort.
 */
function geodistSort(
  text: string | undefined,
  defaults: SpatialDefaults,
  shapes: ReadonlyArray<{ lat?: number; lon?: number }>,
  schema: Schema,
): SearchRequest['sort'] | undefined {
  const m = /^\s*geodist\(\s*\)\s+(asc|desc)\s*(,\s*id\s+asc\s*)?$/.exec(text ?? '');
  if (m === null) {
    if (text !== undefined && /^\s*geodist\(/.test(text))
      throw bad(`Can't use sort '${text.slice(0, 60)}': write sort=geodist() asc (or desc), with pt=<lat>,<lon> and sfield=${GEO_FIELD}.`);
    return undefined;
  }
  if (schema.geo === undefined) throw bad('sort=geodist() is for the search index: persons have no points.');
  if (defaults.sfield !== undefined && defaults.sfield !== GEO_FIELD)
    throw bad(`sfield must be ${GEO_FIELD}, the field of the items' points; got '${defaults.sfield.slice(0, 60)}'.`);
  const points = shapes.filter((s) => s.lat !== undefined && s.lon !== undefined);
  const point =
    defaults.pt !== undefined
      ? readPoint(defaults.pt, 'pt')
      : points.length === 1
        ? { lat: points[0]!.lat!, lon: points[0]!.lon! }
        : undefined;
  if (point === undefined) throw bad('sort=geodist() needs the point to measure from: give pt=<lat>,<lon> (e.g. pt=52.52,13.405).');
  return { kind: 'distance', lat: point.lat, lon: point.lon, descending: m[1] === 'desc' };
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
  // Spatial filters (docs/search.md "Geography"): {!geofilt …}, {!bbox …} and geocode:[…] in fq.
  const defaults: SpatialDefaults = { pt: one(q, 'pt'), sfield: one(q, 'sfield'), d: one(q, 'd') };
  const shapes: Array<{ shape: GeoShape; lat?: number; lon?: number }> = [];
  const plain: string[] = [];
  for (const f of fq.filter((x) => x.trim() !== '')) {
    const spatial = spatialFilter(f, defaults);
    if (spatial === undefined) plain.push(f);
    else if (schema.geo === undefined) throw bad(`The ${index} index has no points: fq=${f.slice(0, 60)} is for the search index.`);
    else shapes.push(spatial);
  }
  const query = and([
    readEdismax(q, schema, SEARCH_LIMITS.maxQueryLength, operator),
    ...plain.map((f) => parseFor(schema, f, SEARCH_LIMITS.maxQueryLength, operator)),
  ]);
  const paging = readPaging(q, { offset: 'start', defaultRows: SEARCH_LIMITS.solrDefaultRows });
  const facets = readSolrFacets(q, schema, index, SEARCH_LIMITS.defaultFacetLimit);
  const sortText = one(q, 'sort');
  const request: SearchRequest = {
    query,
    facets: facets.facets,
    sort: geodistSort(sortText, defaults, shapes, schema) ?? readSolrSort(sortText, schema),
    ...paging,
  };
  if (shapes.length > 0) request.geo = shapes.map((s): GeoShape => s.shape);
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
