/**
 * The places page (docs/pages.md "Places"): the points of the items a search finds, as a list
 * with the number of items at each and, for a search around a point (`pt=lat,lon`, `d=km`),
 * their distance from it, nearest first. No map tiles from elsewhere: a list, in words.
 * Counts are the engine's facet `geocode` (the item's point, src/domain/itemFacets.ts); a
 * point's name is the place name most of the items there carry (`place_fct`).
 */
import { ALL, type QueryNode } from '../query/ast.js';
import { parseQuery } from '../query/parse.js';
import { distanceKm, type GeoShape } from '../search/engine/geo.js';
import { queryFields } from '../search/engine/schema.js';
import type { SearchRequest } from '../search/engine/types.js';
import { itemSchema } from '../search/schemas/itemSchema.js';
import { frame, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { format } from './messages.js';
import { numberFormat } from './numberFormat.js';
import type { PageDeps } from './pageDeps.js';
import { engineFilters, readSearchState, searchUrl } from './searchState.js';

/** Points listed at most. */
export const MAX_PLACES = 50;
const ITEM_FIELDS = queryFields(itemSchema);
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const DECIMAL = /^[+-]?(\d{1,3}(\.\d{1,15})?)$/;

/** `pt` and `d` of the page, or the message for the visitor. */
function readCircle(
  pt: string | undefined,
  d: string | undefined,
): { point?: { lat: number; lon: number; km?: number }; problem?: 'badPoint' | 'badDistance' } {
  if (pt === undefined || pt === '') return {};
  const [a = '', b = '', ...rest] = pt.split(',').map((s) => s.trim());
  const lat = DECIMAL.test(a) ? Number(a) : NaN;
  const lon = DECIMAL.test(b) ? Number(b) : NaN;
  if (rest.length > 0 || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) return { problem: 'badPoint' };
  if (d === undefined || d === '') return { point: { lat, lon } };
  const km = /^\d{1,5}(\.\d{1,6})?$/.test(d.trim()) ? Number(d) : NaN;
  if (!(km >= 0 && km <= 20_038)) return { problem: 'badDistance' };
  return { point: { lat, lon, km } };
}

export async function placesPage(deps: PageDeps, req: PageRequest): Promise<PageAnswer> {
  const { engine, render } = deps;
  const { state, problems } = readSearchState(req.query);
  const f = frame('/places', req, (t) => (state.q === '' ? t.places : format(t.placesFor, { q: state.q })), state.q);
  const circle = readCircle(first(req.query.pt), first(req.query.d));
  if (circle.problem !== undefined) return problemPage(render, f, 400, f.t.badRequest, f.t[circle.problem]);
  let query: QueryNode<string> = ALL;
  if (state.q !== '') {
    try {
      query = parseQuery(state.q, { fields: ITEM_FIELDS });
    } catch (error) {
      return problemPage(render, f, 400, f.t.badRequest, (error as Error).message);
    }
  }
  const point = circle.point;
  const filters = engineFilters(state.filters);
  const geo: GeoShape[] = point?.km === undefined ? [] : [{ kind: 'circle', lat: point.lat, lon: point.lon, km: point.km }];
  const base: SearchRequest = { query, filters, geo, sort: { kind: 'id', descending: false }, offset: 0, rows: 0 };
  // Around a point every point counts (the nearest are listed); else the most items first.
  const answer = await engine({
    kind: 'item',
    request: { ...base, facets: [{ field: 'geocode', limit: point ? -1 : MAX_PLACES, mincount: 1, sort: 'count' }] },
  });
  let points = (answer.facets[0]?.values ?? []).map((v) => {
    const [lat = 0, lon = 0] = v.value.split(',').map(Number);
    return { value: v.value, lat, lon, count: v.count, km: point ? distanceKm(point.lat, point.lon, lat, lon) : undefined };
  });
  if (point) points = points.sort((a, b) => a.km! - b.km! || b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, MAX_PLACES);
  // A point is named by all the items there, found or not: one name for a point on every
  // list. One search names them all, and the engine keeps the names until the index changes
  // (docs/search-engine.md "Names of facet values"): fifty searches, one per point, were
  // most of this page's time (at 1.1 M items, 22 ms at p50 for the places of 'stadt').
  const names =
    points.length === 0
      ? []
      : ((
          await engine({
            kind: 'item',
            request: { query: ALL, sort: { kind: 'id', descending: false }, offset: 0, rows: 0 },
            names: { field: 'geocode', values: points.map((p) => p.value), of: 'place_fct' },
          })
        ).names ?? []);
  const degrees = numberFormat(f.lang, 5);
  const kilometres = numberFormat(f.lang, 1);
  const places = points.map((p, i) => ({
    name: names[i] || p.value,
    coordinates: `${degrees(p.lat)}, ${degrees(p.lon)}`,
    count: p.count,
    distance: p.km === undefined ? undefined : format(f.t.kilometres, { km: kilometres(p.km) }),
    href: searchUrl({ ...state, filters: [...state.filters, { field: 'geocode', value: p.value }], page: 1, sort: 'relevance' }),
    around: `/places?${new URLSearchParams([
      ...(state.q === '' ? [] : [['q', state.q]]),
      ...state.filters.map((x) => ['f', `${x.field}:${x.value}`]),
      ['pt', p.value],
      ['d', String(point?.km ?? 100)],
      ...(state.lang === undefined ? [] : [['lang', state.lang]]),
    ]).toString()}`,
  }));
  return {
    status: 200,
    html: render('places', {
      ...f,
      state,
      problems: problems.map((p) => format(f.t[p.key], p.values)),
      total: answer.total,
      places,
      point: point && {
        text: `${point.lat}, ${point.lon}`,
        km: point.km === undefined ? undefined : f.num(point.km),
      },
      pt: first(req.query.pt) ?? '',
      d: first(req.query.d) ?? '',
      searchHref: searchUrl({ ...state, page: 1 }),
    }),
  };
}
