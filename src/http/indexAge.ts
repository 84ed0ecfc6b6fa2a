/**
 * How long ago the search index last caught up with the stored data
 * (`heritage_search_index_age_seconds`, ./metrics.ts; docs/api.md "Health and metrics").
 *
 * The pool knows the data version (of this thread's store connection) that
 * its freshest index holds at least, and when it caught up to it
 * (src/search/searchPool.ts SearchState.index). While the store still has
 * that version the index is current: age 0. Once the data has changed, the
 * age counts from the catch-up. Every search refreshes the index before it
 * runs, so a search never sees old data: a rising age means the next search
 * first pays for a rebuild.
 */
import type { SearchState } from '../search/searchPool.js';
import type { Store } from '../store/Store.js';

export function createIndexAge(store: Pick<Store, 'dataVersion'>, state: () => SearchState): () => Promise<number | undefined> {
  return async () => {
    const index = state().index;
    if (index === undefined) return undefined;
    let current: string | undefined;
    try {
      current = await store.dataVersion();
    } catch {
      current = undefined; // Counted as a store error; the age is then counted from the catch-up.
    }
    if (current !== undefined && current === index.version) return 0;
    return Math.max(0, (Date.now() - index.at) / 1000);
  };
}
