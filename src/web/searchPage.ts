import { REUSABLE_GROUPS } from '../domain/licenseGroups.js';
import { ALL, type QueryNode } from '../query/ast.js';
import { parseQuery } from '../query/parse.js';
import { queryFields } from '../search/engine/schema.js';
import { itemSchema } from '../search/schemas/itemSchema.js';
import { LINKED_PERSONS, personNamesQuery, withLinkedPersons } from '../search/schemas/linkedPersons.js';
import { facetLinks } from './facetLinks.js';
import { frame, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { hitsOf, parseDocs, personLink, providersOf, type ResultDoc } from './hits.js';
import { facetLabel, facetValueLabel, format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { personView } from './personView.js';
import { engineFilters, ENGINE_SORT, MAX_PAGE, readSearchState, ROWS, searchUrl, SORTS, type SearchState } from './searchState.js';

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
const ITEM_FIELDS = queryFields(itemSchema);

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
  let query: QueryNode<string> = ALL;
  if (state.q !== '') {
    try {
      query = parseQuery(state.q, { fields: ITEM_FIELDS });
    } catch (error) {
      return problemPage(render, f, 400, f.t.badRequest, (error as Error).message);
    }
  }
  const facets = RESULT_FACETS.map((field) => ({ field, limit: FACET_VALUES, mincount: 1, sort: 'count' as const }));
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
      problems: problems.map((p) => format(f.t[p.key], p.values)),
      total: items.total,
      from: items.total === 0 ? 0 : (state.page - 1) * ROWS + 1,
      to: (state.page - 1) * ROWS + docs.length,
      results: await hitsOf(media, f, docs, store),
      providers: await providersOf(
        store,
        docs.map((d) => d.id),
      ),
      facets: facetLinks(f, state, items.facets),
      active: state.filters.map((x) => ({
        label: `${facetLabel(x.field, f.lang)}: ${facetValueLabel(x.field, x.value, f.lang)}`,
        href: searchUrl({ ...state, filters: state.filters.filter((y) => y !== x), page: 1 }),
      })),
      clearFilters: searchUrl({ ...state, filters: [], page: 1 }),
      reusable: reusableLink(state),
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
