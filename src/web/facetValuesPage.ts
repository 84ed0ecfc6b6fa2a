/**
 * All values of one facet under the current search (docs/pages.md "All values of a facet"):
 * `/facet/{field}` with the results page's state (`q`, `f`, `from`, `to`), a filter text
 * `fq` (values whose name contains it, without regard to case or accents), the order `vsort`
 * (`count`, the default, or `name`) and the page `vpage`, 100 values a page. Each value is a
 * link to the results with it added as a filter (or, when active, taken away).
 */
import { ITEM_FACETS } from '../domain/itemFacets.js';
import { facetLinks } from './facetLinks.js';
import { first, frame, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { facetLabel, facetValueLabel, format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { facetValuesUrl, resultsQuery } from './resultsQuery.js';
import { engineFilters, readSearchState, searchUrl, stateParams } from './searchState.js';

const VALUES_PER_PAGE = 100;
const MAX_FILTER_LENGTH = 100;
const FACETS: ReadonlySet<string> = new Set(ITEM_FACETS);

/** Lower case, accents dropped: `Dürer` is found by `durer`. */
const loose = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export async function facetValuesPage(deps: PageDeps, field: string, req: PageRequest): Promise<PageAnswer> {
  const { engine, render } = deps;
  const { state, problems } = readSearchState(req.query);
  const f = frame(`/facet/${encodeURIComponent(field)}`, req, (t) => t.notFound, state.q);
  if (!FACETS.has(field))
    return problemPage(render, f, 404, f.t.notFound, format(f.t.unknownFacet, { facet: field, facets: ITEM_FACETS.join(', ') }));
  const label = facetLabel(field, f.lang);
  const text = (first(req.query.fq) ?? '').trim().slice(0, MAX_FILTER_LENGTH);
  const byName = first(req.query.vsort) === 'name';
  const vpageParam = first(req.query.vpage);
  const vpage = vpageParam !== undefined && /^[0-9]{1,6}$/.test(vpageParam) && Number(vpageParam) >= 1 ? Number(vpageParam) : 1;
  const asked = resultsQuery(state);
  if ('error' in asked) return problemPage(render, f, 400, f.t.badRequest, asked.error);
  const answer = await engine({
    kind: 'item',
    request: {
      query: asked.query,
      filters: engineFilters(state.filters),
      facets: [{ field, limit: -1, mincount: 1, sort: byName ? 'index' : 'count' }],
      sort: { kind: 'id', descending: false },
      offset: 0,
      rows: 0,
    },
  });
  const all = answer.facets.find((c) => c.field === field)?.values ?? [];
  const wanted = loose(text);
  const matching = wanted === '' ? all : all.filter((v) => loose(facetValueLabel(field, v.value, f.lang)).includes(wanted));
  const pages = Math.max(1, Math.ceil(matching.length / VALUES_PER_PAGE));
  const page = Math.min(vpage, pages);
  const shown = matching.slice((page - 1) * VALUES_PER_PAGE, page * VALUES_PER_PAGE);
  const own = (p: number): Array<[string, string]> => [
    ...(text === '' ? [] : [['fq', text] as [string, string]]),
    ...(byName ? [['vsort', 'name'] as [string, string]] : []),
    ...(p === 1 ? [] : [['vpage', String(p)] as [string, string]]),
  ];
  const back = { ...state, page: 1 };
  return {
    status: 200,
    html: render('facetValues', {
      ...f,
      title: format(f.t.allValuesOf, { facet: label }),
      problems: problems.map((p) => format(f.t[p.key], p.values)),
      field,
      label,
      text,
      byName,
      action: `/facet/${encodeURIComponent(field)}`,
      hidden: [...stateParams({ ...state, sort: 'relevance' }), ...(f.langParam ? [['lang', f.langParam]] : [])],
      values: facetLinks(f, back, [{ field, values: shown }])[0]?.values ?? [],
      total: matching.length,
      from: matching.length === 0 ? 0 : (page - 1) * VALUES_PER_PAGE + 1,
      to: (page - 1) * VALUES_PER_PAGE + shown.length,
      previous: page > 1 ? facetValuesUrl(state, field, own(page - 1)) : undefined,
      next: page < pages ? facetValuesUrl(state, field, own(page + 1)) : undefined,
      page,
      pages,
      results: searchUrl(back),
    }),
  };
}
