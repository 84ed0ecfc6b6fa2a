/**
 * The search service of the search routes (./routes/searchEngine.ts) on the main thread,
 * over an IndexHost of the store: each call first brings the kind's index up to date,
 * then asks it. A STOPGAP: the lead replaces it at merge with the search runner's
 * engine() and suggest(), which run the same IndexHost in the search workers
 * (src/search/searchPool.ts), off the event loop and within the time budget.
 */
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { SearchDeadlineError, SearchRequestError } from '../search/engine/errors.js';
import { IndexHost } from '../search/indexHost.js';
import type { SearchFeedStore } from '../store/Store.js';
import type { SearchService } from './routes/searchEngine.js';

export function createMainThreadEngine(store: SearchFeedStore, config: Config): SearchService {
  const host = new IndexHost(store);
  const budgetMs = config.search.timeBudgetMs;
  const caughtUp = (kind: 'item' | 'person') => {
    while (!host.refresh(kind, 100));
  };
  const mapped = <T>(run: () => T): T => {
    try {
      return run();
    } catch (e) {
      if (e instanceof SearchRequestError) throw ApiError.of('invalidSearch', e.message);
      if (e instanceof SearchDeadlineError) {
        const seconds = Math.max(1, Math.ceil(budgetMs / 1000));
        throw ApiError.of('searchOverBudget', budgetMs, seconds).withHeaders({ 'Retry-After': String(seconds) });
      }
      throw e;
    }
  };
  return {
    engine: async (search) => {
      caughtUp(search.kind);
      return mapped(() => host.search(search, Date.now() + budgetMs));
    },
    suggest: async (kind, prefix, limit) => {
      caughtUp(kind);
      return mapped(() => host.suggest(kind, prefix, limit));
    },
  };
}
