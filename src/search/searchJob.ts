/**
 * What a search worker does with each search (src/search/searchWorker.ts is
 * its entry): its own connection to the store, from the Store's
 * reopenSpec(), and so its own in-memory index; one search at a time, each
 * within its budget.
 *
 * Protocol: for each SearchJob, `started` once the index is fresh (the
 * budget counts from there), then `done` or `failed`.
 */
import { openStoreFrom } from '../store/openStore.js';
import type { StoreSpec } from '../store/Store.js';
import { SearchRequestError, type EntitySearch } from './entitySearch.js';
import { Deadline, SearchLimitError, SearchOverBudgetError, type SearchLimits } from './searchLimits.js';
import type { WorkerAnswer, WorkerFailure } from './searchPool.js';

export interface SearchWorkerSetup {
  spec: StoreSpec;
  limits: SearchLimits;
}

export interface SearchJob {
  id: number;
  search: EntitySearch;
  budgetMs: number;
}

function failure(e: unknown): WorkerFailure {
  if (e instanceof SearchLimitError) return { kind: 'limit', limit: e.limit };
  if (e instanceof SearchOverBudgetError) return { kind: 'budget' };
  if (e instanceof SearchRequestError) return { kind: 'request', message: e.message };
  const error = e instanceof Error ? e : new Error(String(e));
  return { kind: 'internal', message: error.message, stack: error.stack ?? '' };
}

/**
 * Opens the store and builds its index at once, so that the first search
 * finds it ready; returns what answers each job.
 */
export function searchJobs(setup: SearchWorkerSetup): (job: SearchJob, post: (answer: WorkerAnswer) => void) => void {
  const { spec, limits } = setup;
  const store = openStoreFrom(spec);
  try {
    store.refreshSearch();
  } catch {
    // Not fatal here: the search that follows meets the failure again and reports it.
  }
  return (job, post) => {
    try {
      store.refreshSearch();
      post({ type: 'started', id: job.id });
      const result = store.searchPersons(job.search, { limits, deadline: new Deadline(job.budgetMs) });
      post({ type: 'done', id: job.id, result });
    } catch (e) {
      post({ type: 'failed', id: job.id, failure: failure(e) });
    }
  };
}
