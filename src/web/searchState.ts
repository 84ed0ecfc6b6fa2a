/**
 * The whole state of a results page, read from and written into its URL (docs/pages.md "The
 * state is in the URL": a result can be bookmarked and shared): the words `q`, the filters `f=field:value`
 * (repeated), the date range `from`–`to` in years, the order `sort`, the page `page` and the language `lang`. Reading never
 * throws: a value the pages cannot use is reported in `problems`, in words for the visitor.
 */
import { ITEM_FACETS } from '../domain/itemFacets.js';
import type { SearchSort } from '../search/engine/types.js';
import { readYear } from './dateRange.js';
import type { Lang } from './messages.js';

export const ROWS = 20;
/** Deepest page by offset: beyond it a search would be deep paging, which the pages do not offer. */
export const MAX_PAGE = 500;
export const MAX_QUERY_LENGTH = 1000;
export const MAX_FILTERS = 20;

export const SORTS = ['relevance', 'title', '-title', 'date', '-date'] as const;
export type SortName = (typeof SORTS)[number];

export const ENGINE_SORT: Readonly<Record<SortName, SearchSort>> = {
  relevance: { kind: 'relevance' },
  title: { kind: 'key', key: 'title', descending: false },
  '-title': { kind: 'key', key: 'title', descending: true },
  date: { kind: 'key', key: 'begin_time', descending: false },
  '-date': { kind: 'key', key: 'begin_time', descending: true },
};

const FACETS: ReadonlySet<string> = new Set(ITEM_FACETS);

export interface Filter {
  field: string;
  value: string;
}

export interface SearchState {
  q: string;
  filters: Filter[];
  sort: SortName;
  page: number;
  /** Set when the URL named it: links then keep it. */
  lang: Lang | undefined;
  /** The date range in years (./dateRange.ts), each end open when undefined. */
  from?: number | undefined;
  to?: number | undefined;
}

export type Query = Record<string, string | string[] | undefined>;

function all(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Why a part of the URL was not used: a message of ./messages.ts and its values; each says what to write instead. */
export interface StateProblem {
  key: 'queryTooLong' | 'unknownFilter' | 'tooManyFilters' | 'unknownSort' | 'badPage' | 'badYear';
  values: Record<string, string | number>;
}

export interface ReadState {
  state: SearchState;
  problems: StateProblem[];
}

export function readSearchState(query: Query): ReadState {
  const problems: StateProblem[] = [];
  // `query=` is the API's and the DDB portal's name for the words (docs/pages.md): read as `q=` when `q` is absent.
  let q = (first(query.q) ?? first(query.query) ?? '').trim();
  if (q.length > MAX_QUERY_LENGTH) {
    problems.push({ key: 'queryTooLong', values: { max: MAX_QUERY_LENGTH } });
    q = q.slice(0, MAX_QUERY_LENGTH);
  }
  const filters: Filter[] = [];
  for (const f of all(query.f)) {
    const colon = f.indexOf(':');
    const field = colon < 0 ? '' : f.slice(0, colon);
    const value = colon < 0 ? '' : f.slice(colon + 1);
    if (!FACETS.has(field) || value === '') {
      problems.push({ key: 'unknownFilter', values: { filter: f.slice(0, 80), facets: ITEM_FACETS.join(', ') } });
      continue;
    }
    if (filters.length >= MAX_FILTERS) {
      problems.push({ key: 'tooManyFilters', values: { max: MAX_FILTERS } });
      break;
    }
    if (!filters.some((x) => x.field === field && x.value === value)) filters.push({ field, value });
  }
  const sortParam = first(query.sort);
  let sort: SortName = 'relevance';
  if (sortParam !== undefined && sortParam !== '') {
    if ((SORTS as readonly string[]).includes(sortParam)) sort = sortParam as SortName;
    else problems.push({ key: 'unknownSort', values: { sort: sortParam.slice(0, 40), sorts: SORTS.join(', ') } });
  }
  const pageParam = first(query.page);
  let page = 1;
  if (pageParam !== undefined && pageParam !== '') {
    if (/^[0-9]{1,6}$/.test(pageParam) && Number(pageParam) >= 1 && Number(pageParam) <= MAX_PAGE) page = Number(pageParam);
    else problems.push({ key: 'badPage', values: { page: pageParam.slice(0, 20), max: MAX_PAGE } });
  }
  const langParam = first(query.lang);
  const lang = langParam === 'de' || langParam === 'en' ? langParam : undefined;
  const years: Array<number | undefined> = [];
  for (const name of ['from', 'to'] as const) {
    const year = readYear(first(query[name]));
    if (year === null) problems.push({ key: 'badYear', values: { year: (first(query[name]) ?? '').slice(0, 20) } });
    years.push(year ?? undefined);
  }
  let [from, to] = years;
  // A range written backwards is the same range.
  if (from !== undefined && to !== undefined && from > to) [from, to] = [to, from];
  return { state: { q, filters, sort, page, lang, from, to }, problems };
}

/** The parameters of a state but its page, in URL order, defaults left out: links and forms write them so. */
export function stateParams(state: SearchState): Array<[string, string]> {
  const params: Array<[string, string]> = [];
  if (state.q !== '') params.push(['q', state.q]);
  for (const f of state.filters) params.push(['f', `${f.field}:${f.value}`]);
  if (state.from !== undefined) params.push(['from', String(state.from)]);
  if (state.to !== undefined) params.push(['to', String(state.to)]);
  if (state.sort !== 'relevance') params.push(['sort', state.sort]);
  return params;
}

/** The URL of a results page in this state: defaults left out, so a URL has one spelling. */
export function searchUrl(state: SearchState): string {
  const params = new URLSearchParams(stateParams(state));
  if (state.page !== 1) params.append('page', String(state.page));
  if (state.lang !== undefined) params.append('lang', state.lang);
  const qs = params.toString();
  return qs === '' ? '/search' : `/search?${qs}`;
}

/** The engine's filters: values of one facet OR-ed, facets AND-ed. */
export function engineFilters(filters: readonly Filter[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of filters) (out[f.field] ??= []).push(f.value);
  return out;
}
