/**
 * Runs the searches of the engine (items and persons) so that an
 * expensive one cannot delay other requests (docs/decisions.md "Bounded searches"): on a pool
 * of worker threads, each with its own connection to the store
 * (Store.reopenSpec(), opened in the worker by the backend module it names) and on
 * it the engine's indexes (src/search/hostedIndexes.ts), kept fresh in the
 * background.
 *
 * Every search gets `search.timeBudgetMs`, counted from the moment its
 * worker starts it (once its index is built and has had its short refresh:
 * building an index is not the search's doing; a job that waited for neither
 * counts from its dispatch, searchJob.ts STARTED_AFTER_MS). The worker looks at the deadline in
 * its loops and stops itself; the main thread also answers the 503 at the
 * budget whatever the worker does, and terminates and replaces a worker
 * that is still busy `graceMs` later (stuck in one long statement) unless it
 * has only been waiting for a core: the workers run at a lower priority
 * (`search.niceness`, ./threadPriority.ts), so that searches do not take the
 * cores that lookups need. At most
 * `search.queueLength` searches wait for a worker; more get a 503 at once.
 *
 * With `search.workers` 0, or a store no other connection can reach (an
 * in-memory database), searches run on the main thread with the
 * cooperative deadline only.
 *
 * node:worker_threads directly: a pool of one kind of job with a watchdog
 * is about as long as a library's configuration for it.
 */
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { LANGUAGES, languageOf } from './engine/analysis.js';
import { UsageError } from '../errors.js';
import type { SearchHostStore } from '../domain/searchFeed.js';
import type { SearchKind } from '../domain/searchFeed.js';
import { reviveStoreError } from '../domain/storeErrors.js';
import {
  failureOf,
  HostedIndexes,
  opKind,
  type HostedSettings,
  type IndexFileSettings,
  type OpResult,
  type SearchFailure,
  type SearchOp,
} from './hostedIndexes.js';
import { showResult, type EngineAnswer, type EngineSearch } from './indexHost.js';
import { ReplicaFeed, type FeedMessage } from './replicaFeed.js';
import { mergeParts, type SearchPart } from './engine/shards.js';
import { SmallSearches } from './smallSearches.js';
import { fingerprintOf } from './engine/search.js';
import type { SearchFeedStore } from '../domain/searchFeed.js';
import { SearchRequestError as EngineRequestError } from './engine/errors.js';
import { checkClauses, SearchBusyError, SearchLimitError, SearchOverBudgetError, type SearchLimits } from './engine/searchLimits.js';
import type { SearchJob, SearchWorkerSetup, ToWorker, WorkerAnswer } from './searchJob.js';
import { IndexProblem, readSharedIndexes, type SharedIndexes } from './indexFiles.js';
import { sampleThread, stuck, type ThreadSample } from './threadPriority.js';

export type SearchSettings = Config['search'];

export interface SearchRunner {
  /**
   * A search of the engine (items or persons): the answer, or a coded error (src/errorCodes.ts:
   * a request the engine cannot answer, over a limit, over the budget, too busy).
   */
  engine(search: EngineSearch): Promise<EngineAnswer>;
  /** Up to `limit` completions of `prefix` from `kind`'s index (IndexHost.suggest), with the same budget. */
  suggest(kind: SearchKind, prefix: string, limit: number): Promise<string[]>;
  /** Starts the workers (or the main thread's background index work) ahead of the first search. */
  start(): void;
  /** Where the index and the workers stand, for /health/ready and /metrics. */
  state(): SearchState;
  close(): Promise<void>;
}

/** What operators see of the search (src/http/metrics.ts, src/http/routes/health.ts). */
export interface SearchState {
  /** Some worker (or the main thread) has built both indexes (items and persons): searches wait for nothing. */
  indexBuilt: boolean;
  /**
   * Every worker (or the main thread) reads the store's change feed: false while one's last
   * read failed (the store gone, or not yet back for that worker), when its searches fail too.
   */
  following: boolean;
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
  /**
   * Bytes of JavaScript heap in use where the indexes live: the sum over the workers, as each
   * last reported it (every search.indexPollMs), or the main thread's without workers. The
   * process's own heap metrics do not count a worker thread's heap, which holds the indexes.
   */
  heapBytes: number;
}

export interface PoolOptions {
  /** After the budget, a busy worker gets this long to stop by itself before it is terminated. */
  graceMs?: number;
  /** The worker's module; tests give one that misbehaves on purpose. */
  workerUrl?: URL;
  /** The store's dataVersion() on this thread, to tell how fresh the workers' index is. */
  dataVersion?: () => Promise<string>;
  /** The indexes on disk (src/search/indexPath.ts searchIndexFiles); absent: none. */
  indexFiles?: Omit<IndexFileSettings, 'write'>;
  /** Where lines for the operator go (a rejected index on disk, a failed write); default standard error. */
  log?: (line: string) => void;
  /** The store's identity (Store.searchIdentity), to read the indexes on disk once for all workers. */
  identity?: () => Promise<string>;
  /**
   * The store on this thread: the pool reads its change feed once for every worker, which
   * are then replicas of one index (docs/search-engine.md "One copy per node"), and shows the
   * hits of a search scattered over them. Absent: each worker reads the feed itself.
   */
  store?: SearchFeedStore;
}

const DEFAULT_GRACE_MS = 1000;

/** The pool, or the main thread when there can be no workers. */
export function createSearchRunner(store: SearchHostStore, settings: SearchSettings, options: PoolOptions = {}): Runner {
  const spec = settings.workers > 0 ? store.reopenSpec() : undefined;
  // A store no other connection can reach (in memory) is gone with the process: nothing to keep.
  const indexFiles =
    store.reopenSpec() === undefined || options.indexFiles === undefined ? undefined : { ...options.indexFiles, write: true };
  if (spec === undefined) return new MainThreadSearch(store, settings, indexFiles, options.log);
  return new SearchPool(
    {
      spec,
      niceness: settings.niceness,
      ...hostedSettings(settings),
      replica: true,
      ...(indexFiles ? { indexFiles } : {}),
    },
    settings,
    { dataVersion: () => store.dataVersion(), identity: () => store.searchIdentity(), store, ...options },
  );
}

function hostedSettings(s: SearchSettings): HostedSettings {
  return { limits: limitsOf(s), indexSliceMs: s.indexSliceMs, indexPollMs: s.indexPollMs, languages: searchLanguages(s.languages) };
}

/** search.languages, each one the engine analyses (src/search/engine/analysis.ts), else a UsageError that says which are. */
export function searchLanguages(codes: readonly string[]): readonly string[] {
  for (const c of codes) {
    if (languageOf(c) === undefined)
      throw new UsageError(
        `search.languages: '${c}' is not a language the search analyses; use ${LANGUAGES.join(', ')} (or their ISO 639-2 codes: ger, eng, fre, dut, ita, spa).`,
      );
  }
  return codes;
}

function limitsOf(s: SearchSettings): SearchLimits {
  return { maxClauses: s.maxClauses, maxExpansionsPerTerm: s.maxExpansionsPerTerm, maxExpansionsPerQuery: s.maxExpansionsPerQuery };
}

/**
 * The error a failure reported across a thread or process boundary was made from, with its
 * code (src/errorCodes.ts), which the HTTP layer answers (src/http/errorMapping.ts).
 */
export function errorOfFailure(failure: SearchFailure, budgetMs: number): Error {
  switch (failure.kind) {
    case 'limit':
      return new SearchLimitError(failure.limit);
    case 'budget':
      return new SearchOverBudgetError(budgetMs);
    case 'busy':
      return new SearchBusyError(budgetMs);
    case 'request':
      return new EngineRequestError(failure.message);
    case 'store':
      // The error as the store raised it in the worker: the HTTP layer answers it with the 503.
      return reviveStoreError(failure.store);
    case 'internal': {
      const error = new Error(`search worker: ${failure.message}`);
      error.stack = failure.stack;
      return error;
    }
  }
}

/**
 * What the runners share: the clause limit before anything runs. Exported for the runner of an HTTP worker process (./ipcSearch.ts),
 * which forwards its searches to the process that hosts the indexes.
 */
export abstract class Runner implements SearchRunner {
  constructor(protected readonly settings: SearchSettings) {}

  async engine(search: EngineSearch): Promise<EngineAnswer> {
    return (await this.submit({ op: 'engine', search })) as EngineAnswer;
  }

  async suggest(kind: SearchKind, prefix: string, limit: number): Promise<string[]> {
    return (await this.submit({ op: 'suggest', kind, prefix, limit })) as string[];
  }

  /** Refuses a query with too many clauses at once (src/search/engine/searchLimits.ts), then runs it. */
  submit(op: SearchOp): Promise<OpResult> {
    if (op.op === 'engine') {
      try {
        checkClauses(op.search.request.query, this.settings.maxClauses);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return this.execute(op);
  }

  protected abstract execute(op: SearchOp): Promise<OpResult>;
  abstract start(): void;
  abstract state(): SearchState;
  abstract close(): Promise<void>;
}

/** No workers: the indexes live on the main thread, built and refreshed in slices between requests. */
class MainThreadSearch extends Runner {
  private readonly hosted: HostedIndexes;
  private index: SearchState['index'];
  private timeouts = 0;
  private busy = 0;
  private closed = false;
  private syncing = false;
  private syncTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: SearchHostStore,
    settings: SearchSettings,
    indexFiles?: IndexFileSettings,
    log?: (line: string) => void,
  ) {
    super(settings);
    this.hosted = new HostedIndexes(store, { ...hostedSettings(settings), ...(indexFiles ? { indexFiles } : {}) }, undefined, log);
  }

  protected async execute(op: SearchOp): Promise<OpResult> {
    this.start();
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the build's own error, passed on as it came
    await new Promise<void>((resolve, reject) => this.hosted.whenBuilt(opKind(op), (e) => (e === undefined ? resolve() : reject(e))));
    const budgetMs = this.settings.timeBudgetMs;
    this.busy++;
    try {
      await this.hosted.prepare(op);
      return await this.hosted.execute(op, budgetMs);
    } catch (e) {
      const failure = failureOf(e);
      if (failure.kind === 'budget') this.timeouts++;
      throw failure.kind === 'internal' || failure.kind === 'store' ? e : errorOfFailure(failure, budgetMs);
    } finally {
      this.busy--;
    }
  }

  /** Builds the indexes in the background once the server listens, so that /health/ready turns ready. */
  start(): void {
    if (this.closed || this.syncing) return;
    this.syncing = true;
    this.hosted.start();
    void this.sync();
  }

  /** Records, again and again, the version the index has caught up with (SearchState.index). */
  private async sync(): Promise<void> {
    const at = Date.now();
    let version: string | undefined;
    try {
      version = await this.store.dataVersion();
    } catch {
      version = undefined; // A failing store: /health/ready reports it; the age then counts from here.
    }
    if (this.closed) return;
    this.hosted.sync(() => {
      this.index = { version, at };
      if (!this.closed) this.syncTimer = setTimeout(() => void this.sync(), this.settings.indexPollMs).unref();
    });
  }

  state(): SearchState {
    return {
      indexBuilt: this.hosted.built(),
      following: this.hosted.following(),
      index: this.index,
      workers: 0,
      busy: this.busy,
      queued: 0,
      timeouts: this.timeouts,
      refused: 0,
      terminated: 0,
      heapBytes: getHeapStatistics().used_heap_size,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.syncTimer);
    await this.hosted.close();
  }
}

interface Job {
  id: number;
  op: SearchOp;
  /** A shard of a search scattered over the workers: sent as a `part`, answered with its SearchPart. */
  part?: { shard: number; shards: number };
  resolve(result: OpResult | SearchPart): void;
  reject(error: Error): void;
  settled: boolean;
  /** Answers the 503 at the budget. */
  budgetTimer: NodeJS.Timeout | undefined;
  /** Slot.batchesSent when it was sent: once the worker answers it, it has applied that many. */
  batches?: number;
  /** An engine search's key among the small searches (SmallSearches), when it has one. */
  small?: string;
  /** A part's time in its worker, once answered. */
  ms?: number;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  /** Terminates the worker if its job is not done by budget + grace. */
  killTimer: NodeJS.Timeout | undefined;
  /** Terminated or exited: takes no more jobs. */
  gone: boolean;
  /** The worker's thread in the kernel, once it has said (undefined without /proc): what the watchdog reads. */
  tid: number | undefined;
  /**
   * The data version when the worker was started; its first index holds at least that
   * (read as it starts: a networked store's answer may come after).
   */
  spawned: Promise<{ version: string | undefined; at: number }>;
  /** The sync sent and not yet answered: the data version read before it was sent. */
  sync: { token: number; version: { version: string | undefined; at: number } } | undefined;
  syncTimer: NodeJS.Timeout | undefined;
  /** The worker's heap in use as of its last `synced` (0 before the first). */
  heapBytes: number;
  /** The worker has said `built`: both its indexes serve (they stay built). */
  built: boolean;
  /** The worker writes the indexes to disk (one worker at a time does). */
  writer: boolean;
  /** As the worker last said (`following`): its store answers its reads. */
  following: boolean;
  /** Starts of a stream (`begin`) sent that the worker has not yet said it is past. */
  starting: number;
  /** Messages of the feed (batches, starts) sent to the worker, and how many of them it has said it applied (its answers to what came after them). */
  batchesSent: number;
  batchesApplied: number;
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

/** How long a closing pool waits for a worker's write of the indexes to disk to end before it terminates the worker anyway. */
const CLOSE_WRITE_MS = 10_000;

/**
 * Asks the worker to stop and waits (CLOSE_WRITE_MS at most) until a write of the indexes it
 * has under way has ended, then terminates it: a worker terminated mid-write leaves a file
 * half written behind (harmless to the next start, indexFiles.ts, but litter in the directory).
 */
async function closeWorker(worker: Worker): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  let onMessage: ((m: WorkerAnswer) => void) | undefined;
  await new Promise<void>((resolve) => {
    onMessage = (m) => {
      if (m.type === 'closed') resolve();
    };
    worker.on('message', onMessage);
    worker.once('exit', () => resolve());
    timer = setTimeout(resolve, CLOSE_WRITE_MS);
    worker.postMessage({ type: 'close' } satisfies ToWorker);
  });
  clearTimeout(timer);
  worker.off('message', onMessage!);
  return worker.terminate();
}

export class SearchPool extends Runner {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly graceMs: number;
  private readonly workerUrl: URL;
  private nextId = 0;
  private nextToken = 0;
  private closed = false;
  /** Workers terminated by the watchdog (each replaced by a new one). */
  terminated = 0;
  /** Searches scattered in shards over several workers (scatter). */
  scattered = 0;
  /** Refreshes of the ranks the writer made in shared memory and the pool handed to the other workers. */
  ranksShared = 0;
  /** Searches too small to be worth scattering, as their last runs showed. */
  private readonly smallSearches: SmallSearches;
  private timeouts = 0;
  private refused = 0;
  /** The freshest index of any worker (SearchState.index). */
  private index: SearchState['index'];
  /**
   * The generation of the indexes on disk read into shared memory for every worker
   * (docs/search-engine.md "One copy per process"): read at the first spawn, again after each
   * generation the writer writes; null when none is usable. Undefined until first read.
   */
  private image: Promise<SharedIndexes | null> | undefined;
  /** A newer generation was written while one was being read: read again after it. */
  private rereadDue = false;
  private rereading = false;
  /** The one reader of the change feed for every worker (docs/search-engine.md "One copy per node"). */
  private readonly feed: ReplicaFeed;
  /** The feed's stream has begun: a worker spawned later makes every worker start it again. */
  private feeding = false;
  private indexTimer: NodeJS.Timeout | undefined;
  /** allApplied() calls waiting for workers. */
  private readonly acks = new Map<number, { left: Set<Slot>; resolve: () => void }>();
  /** Searches in their own refresh of the feed, before they wait for a worker. */
  private preparing = 0;

  constructor(
    private readonly setup: SearchWorkerSetup,
    settings: SearchSettings,
    private readonly options: PoolOptions = {},
  ) {
    super(settings);
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    // with fewer than two shards nothing is scattered, so nothing is to be remembered
    this.smallSearches = new SmallSearches(Math.min(settings.shards, settings.workers) < 2 ? 0 : settings.scatterMinMs);
    const here = import.meta.url;
    this.workerUrl = options.workerUrl ?? new URL(here.endsWith('.ts') ? './searchWorker.ts' : './searchWorker.js', here);
    if (options.store === undefined || setup.replica !== true) throw new Error('a search pool needs the store to read its change feed');
    this.feed = new ReplicaFeed(
      options.store,
      settings,
      (m) => this.broadcast(m),
      () => this.allApplied(),
    );
  }

  protected async execute(op: SearchOp): Promise<OpResult> {
    // Searches in their refresh below count as waiting for a worker.
    if (this.closed || this.running + this.preparing + this.queue.length >= this.settings.workers + this.settings.queueLength) {
      this.refused++;
      throw new SearchBusyError(this.settings.timeBudgetMs);
    }
    this.start();
    // The search's own refresh, before its budget starts (hostedIndexes.ts prepare): the
    // workers get what it reads before the search.
    this.preparing++;
    try {
      await this.feed.refresh(opKind(op), this.settings.indexSliceMs);
    } finally {
      this.preparing--;
    }
    if (this.closed) throw new SearchBusyError(this.settings.timeBudgetMs);
    const small = op.op === 'engine' ? this.smallSearches.keyOf(op.search) : undefined;
    if (op.op === 'engine' && (small === undefined || !this.smallSearches.has(small))) {
      const scattered = this.scatter(op.search, small);
      if (scattered !== undefined) return scattered;
    }
    return new Promise((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        op,
        resolve: (r) => resolve(r as OpResult),
        reject,
        settled: false,
        budgetTimer: undefined,
        small,
      });
      this.dispatch();
    });
  }

  /**
   * One search over `search.shards` workers at once, each evaluating it over its range of the
   * documents (engine/search.ts runSearchPart), merged exactly (engine/shards.ts mergeParts;
   * docs/search-engine.md "Shards"): when that many workers are built and free and no search
   * waits, so that the cores a busy pool needs for other searches are not taken from them.
   * Sent together, after the same batches of the feed: every shard runs on the same index.
   * Undefined when the search is to run on one worker.
   */
  private scatter(search: EngineSearch, small: string | undefined): Promise<EngineAnswer> | undefined {
    const n = Math.min(this.settings.shards, this.settings.workers);
    // Words' document frequencies and values' names are the whole index's: one thread answers them.
    if (n < 2 || this.queue.length > 0 || search.docFreqs !== undefined || search.names !== undefined || search.oneThread === true)
      return undefined;
    const free = this.slots.filter((s) => !s.gone && s.built && s.starting === 0 && s.job === undefined);
    if (free.length < n) return undefined;
    const jobs: Job[] = [];
    const parts = free.slice(0, n).map(
      (slot, shard) =>
        new Promise<SearchPart>((resolve, reject) => {
          const job: Job = {
            id: this.nextId++,
            op: { op: 'engine', search },
            part: { shard, shards: n },
            resolve: (part) => resolve(part as SearchPart),
            reject,
            settled: false,
            budgetTimer: undefined,
          };
          jobs.push(job);
          this.assign(slot, job);
        }),
    );
    const { request, kind, fields } = search;
    this.scattered++;
    return Promise.all(parts).then((done) => {
      if (small !== undefined)
        this.smallSearches.scattered(
          small,
          jobs.reduce((ms, j) => ms + (j.ms ?? 0), 0),
        );
      return showResult(this.options.store!, kind, mergeParts(request, done, fingerprintOf(request)), fields === true);
    });
  }

  /** Resolves once every worker has applied the batches sent so far (ReplicaFeed's pacing). */
  private allApplied(): Promise<void> {
    const left = new Set(this.slots.filter((s) => !s.gone));
    if (left.size === 0) return Promise.resolve();
    const token = this.nextToken++;
    return new Promise((resolve) => {
      this.acks.set(token, { left, resolve });
      for (const slot of left) this.post(slot, { type: 'ack', token, batches: slot.batchesSent });
    });
  }

  /** A worker has applied what came before `token` (or is gone). */
  private acked(slot: Slot, token: number | undefined): void {
    for (const [t, a] of this.acks) {
      if (token !== undefined && t !== token) continue;
      a.left.delete(slot);
      if (a.left.size > 0) continue;
      this.acks.delete(t);
      a.resolve();
    }
  }

  /**
   * Hands a message of the feed to every worker, in order. After the start of a stream (an
   * index restored over a generation, or started afresh: index work, not a search's), a
   * search sent to the worker counts its budget from when the worker starts it (`started`)
   * until the worker has said it is past that start.
   */
  private broadcast(message: FeedMessage): void {
    for (const slot of this.slots) {
      if (slot.gone) continue;
      this.post(slot, message);
      slot.batchesSent++;
      if (message.type !== 'begin') continue;
      slot.starting++;
      this.post(slot, { type: 'ack', token: -1, batches: slot.batchesSent });
    }
  }

  start(): void {
    while (!this.closed && this.slots.length < this.settings.workers) this.spawn();
    if (this.feeding || this.closed) return;
    this.feeding = true;
    void this.beginFeed();
    void this.syncIndex();
  }

  /** Starts every worker's stream (ReplicaFeed.begin) from the newest generation on disk, else from a full scan. */
  private async beginFeed(): Promise<void> {
    // Read anew each time: the workers write the pools' chunks of the buffers they started
    // from in place (ImageSource.replicated), so a stream never starts twice from one.
    const image = this.setup.indexFiles === undefined ? null : await (this.image = this.readImage(this.image === undefined));
    if (!this.closed) this.feed.begin(image);
  }

  /** Records, again and again, the version the workers' index has caught up with (SearchState.index). */
  private async syncIndex(): Promise<void> {
    const version = await this.versionNow();
    if (this.closed) return;
    this.feed.sync(() => {
      if (this.slots.some((s) => s.built)) this.caughtUp(version);
      if (!this.closed) this.indexTimer = setTimeout(() => void this.syncIndex(), this.settings.indexPollMs).unref();
    });
  }

  /** The workers' threads in the kernel, as they said (none without /proc). */
  threadIds(): number[] {
    return this.slots.flatMap((s) => (s.tid === undefined ? [] : [s.tid]));
  }

  /** Searches running in a worker now. */
  get running(): number {
    return this.slots.filter((s) => s.job !== undefined).length;
  }

  state(): SearchState {
    return {
      indexBuilt: this.index !== undefined,
      following: this.feed.following() && this.slots.every((s) => s.following),
      index: this.index,
      workers: this.slots.length,
      busy: this.running,
      queued: this.queue.length,
      timeouts: this.timeouts,
      refused: this.refused,
      terminated: this.terminated,
      heapBytes: this.slots.reduce((n, s) => n + s.heapBytes, 0),
    };
  }

  private async versionNow(): Promise<{ version: string | undefined; at: number }> {
    const at = Date.now();
    let version: string | undefined;
    try {
      version = await this.options.dataVersion?.();
    } catch {
      version = undefined; // A failing store: /health/ready reports it; the age then counts from here.
    }
    return { version, at };
  }

  private caughtUp(index: { version: string | undefined; at: number }): void {
    if (this.index === undefined || index.at >= this.index.at) this.index = index;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.feed.close();
    clearTimeout(this.indexTimer);
    for (const a of this.acks.values()) a.resolve();
    this.acks.clear();
    for (const job of this.queue.splice(0)) this.settle(job, new SearchBusyError(this.settings.timeBudgetMs));
    const slots = [...this.slots];
    // Only the writer writes to disk; one busy with a search (stuck, perhaps) is not waited for.
    const waitFor = new Set(slots.filter((s) => s.writer && s.job === undefined));
    for (const slot of slots) {
      if (slot.job !== undefined) this.settle(slot.job, new SearchBusyError(this.settings.timeBudgetMs));
      this.remove(slot);
    }
    await Promise.all(slots.map((s) => (waitFor.has(s) ? closeWorker(s.worker) : s.worker.terminate())));
  }

  private post(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const slot = this.slots.find((s) => s.job === undefined) ?? (this.slots.length < this.settings.workers ? this.spawn() : undefined);
      if (slot === undefined) return;
      this.assign(slot, this.queue.shift()!);
    }
  }

  private assign(slot: Slot, job: Job): void {
    slot.job = job;
    // A worker with a search keeps the process alive until it answers.
    slot.worker.ref();
    const budgetMs = this.settings.timeBudgetMs;
    // A worker with its indexes built and every batch of the feed sent to it applied starts
    // the job at once (or says when: searchJob.ts); one still building, or with batches to
    // apply first (a load under way, the catch-up after the store's return), says `started`
    // once past them, and the budget waits for that: index work is not the search's time.
    const armed = slot.built && slot.starting === 0 && slot.batchesApplied === slot.batchesSent;
    job.batches = slot.batchesSent;
    const sentAt = Date.now();
    if (job.part !== undefined && job.op.op === 'engine') {
      const { kind, request } = job.op.search;
      this.post(slot, { type: 'part', id: job.id, kind, request, ...job.part, budgetMs, armed, sentAt });
    } else {
      const message: SearchJob = { type: 'job', id: job.id, op: job.op, budgetMs, armed, sentAt };
      this.post(slot, message);
    }
    if (armed) this.arm(slot, job);
  }

  private log(line: string): void {
    (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  /**
   * Reads the newest generation into shared memory (readSharedIndexes), telling the operator
   * which one (a start) or why none (then each worker builds from the store, the writer
   * writes, and that generation is read and shared).
   */
  private async readImage(start: boolean): Promise<SharedIndexes | null> {
    const files = this.setup.indexFiles!;
    // A store that does not answer yet (down at the start) is asked again: the index on disk is not given up for it.
    let identity: string | undefined;
    while (identity === undefined) {
      try {
        identity = await this.options.identity!();
      } catch {
        if (this.closed) return null;
        await new Promise((resolve) => setTimeout(resolve, this.settings.indexPollMs).unref());
      }
    }
    try {
      // With room for the columns the workers append to alike (indexFiles.ts roomFor).
      const found = await readSharedIndexes(files.dir, identity, true);
      for (const problem of found.problems)
        this.log(`heritage-api: search index: ${problem.message}; reading generation ${found.manifest.generation} instead.`);
      const { generation, kinds } = found.manifest;
      if (start)
        this.log(
          `heritage-api: search index: starting from generation ${generation} in ${files.dir} (${kinds.person.documents} persons through ${kinds.person.position}, ` +
            `${kinds.item.documents} items through ${kinds.item.position}); catching up from the change feed.`,
        );
      return { manifest: found.manifest, buffers: found.buffers };
    } catch (e) {
      if (e instanceof IndexProblem) {
        if (e.reason !== 'missing' || !start) this.log(`heritage-api: search index: ${e.message}; building a new one from the store.`);
      } else this.log(`heritage-api: search index: cannot read ${files.dir}: ${(e as Error).message}; building a new one from the store.`);
      return null;
    }
  }

  /** After the writer wrote a generation: read it once and hand it to every worker, which goes over to it (IndexHost.rebase). */
  private async reread(): Promise<void> {
    if (this.rereading) {
      this.rereadDue = true;
      return;
    }
    this.rereading = true;
    try {
      do {
        this.rereadDue = false;
        const image = await this.readImage(false);
        if (image === null || this.closed) continue;
        this.image = Promise.resolve(image);
        // Every worker goes over to it (IndexHost.begin, rebase), the feed read again from its positions.
        this.feed.begin(image);
      } while (this.rereadDue && !this.closed);
    } finally {
      this.rereading = false;
    }
  }

  private spawn(): Slot {
    const spawned = this.versionNow();
    // One writer per directory of index files: the first worker, or the one that replaces it.
    const files = this.setup.indexFiles;
    const writer = files !== undefined && !this.slots.some((s) => s.writer && !s.gone);
    const worker = startWorker(
      this.workerUrl,
      files === undefined ? this.setup : { ...this.setup, indexFiles: { ...files, write: writer } },
    );
    const slot: Slot = {
      worker,
      job: undefined,
      killTimer: undefined,
      gone: false,
      tid: undefined,
      spawned,
      sync: undefined,
      syncTimer: undefined,
      built: false,
      following: true,
      starting: 0,
      batchesSent: 0,
      batchesApplied: 0,
      heapBytes: 0,
      writer,
    };
    worker.on('message', (m: WorkerAnswer) => this.onAnswer(slot, m));
    worker.on('error', (e) => this.onExit(slot, e));
    worker.on('exit', (code) => this.onExit(slot, new Error(`search worker exited with code ${code}`)));
    // Idle workers do not keep a process alive that has nothing else to do.
    worker.unref();
    this.slots.push(slot);
    // A worker that replaces one once the stream has begun: every worker starts it again, so
    // that the new one holds the same index as the others (from the generation on disk, if any).
    if (this.feeding) void this.beginFeed();
    return slot;
  }

  /** Asks the worker to say when it has caught up with the data as of now (SearchState.index). */
  private async sendSync(slot: Slot): Promise<void> {
    if (slot.gone || this.closed) return;
    const version = await this.versionNow();
    if (slot.gone || this.closed) return;
    slot.sync = { token: this.nextToken++, version };
    this.post(slot, { type: 'sync', token: slot.sync.token });
  }

  private onAnswer(slot: Slot, m: WorkerAnswer): void {
    if (slot.gone || m.type === 'closed') return;
    if (m.type === 'thread') {
      slot.tid = m.tid;
      return;
    }
    if (m.type === 'built') {
      slot.built = true;
      void slot.spawned.then((version) => {
        if (slot.gone) return;
        this.caughtUp(version);
        void this.sendSync(slot);
      });
      return;
    }
    if (m.type === 'log') {
      this.log(m.line);
      return;
    }
    if (m.type === 'written') {
      void this.reread();
      return;
    }
    if (m.type === 'ranks') {
      // The writer's refresh of the ranks, for every other replica to take (IndexHost.adoptRanks),
      // after the batches it was made behind: they were sent to every replica before it answered.
      for (const other of this.slots) if (other !== slot && !other.gone) this.post(other, m);
      this.ranksShared++;
      return;
    }
    if (m.type === 'acked') {
      slot.batchesApplied = Math.max(slot.batchesApplied, m.batches);
      if (m.token === -1) slot.starting--;
      else this.acked(slot, m.token);
      return;
    }
    if (m.type === 'following') {
      slot.following = m.following;
      return;
    }
    if (m.type === 'synced') {
      slot.heapBytes = m.heapBytes;
      if (slot.sync?.token !== m.token) return;
      // A replica answers at once: how fresh its index is, the feed says (syncIndex).
      slot.sync = undefined;
      slot.syncTimer = setTimeout(() => void this.sendSync(slot), this.settings.indexPollMs).unref();
      return;
    }
    const job = slot.job;
    if (job === undefined || job.id !== m.id) return;
    slot.batchesApplied = Math.max(slot.batchesApplied, job.batches ?? 0);
    const budgetMs = this.settings.timeBudgetMs;
    if (m.type === 'started') {
      this.arm(slot, job);
      return;
    }
    clearTimeout(slot.killTimer);
    slot.job = undefined;
    slot.worker.unref();
    if (m.type === 'done') {
      if (job.small !== undefined) this.smallSearches.ranAlone(job.small, m.ms);
      this.settle(job, undefined, m.result);
    } else if (m.type === 'part') {
      job.ms = m.ms;
      this.settle(job, undefined, m.part);
    } else {
      if (m.failure.kind === 'budget' && !job.settled && (job.part === undefined || job.part.shard === 0)) this.timeouts++;
      this.settle(job, errorOfFailure(m.failure, budgetMs));
    }
    this.dispatch();
  }

  /** (Re)starts a job's budget: its 503 at the budget, the watchdog's look after the grace. */
  private arm(slot: Slot, job: Job): void {
    const budgetMs = this.settings.timeBudgetMs;
    clearTimeout(job.budgetTimer);
    clearTimeout(slot.killTimer);
    job.budgetTimer = setTimeout(() => {
      // A search scattered in shards counts once.
      if (job.part === undefined || job.part.shard === 0) this.timeouts++;
      this.settle(job, new SearchOverBudgetError(budgetMs));
    }, budgetMs);
    slot.killTimer = setTimeout(() => this.watch(slot, sampleThread(slot.tid)), budgetMs);
  }

  /**
   * The watchdog, from the budget on: every `graceMs`, a worker still busy is terminated if it
   * is stuck, and left alone if it is only starved (./threadPriority.ts stuck()): a search
   * thread runs at a lower priority than the lookups, so under load it may wait for a core
   * well past its deadline; terminating it then would only cost the rebuild of its indexes.
   */
  private watch(slot: Slot, atDeadline: ThreadSample | undefined): void {
    slot.killTimer = setTimeout(() => {
      if (slot.gone || slot.job === undefined) return;
      if (stuck(atDeadline, sampleThread(slot.tid), this.graceMs)) this.terminate(slot);
      else this.watch(slot, atDeadline);
    }, this.graceMs);
  }

  /** Answers a job once: later answers (a worker finishing after the watchdog's 503) are dropped. */
  private settle(job: Job, error: Error | undefined, result?: OpResult | SearchPart): void {
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
    this.acked(slot, undefined);
    slot.job = undefined;
    clearTimeout(slot.killTimer);
    clearTimeout(slot.syncTimer);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
  }
}
