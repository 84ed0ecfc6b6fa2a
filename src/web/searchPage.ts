import { REUSABLE_GROUPS } from '../domain/licenseGroups.js';
import type { QueryNode } from '../query/ast.js';
import { parseQuery } from '../query/parse.js';
import { LINKED_PERSONS, personNamesQuery, withLinkedPersons } from '../search/schemas/linkedPersons.js';
import { histogramBars, spanLabel } from './dateRange.js';
import { itemCount } from './exploreMessages.js';
import { facetLinks } from './facetLinks.js';
import { frame, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { hitsOf, parseDocs, personLink, providersOf, type ResultDoc } from './hits.js';
import { facetLabel, facetValueLabel, format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { personView } from './personView.js';
import { facetValuesUrl, resultsQuery } from './resultsQuery.js';
import {
  engineFilters,
  ENGINE_SORT,
  MAX_PAGE,
  readSearchState,
  ROWS,
  searchUrl,
  SORTS,
  stateParams,
  type SearchState,
} from './searchState.js';

/** Facets shown beside the results, in this order. */
const RESULT_FACETS = [
  'type_fct',
  'sector_fct',
  'license_group',
  'provider_fct',
  'place_fct',
  'affiliate_fct',
  'keywords_fct',
  'language_fct',
] as const;
const FACET_VALUES = 8;
const PERSON_ROWS = 5;
/** Width of the histogram's longest bar, in the SVG's units. */
const BAR_WIDTH = 100;

/**
 * The "reusable" filter (docs/pages.md): the licence groups whose media may be reused
 * without asking (src/domain/licenseGroups.ts REUSABLE_GROUPS), in place of any other licence
 * group filter; active when exactly those are, and then a link that takes them off.
 */
function reusableLink(state: SearchState): { href: string; active: boolean } {
  const others = state.filters.filter((x) => x.field !== 'license_group');
  const groups = state.filters.filter((x) => x.field === 'license_group').map((x) => x.value);
  const active = groups.length === REUSABLE_GROUPS.length && REUSABLE_GROUPS.every((g) => groups.includes(g));
  const filters = active ? others : [...others, ...REUSABLE_GROUPS.map((value) => ({ field: 'license_group', value }))];
  return { href: searchUrl({ ...state, filters, page: 1 }), active };
}

/** The results page (docs/pages.md): hits, facets, sort, pager, and persons whose names match. */
export async function searchPage(deps: PageDeps, req: PageRequest): Promise<PageAnswer> {
  const { store, engine, render, media } = deps;
  const { state, problems } = readSearchState(req.query);
  const f = frame('/search', req, (t) => (state.q === '' ? t.allItems : format(t.resultsFor, { q: state.q })), state.q);
  const asked = resultsQuery(state);
  if ('error' in asked) return problemPage(render, f, 400, f.t.badRequest, asked.error);
  const { query } = asked;
  // One value more than shown tells whether a facet has more (then "show all" and a filter box).
  const facets = [
    ...RESULT_FACETS.map((field) => ({ field, limit: FACET_VALUES + 1, mincount: 1, sort: 'count' as const })),
    // The vocabulary's codes of the hits' dates, for the histogram (./dateRange.ts): a few dozen at most.
    { field: 'time_fct', limit: -1, mincount: 1, sort: 'index' as const },
  ];
  // The items linked to the persons the query names are found too, as GET /search finds
  // them (docs/search.md "Names across languages and scripts").
  const names = personNamesQuery(query);
  const named =
    names === undefined
      ? undefined
      : await engine({ kind: 'person', request: { query: names, sort: { kind: 'relevance' }, offset: 0, rows: LINKED_PERSONS } }).catch(
          () => undefined,
        );
  const itemSearch = engine({
    kind: 'item',
    request: {
      query: withLinkedPersons(query, named?.ids ?? []),
      filters: engineFilters(state.filters),
      facets,
      sort: ENGINE_SORT[state.sort],
      offset: (state.page - 1) * ROWS,
      rows: ROWS,
    },
  });
  // Persons whose names match the same words; a query in item fields (title:…) is none of theirs.
  let personQuery: QueryNode<string> | undefined;
  if (state.q !== '') {
    try {
      personQuery = parseQuery(state.q);
    } catch {
      personQuery = undefined;
    }
  }
  const personSearch =
    personQuery === undefined
      ? undefined
      : engine({ kind: 'person', request: { query: personQuery, sort: { kind: 'relevance' }, offset: 0, rows: PERSON_ROWS } }).catch(
          () => undefined,
        );
  const [items, persons] = await Promise.all([itemSearch, personSearch]);
  const docs = parseDocs<ResultDoc>(items);
  const span = spanLabel(state, f.lang);
  /** The histogram of the hits' dates: a bar per century (or part of one), each a link that narrows the range to it. */
  const timelineOf = () => {
    const bars = histogramBars(
      items.facets.find((c) => c.field === 'time_fct'),
      state,
    );
    const most = Math.max(1, ...bars.map((b) => b.count));
    return {
      bars: bars.map((b) => {
        const range = spanLabel(b, f.lang);
        return {
          range,
          count: b.count,
          width: b.count === 0 ? 0 : Math.max(1, Math.round((b.count / most) * BAR_WIDTH)),
          label: format(f.t.barCount, { range, items: itemCount(f.t, b.count, f.lang) }),
          href: searchUrl({ ...state, from: b.from, to: b.to, page: 1 }),
          current: b.from === state.from && b.to === state.to,
        };
      }),
      from: state.from,
      to: state.to,
      span,
      remove: span === '' ? undefined : searchUrl({ ...state, from: undefined, to: undefined, page: 1 }),
    };
  };
  const pages = Math.max(1, Math.ceil(items.total / ROWS));
  const pageLinks: Array<{ page: number; href: string; current: boolean }> = [];
  for (let p = Math.max(1, state.page - 3); p <= Math.min(pages, state.page + 3, MAX_PAGE); p++) {
    pageLinks.push({ page: p, href: searchUrl({ ...state, page: p }), current: p === state.page });
  }
  const sorts = SORTS.map((s) => ({
    value: s,
    label: {
      relevance: f.t.sortRelevance,
      title: f.t.sortTitleAsc,
      '-title': f.t.sortTitleDesc,
      date: f.t.sortOldest,
      '-date': f.t.sortNewest,
    }[s],
    selected: s === state.sort,
  }));
  return {
    status: 200,
    html: render('search', {
      ...f,
      state,
      description:
        state.q === ''
          ? format(f.t.allResultsDescription, { total: f.num(items.total) })
          : format(f.t.resultsDescription, { total: f.num(items.total), q: state.q }),
      problems: problems.map((p) => format(f.t[p.key], p.values)),
      total: items.total,
      from: items.total === 0 ? 0 : (state.page - 1) * ROWS + 1,
      to: (state.page - 1) * ROWS + docs.length,
      results: await hitsOf(media, f, docs, store),
      providers: await providersOf(
        store,
        docs.map((d) => d.id),
      ),
      facets: facetLinks(
        f,
        state,
        items.facets.filter((c) => c.field !== 'time_fct'),
      ).map((g) => ({
        ...g,
        values: g.values.slice(0, FACET_VALUES),
        more: g.values.length > FACET_VALUES ? facetValuesUrl(state, g.field) : undefined,
        action: `/facet/${encodeURIComponent(g.field)}`,
      })),
      // The state as hidden fields of the forms (sort, date range, facet filters), the lang the URL named included.
      hidden: [...stateParams(state), ...(f.langParam === undefined ? [] : [['lang', f.langParam]])],
      timeline: timelineOf(),
      active: [
        ...state.filters.map((x) => ({
          label: `${facetLabel(x.field, f.lang)}: ${facetValueLabel(x.field, x.value, f.lang)}`,
          href: searchUrl({ ...state, filters: state.filters.filter((y) => y !== x), page: 1 }),
        })),
        ...(span === ''
          ? []
          : [{ label: format(f.t.rangeLabel, { range: span }), href: searchUrl({ ...state, from: undefined, to: undefined, page: 1 }) }]),
      ],
      clearFilters: searchUrl({ ...state, filters: [], from: undefined, to: undefined, page: 1 }),
      reusable: reusableLink(state),
      placesHref: searchUrl({ ...state, page: 1, sort: 'relevance' }).replace(/^\/search/, '/places'),
      sorts,
      pages,
      pageLinks,
      // First and last when the window of page links does not reach them.
      firstPage: pageLinks.length > 0 && pageLinks[0]!.page > 1 ? searchUrl({ ...state, page: 1 }) : undefined,
      lastPage:
        pageLinks.length > 0 && pageLinks[pageLinks.length - 1]!.page < Math.min(pages, MAX_PAGE)
          ? { page: Math.min(pages, MAX_PAGE), href: searchUrl({ ...state, page: Math.min(pages, MAX_PAGE) }) }
          : undefined,
      previous: state.page > 1 ? searchUrl({ ...state, page: state.page - 1 }) : undefined,
      next: state.page < Math.min(pages, MAX_PAGE) ? searchUrl({ ...state, page: state.page + 1 }) : undefined,
      persons: persons === undefined ? [] : parseDocs<Record<string, unknown>>(persons).map((p) => personLink(f, personView(p))),
      personTotal: persons?.total ?? 0,
    }),
  };
}
