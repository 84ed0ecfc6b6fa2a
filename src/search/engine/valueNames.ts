/**
 * The value of one facet that most documents holding a value of another carry: the name of a
 * point (`place_fct` of the items at a `geocode`) as the places page shows it (docs/pages.md
 * "Places"; docs/search-engine.md "Names of facet values"). It depends on the index alone,
 * not on any query, so it is kept until the index next changes (SearchIndex.version), as
 * Solr's caches are kept until the next commit: a page lists the same fifty points again and
 * again, and each name is a count over every item at its point.
 */
import { ALL } from '../../query/ast.js';
import type { SearchIndex } from './SearchIndex.js';

/** Names kept at most; all are dropped past it (a crawler walking every point must not grow it without end). */
export const VALUE_NAMES_KEPT = 20_000;

export class ValueNames {
  private readonly kept = new Map<string, string>();
  private version = -1;

  constructor(private readonly ix: SearchIndex) {}

  /**
   * The value of facet `of` the most live documents with `value` in facet `field` carry (the
   * first in the facet's order of equal counts), '' when none of them has one.
   */
  nameOf(field: string, value: string, of: string, deadline: number): string {
    if (this.version !== this.ix.version || this.kept.size >= VALUE_NAMES_KEPT) {
      this.kept.clear();
      this.version = this.ix.version;
    }
    const key = `${field}\u0000${of}\u0000${value}`;
    let name = this.kept.get(key);
    if (name === undefined) {
      const counted = this.ix.search(
        {
          query: ALL,
          filters: { [field]: [value] },
          sort: { kind: 'id', descending: false },
          offset: 0,
          rows: 0,
          facets: [{ field: of, limit: 1, mincount: 1, sort: 'count' }],
        },
        deadline,
      );
      name = counted.facets[0]?.values[0]?.value ?? '';
      this.kept.set(key, name);
    }
    return name;
  }
}
