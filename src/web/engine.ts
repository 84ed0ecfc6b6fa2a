/**
 * The search engine as the pages ask it: one search of one kind, answered with the hits'
 * result docs (src/search/indexHost.ts EngineAnswer). The server passes the search
 * service's method; `mainThreadEngine` is a stand-in over an IndexHost on the calling
 * thread, until the search workers answer engine searches (the lead replaces it with the
 * runner's `engine` method at merge).
 */
import { IndexHost, type EngineAnswer, type EngineSearch } from '../search/indexHost.js';
import type { SearchFeedStore } from '../store/Store.js';

export type Engine = (search: EngineSearch) => Promise<EngineAnswer>;

/**
 * Searches an IndexHost of `store` on this thread, brought up to date with the store's
 * changes before each search. The first search of a kind builds its index whole (seconds
 * at a million items): a stand-in, not the way to serve a large store.
 */
export function mainThreadEngine(store: SearchFeedStore, budgetMs: number): Engine {
  const host = new IndexHost(store);
  return async (search) => {
    do host.refresh(search.kind, budgetMs);
    while (!host.built(search.kind));
    return host.search(search, Date.now() + budgetMs);
  };
}
