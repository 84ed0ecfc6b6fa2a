/**
 * The engine's query of a results state (./searchState.ts): the words in the item search's
 * syntax, and the date range (./dateRange.ts). The results page and the page of a facet's
 * values (./facetValuesPage.ts) ask the same, so their counts agree.
 */
import { ALL, and, type QueryNode } from '../query/ast.js';
import { parseQuery } from '../query/parse.js';
import { queryFields } from '../search/engine/schema.js';
import { itemSchema } from '../search/schemas/itemSchema.js';
import { rangeQuery } from './dateRange.js';
import type { SearchState } from './searchState.js';

const ITEM_FIELDS = queryFields(itemSchema);

/** The query, or the parser's message for the visitor when the words are not a query. */
export function resultsQuery(state: SearchState): { query: QueryNode<string> } | { error: string } {
  let words: QueryNode<string> = ALL;
  if (state.q !== '') {
    try {
      words = parseQuery(state.q, { fields: ITEM_FIELDS });
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
  const range = rangeQuery(state);
  return { query: range === undefined ? words : and([words, range]) };
}

/** The URL of the page of a facet's values under this state (./facetValuesPage.ts); `extra` adds its own parameters. */
export function facetValuesUrl(state: SearchState, field: string, extra: ReadonlyArray<[string, string]> = []): string {
  const params = new URLSearchParams();
  if (state.q !== '') params.append('q', state.q);
  for (const f of state.filters) params.append('f', `${f.field}:${f.value}`);
  if (state.from !== undefined) params.append('from', String(state.from));
  if (state.to !== undefined) params.append('to', String(state.to));
  for (const [k, v] of extra) params.append(k, v);
  if (state.lang !== undefined) params.append('lang', state.lang);
  const qs = params.toString();
  return `/facet/${encodeURIComponent(field)}${qs === '' ? '' : `?${qs}`}`;
}
