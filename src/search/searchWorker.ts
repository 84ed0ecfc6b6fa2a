/**
 * A search worker thread (src/search/searchPool.ts): its own connection to
 * the store, from the Store's reopenSpec(), and so its own in-memory index.
 * Runs one search at a time, each within its budget.
 *
 * Protocol: receives SearchJob; answers `started` once the index is fresh
 * (the budget counts from there), then `done` or `failed`.
 */
import { parentPort, workerData } from 'node:worker_threads';
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

const { spec, limits } = workerData as SearchWorkerSetup;
const store = openStoreFrom(spec);
const port = parentPort!;

function failure(e: unknown): WorkerFailure {
  if (e instanceof SearchLimitError) return { kind: 'limit', limit: e.limit };
  if (e instanceof SearchOverBudgetError) return { kind: 'budget' };
  if (e instanceof SearchRequestError) return { kind: 'request', message: e.message };
  const error = e instanceof Error ? e : new Error(String(e));
  return { kind: 'internal', message: error.message, stack: error.stack ?? '' };
}

port.on('message', (job: SearchJob) => {
  const post = (answer: WorkerAnswer) => port.postMessage(answer);
  try {
    store.refreshSearch();
    post({ type: 'started', id: job.id });
    const result = store.searchPersons(job.search, { limits, deadline: new Deadline(job.budgetMs) });
    post({ type: 'done', id: job.id, result });
  } catch (e) {
    post({ type: 'failed', id: job.id, failure: failure(e) });
  }
});

// Build the index now, so that the first search finds it ready. A failure here
// is not fatal: the search that follows meets it again and reports it.
try {
  store.refreshSearch();
} catch {
  // reported by the first search
}
