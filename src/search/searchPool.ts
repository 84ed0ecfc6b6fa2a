/**
 * Runs person searches so that an expensive one cannot delay other requests
 * (issue #13, point 1): on a pool of worker threads, each with its own
 * connection to the store (Store.reopenSpec(), opened by
 * src/store/openStore.ts in the worker) and its own in-memory index.
 *
 * Every search gets `search.timeBudgetMs`, counted from the moment its
 * worker starts it (after the index is fresh: building it after a change of
 * the data is not the search's doing). The worker looks at the deadline in
 * its loops and stops itself; the main thread also answers the 503 at the
 * budget whatever the worker does, and terminates and replaces a worker
 * that is still busy `graceMs` later (stuck in one long statement). At most
 * `search.queueLength` searches wait for a worker; more get a 503 at once.
 *
 * With `search.workers` 0, or a store no other connection can reach (an
 * in-memory database), searches run on the main thread with the
 * cooperative deadline only.
 *
 * node:worker_threads directly: a pool of one kind of job with a watchdog
 * is about as long as a library's configuration for it.
 */
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { Store } from '../store/Store.js';
import { SearchRequestError, type EntitySearch, type EntitySearchResult } from './entitySearch.js';
import { checkClauses, Deadline, SearchLimitError, SearchOverBudgetError, type SearchLimitKind, type SearchLimits } from './searchLimits.js';
import type { SearchJob, SearchWorkerSetup } from './searchJob.js';

export type SearchSettings = Config['search'];

/** Why a worker could not answer a search. */
export type WorkerFailure =
  | { kind: 'limit'; limit: SearchLimitKind }
  | { kind: 'budget' }
  | { kind: 'request'; message: string }
  | { kind: 'internal'; message: string; stack: string };

export type WorkerAnswer =
  | { type: 'started'; id: number }
  | { type: 'done'; id: number; result: EntitySearchResult }
  | { type: 'failed'; id: number; failure: WorkerFailure };

export interface SearchRunner {
  /** The result, or an ApiError (400 over a limit, 503 over the budget or too busy). */
  run(search: EntitySearch): Promise<EntitySearchResult>;
  /** Starts the workers ahead of the first search (they build their index then). */
  start(): void;
  close(): Promise<void>;
}

export interface PoolOptions {
  /** After the budget, a busy worker gets this long to stop by itself before it is terminated. */
  graceMs?: number;
  /** The worker's module; tests give one that misbehaves on purpose. */
  workerUrl?: URL;
}

const DEFAULT_GRACE_MS = 1000;

/** The pool, or the main thread when there can be no workers. */
export function createSearchRunner(store: Store, settings: SearchSettings, options: PoolOptions = {}): SearchRunner {
  const spec = settings.workers > 0 ? store.reopenSpec() : undefined;
  if (spec === undefined) return new MainThreadSearch(store, settings);
  return new SearchPool({ spec, limits: limitsOf(settings) }, settings, options);
}

function limitsOf(s: SearchSettings): SearchLimits {
  return { maxClauses: s.maxClauses, maxExpansionsPerTerm: s.maxExpansionsPerTerm, maxExpansionsPerQuery: s.maxExpansionsPerQuery };
}

const retryAfter = (budgetMs: number) => Math.max(1, Math.ceil(budgetMs / 1000));

function overBudget(budgetMs: number): ApiError {
  const seconds = retryAfter(budgetMs);
  return ApiError.of('searchOverBudget', budgetMs, seconds).withHeaders({ 'Retry-After': String(seconds) });
}

function busy(budgetMs: number): ApiError {
  const seconds = retryAfter(budgetMs);
  return ApiError.of('searchBusy', seconds).withHeaders({ 'Retry-After': String(seconds) });
}

function limitError(limit: SearchLimitKind): ApiError {
  switch (limit.key) {
    case 'tooManyClauses':
      return ApiError.of('tooManyClauses', limit.clauses, limit.max);
    case 'wildcardTooBroad':
      return ApiError.of('wildcardTooBroad', limit.pattern, limit.max);
    case 'queryTooBroad':
      return ApiError.of('queryTooBroad', limit.max);
  }
}

function toApiError(failure: WorkerFailure, budgetMs: number): Error {
  switch (failure.kind) {
    case 'limit':
      return limitError(failure.limit);
    case 'budget':
      return overBudget(budgetMs);
    case 'request':
      return ApiError.of('invalidSearch', failure.message);
    case 'internal': {
      const error = new Error(`search worker: ${failure.message}`);
      error.stack = failure.stack;
      return error;
    }
  }
}

class MainThreadSearch implements SearchRunner {
  private readonly limits: SearchLimits;

  constructor(
    private readonly store: Store,
    private readonly settings: SearchSettings,
  ) {
    this.limits = limitsOf(settings);
  }

  async run(search: EntitySearch): Promise<EntitySearchResult> {
    const budgetMs = this.settings.timeBudgetMs;
    try {
      checkClauses(search.query, this.limits.maxClauses);
      this.store.refreshSearch();
      return this.store.searchPersons(search, { limits: this.limits, deadline: new Deadline(budgetMs) });
    } catch (e) {
      if (e instanceof SearchLimitError) throw limitError(e.limit);
      if (e instanceof SearchOverBudgetError) throw overBudget(budgetMs);
      if (e instanceof SearchRequestError) throw ApiError.of('invalidSearch', e.message);
      throw e;
    }
  }

  start(): void {}

  async close(): Promise<void> {}
}

interface Job {
  id: number;
  search: EntitySearch;
  resolve(result: EntitySearchResult): void;
  reject(error: Error): void;
  settled: boolean;
  /** Answers the 503 at the budget. */
  budgetTimer: NodeJS.Timeout | undefined;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  /** Terminates the worker if its job is not done by budget + grace. */
  killTimer: NodeJS.Timeout | undefined;
  /** Terminated or exited: takes no more jobs. */
  gone: boolean;
}

function startWorker(url: URL, setup: SearchWorkerSetup): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: setup });
  // Run from TypeScript sources (tests, tsx): the worker registers tsx before loading its module.
  const loader = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${loader}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`, {
    eval: true,
    workerData: setup,
  });
}

export class SearchPool implements SearchRunner {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly graceMs: number;
  private readonly workerUrl: URL;
  private nextId = 0;
  private closed = false;
  /** Workers terminated by the watchdog (each replaced by a new one). */
  terminated = 0;

  constructor(
    private readonly setup: SearchWorkerSetup,
    private readonly settings: SearchSettings,
    options: PoolOptions = {},
  ) {
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    const here = import.meta.url;
    this.workerUrl = options.workerUrl ?? new URL(here.endsWith('.ts') ? './searchWorker.ts' : './searchWorker.js', here);
  }

  run(search: EntitySearch): Promise<EntitySearchResult> {
    try {
      checkClauses(search.query, this.setup.limits.maxClauses);
    } catch (e) {
      return Promise.reject(e instanceof SearchLimitError ? limitError(e.limit) : e);
    }
    const free = this.slots.some((s) => s.job === undefined) || this.slots.length < this.settings.workers;
    if (this.closed || (!free && this.queue.length >= this.settings.queueLength)) {
      return Promise.reject(busy(this.settings.timeBudgetMs));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, search, resolve, reject, settled: false, budgetTimer: undefined });
      this.dispatch();
    });
  }

  start(): void {
    while (!this.closed && this.slots.length < this.settings.workers) this.spawn();
  }

  /** Searches running in a worker now. */
  get running(): number {
    return this.slots.filter((s) => s.job !== undefined).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, busy(this.settings.timeBudgetMs));
    const slots = [...this.slots];
    for (const slot of slots) {
      if (slot.job !== undefined) this.settle(slot.job, busy(this.settings.timeBudgetMs));
      this.remove(slot);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const slot = this.slots.find((s) => s.job === undefined) ?? (this.slots.length < this.settings.workers ? this.spawn() : undefined);
      if (slot === undefined) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // A worker with a search keeps the process alive until it answers.
      slot.worker.ref();
      const message: SearchJob = { id: job.id, search: job.search, budgetMs: this.settings.timeBudgetMs };
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot {
    const worker = startWorker(this.workerUrl, this.setup);
    const slot: Slot = { worker, job: undefined, killTimer: undefined, gone: false };
    worker.on('message', (m: WorkerAnswer) => this.onAnswer(slot, m));
    worker.on('error', (e) => this.onExit(slot, e));
    worker.on('exit', (code) => this.onExit(slot, new Error(`search worker exited with code ${code}`)));
    // Idle workers do not keep a process alive that has nothing else to do.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private onAnswer(slot: Slot, m: WorkerAnswer): void {
    const job = slot.job;
    if (job === undefined || job.id !== m.id || slot.gone) return;
    const budgetMs = this.settings.timeBudgetMs;
    if (m.type === 'started') {
      job.budgetTimer = setTimeout(() => this.settle(job, overBudget(budgetMs)), budgetMs);
      slot.killTimer = setTimeout(() => this.terminate(slot), budgetMs + this.graceMs);
      return;
    }
    clearTimeout(slot.killTimer);
    slot.job = undefined;
    slot.worker.unref();
    if (m.type === 'done') this.settle(job, undefined, m.result);
    else this.settle(job, toApiError(m.failure, budgetMs));
    this.dispatch();
  }

  /** Answers a job once: later answers (a worker finishing after the watchdog's 503) are dropped. */
  private settle(job: Job, error: Error | undefined, result?: EntitySearchResult): void {
    clearTimeout(job.budgetTimer);
    if (job.settled) return;
    job.settled = true;
    if (error !== undefined) job.reject(error);
    else job.resolve(result!);
  }

  /** The watchdog: a worker still busy past budget and grace is stuck; its search was answered at the budget. */
  private terminate(slot: Slot): void {
    this.terminated++;
    this.remove(slot);
    void slot.worker.terminate();
    // A replacement at once, so that it has its index built before the next search.
    if (!this.closed) this.spawn();
    this.dispatch();
  }

  private onExit(slot: Slot, error: Error): void {
    if (slot.gone) return;
    const job = slot.job;
    this.remove(slot);
    if (job !== undefined) this.settle(job, error);
    // The next search starts a new worker (not here: a worker that fails as it starts would loop).
    this.dispatch();
  }

  private remove(slot: Slot): void {
    slot.gone = true;
    slot.job = undefined;
    clearTimeout(slot.killTimer);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
  }
}
