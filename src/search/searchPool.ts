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
  /** Posted once, when a new worker has built its index. */
  | { type: 'indexed' }
  | { type: 'started'; id: number }
  | { type: 'done'; id: number; result: EntitySearchResult }
  | { type: 'failed'; id: number; failure: WorkerFailure };

export interface SearchRunner {
  /** The result, or an ApiError (400 over a limit, 503 over the budget or too busy). */
  run(search: EntitySearch): Promise<EntitySearchResult>;
  /** Starts the workers ahead of the first search (they build their index then). */
  start(): void;
  /** Where the index and the workers stand, for /health/ready and /metrics (issue #16 point 7). */
  state(): SearchState;
  close(): Promise<void>;
}

/** What operators see of the search (src/http/metrics.ts, src/http/routes/health.ts). */
export interface SearchState {
  /** Some worker (or the main thread) has built its index: searches are answered without a build first. */
  indexBuilt: boolean;
  /**
   * The freshest index: the store's dataVersion() (of the caller's connection) read before
   * that index last caught up with the data, and when (ms since the epoch). Read before, so
   * the index holds at least that version: an age computed from it errs on the old side.
   */
  index: { version: string | undefined; at: number } | undefined;
  /** Workers running (0 on the main thread). */
  workers: number;
  /** Searches running now. */
  busy: number;
  /** Searches waiting for a worker. */
  queued: number;
  /** Searches answered with a 503 at their time budget, since start. */
  timeouts: number;
  /** Searches refused at once with a 503 because the queue was full, since start. */
  refused: number;
  /** Workers terminated by the watchdog, since start. */
  terminated: number;
}

export interface PoolOptions {
  /** After the budget, a busy worker gets this long to stop by itself before it is terminated. */
  graceMs?: number;
  /** The worker's module; tests give one that misbehaves on purpose. */
  workerUrl?: URL;
  /** The store's dataVersion() on this thread, to tell how fresh the workers' index is. */
  dataVersion?: () => string;
}

const DEFAULT_GRACE_MS = 1000;

/** The pool, or the main thread when there can be no workers. */
export function createSearchRunner(store: Store, settings: SearchSettings, options: PoolOptions = {}): SearchRunner {
  const spec = settings.workers > 0 ? store.reopenSpec() : undefined;
  if (spec === undefined) return new MainThreadSearch(store, settings);
  return new SearchPool({ spec, limits: limitsOf(settings) }, settings, { dataVersion: () => store.dataVersion(), ...options });
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
  private index: SearchState['index'];
  private timeouts = 0;
  private busy = 0;
  private starting = false;

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
      this.refresh();
      this.busy++;
      try {
        return this.store.searchPersons(search, { limits: this.limits, deadline: new Deadline(budgetMs) });
      } finally {
        this.busy--;
      }
    } catch (e) {
      if (e instanceof SearchLimitError) throw limitError(e.limit);
      if (e instanceof SearchOverBudgetError) {
        this.timeouts++;
        throw overBudget(budgetMs);
      }
      if (e instanceof SearchRequestError) throw ApiError.of('invalidSearch', e.message);
      throw e;
    }
  }

  private refresh(): void {
    // Read before the refresh: the index then holds at least this version.
    const index = { version: this.store.dataVersion(), at: Date.now() };
    this.store.refreshSearch();
    this.index = index;
  }

  /** Builds the index once the server listens (as a worker would), so that /health/ready turns ready. */
  start(): void {
    if (this.starting) return;
    this.starting = true;
    setImmediate(() => {
      try {
        if (this.index === undefined) this.refresh();
      } catch {
        // The first search meets the failure again and reports it; not ready until then.
      }
    });
  }

  state(): SearchState {
    return { indexBuilt: this.index !== undefined, index: this.index, workers: 0, busy: this.busy, queued: 0, timeouts: this.timeouts, refused: 0, terminated: 0 };
  }

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
  /** The data version before the job was handed to a worker, and when: its refresh catches up at least to it. */
  sent?: { version: string | undefined; at: number };
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  /** Terminates the worker if its job is not done by budget + grace. */
  killTimer: NodeJS.Timeout | undefined;
  /** Terminated or exited: takes no more jobs. */
  gone: boolean;
  /** The data version when the worker was started; its first index holds at least that. */
  spawned: { version: string | undefined; at: number };
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
  private timeouts = 0;
  private refused = 0;
  /** The freshest index of any worker (SearchState.index). */
  private index: SearchState['index'];

  constructor(
    private readonly setup: SearchWorkerSetup,
    private readonly settings: SearchSettings,
    private readonly options: PoolOptions = {},
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
      this.refused++;
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

  state(): SearchState {
    return {
      indexBuilt: this.index !== undefined,
      index: this.index,
      workers: this.slots.length,
      busy: this.running,
      queued: this.queue.length,
      timeouts: this.timeouts,
      refused: this.refused,
      terminated: this.terminated,
    };
  }

  private versionNow(): { version: string | undefined; at: number } {
    let version: string | undefined;
    try {
      version = this.options.dataVersion?.();
    } catch {
      version = undefined; // A failing store: /health/ready reports it; the age then counts from here.
    }
    return { version, at: Date.now() };
  }

  private caughtUp(index: { version: string | undefined; at: number }): void {
    if (this.index === undefined || index.at >= this.index.at) this.index = index;
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
      job.sent = this.versionNow();
      // A worker with a search keeps the process alive until it answers.
      slot.worker.ref();
      const message: SearchJob = { id: job.id, search: job.search, budgetMs: this.settings.timeBudgetMs };
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot {
    const spawned = this.versionNow();
    const worker = startWorker(this.workerUrl, this.setup);
    const slot: Slot = { worker, job: undefined, killTimer: undefined, gone: false, spawned };
    worker.on('message', (m: WorkerAnswer) => this.onAnswer(slot, m));
    worker.on('error', (e) => this.onExit(slot, e));
    worker.on('exit', (code) => this.onExit(slot, new Error(`search worker exited with code ${code}`)));
    // Idle workers do not keep a process alive that has nothing else to do.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private onAnswer(slot: Slot, m: WorkerAnswer): void {
    if (m.type === 'indexed') {
      if (!slot.gone) this.caughtUp(slot.spawned);
      return;
    }
    const job = slot.job;
    if (job === undefined || job.id !== m.id || slot.gone) return;
    const budgetMs = this.settings.timeBudgetMs;
    if (m.type === 'started') {
      // The worker refreshed its index before it said so.
      if (job.sent !== undefined) this.caughtUp(job.sent);
      job.budgetTimer = setTimeout(() => {
        this.timeouts++;
        this.settle(job, overBudget(budgetMs));
      }, budgetMs);
      slot.killTimer = setTimeout(() => this.terminate(slot), budgetMs + this.graceMs);
      return;
    }
    clearTimeout(slot.killTimer);
    slot.job = undefined;
    slot.worker.unref();
    if (m.type === 'done') this.settle(job, undefined, m.result);
    else {
      if (m.failure.kind === 'budget' && !job.settled) this.timeouts++;
      this.settle(job, toApiError(m.failure, budgetMs));
    }
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
