import type { FacetCounts } from '../search/engine/types.js';
import type { Frame } from './frame.js';
import { facetLabel, facetValueLabel } from './messages.js';
import { searchUrl, type SearchState } from './searchState.js';

/** Each facet's values as links that add the value to the search's filters, or take an active one away. */
export function facetLinks(f: Frame, state: SearchState, facets: readonly FacetCounts[]) {
  return facets
    .filter((c) => c.values.length > 0)
    .map((c) => ({
      field: c.field,
      label: facetLabel(c.field, f.lang),
      values: c.values.map((v) => {
        const active = state.filters.some((x) => x.field === c.field && x.value === v.value);
        const filters = active
          ? state.filters.filter((x) => !(x.field === c.field && x.value === v.value))
          : [...state.filters, { field: c.field, value: v.value }];
        return {
          label: facetValueLabel(c.field, v.value, f.lang),
          count: v.count,
          active,
          href: searchUrl({ ...state, filters, page: 1 }),
        };
      }),
    }));
}
