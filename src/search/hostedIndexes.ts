/**
 * The search engine's indexes of one store connection, kept fresh in the background and
 * searched (docs/search-engine.md "The store's change feed"): what a search worker runs (./searchJob.ts), and the main
 * thread when there are no workers (./searchPool.ts).
 *
 * Freshness without stalls: a pass applies the store's changes of each kind for at most
 * `indexSliceMs / 2` (IndexHost.refresh) and yields to the event loop, so searches and
 * messages are served between slices. While changes remain the next pass follows at once
 * (a 0 ms timer); once caught up the feed is polled every `indexPollMs`, so a commit of any
 * connection is searchable within about that long. A start builds both indexes this way;
 * a search of a kind waits until that kind is built (nothing else waits), then refreshes
 * for at most `indexSliceMs` itself, so that a commit just made through the server is seen
 * while a large load in progress is left to the background.
 */
import type { SearchChange, SearchFeedStore, SearchKind } from '../domain/searchFeed.js';
import { storeErrorParts, type StoreErrorParts } from '../domain/storeErrors.js';
import { SearchDeadlineError, SearchRequestError } from './engine/errors.js';
import { IndexHost, WRITE_AFTER_CHANGES, type EngineAnswer, type EngineSearch } from './indexHost.js';
import type { SharedIndexes } from './indexFiles.js';
import {
  SearchBusyError,
  SearchLimitError,
  SearchOverBudgetError,
  type SearchLimitKind,
  type SearchLimits,
} from './engine/searchLimits.js';

export interface HostedSettings {
  limits: SearchLimits;
  /** Longest stretch of index work between two turns of the event loop, in ms. */
  indexSliceMs: number;
  /** How often a caught-up index looks for new commits, in ms. */
  indexPollMs: number;
  /** The indexes on disk (docs/search-engine.md "Persistence"); absent: none. */
  indexFiles?: IndexFileSettings;
  /** search.languages (SearchIndexOptions.languages); absent: the engine's default. */
  languages?: readonly string[];
  /**
   * A replica of a pool (docs/search-engine.md "One copy per node"): the pool reads the change
   * feed once and hands every replica the same batches (`IndexHost.begin`, `apply`), so this
   * host reads no feed and runs no background passes.
   */
  replica?: boolean;
}

/** Where the indexes are kept on disk and when they are written (plain data: it crosses the worker boundary). */
export interface IndexFileSettings {
  /** The directory (src/search/indexPath.ts). */
  dir: string;
  /** This host writes there; the others (further search workers) only read at their start. */
  write: boolean;
  /** A write follows any change after this long, in ms (search.indexWriteSeconds). */
  intervalMs: number;
  /** Shortest time between two writes, in ms (default: a tenth of intervalMs, at most 60 s). */
  minGapMs?: number;
}

/** What a search worker (or the main thread) is asked. */
export type SearchOp = { op: 'engine'; search: EngineSearch } | { op: 'suggest'; kind: SearchKind; prefix: string; limit: number };

export type OpResult = EngineAnswer | string[];

/** Why a search could not be answered; plain data, it crosses the worker boundary. */
export type SearchFailure =
  | { kind: 'limit'; limit: SearchLimitKind }
  | { kind: 'budget' }
  | { kind: 'busy' }
  | { kind: 'request'; message: string }
  /** The store could not answer (a server gone, a lock held): the 503 StoreUnavailableException, never a 500. */
  | { kind: 'store'; store: StoreErrorParts }
  | { kind: 'internal'; message: string; stack: string };

export function failureOf(e: unknown): SearchFailure {
  if (e instanceof SearchLimitError) return { kind: 'limit', limit: e.limit };
  const store = storeErrorParts(e);
  if (store !== undefined) return { kind: 'store', store };
  if (e instanceof SearchOverBudgetError || e instanceof SearchDeadlineError) return { kind: 'budget' };
  if (e instanceof SearchBusyError) return { kind: 'busy' };
  if (e instanceof SearchRequestError) return { kind: 'request', message: e.message };
  const error = e instanceof Error ? e : new Error(String(e));
  return { kind: 'internal', message: error.message, stack: error.stack ?? '' };
}

export const KINDS: readonly SearchKind[] = ['person', 'item'];

export function opKind(op: SearchOp): SearchKind {
  return op.op === 'engine' ? op.search.kind : op.kind;
}

export class HostedIndexes {
  readonly host: IndexHost;
  private timer: NodeJS.Timeout | undefined;
  /** Set for when a write of the indexes falls due by time alone (IndexHost.writeDueAt). */
  private writeTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private started = false;
  /** The write of the indexes to disk under way, if any (close waits for it). */
  private writing: Promise<void> | undefined;
  private waiting: Array<{ kind: SearchKind; go: (error?: unknown) => void }> = [];
  /** Callbacks for the end of the next pass that catches up with every commit made before it began. */
  private syncs: Array<(passStartedAt: number) => void> = [];

  /** The last background pass failed (the store gone, say): searches fail too until one succeeds. */
  private failing = false;

  constructor(
    store: SearchFeedStore,
    private readonly settings: HostedSettings,
    /** Called once, when both kinds have been built. */
    private readonly onBuilt: () => void = () => {},
    /** One line for the operator (src/search/indexHost.ts IndexPersistence.log). */
    log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    /**
     * Called whenever the background passes start failing (`following` false: the store does
     * not answer) or succeed again (true), so that /health/ready can tell (src/http/routes/health.ts).
     */
    private readonly onFollowing: (following: boolean) => void = () => {},
    /**
     * In a search worker of a pool that reads the indexes on disk once for all its threads
     * (docs/search-engine.md "One copy per process"): that generation (instead of reading the
     * directory), and what to call when this thread wrote a new one, for the pool to read it.
     */
    private readonly sharing: { image?: () => Promise<SharedIndexes | null>; onWritten?: (generation: number) => void } = {},
  ) {
    const { maxExpansionsPerTerm, maxExpansionsPerQuery } = settings.limits;
    const files = settings.indexFiles;
    this.host = new IndexHost(
      store,
      { limits: { maxExpansionsPerTerm, maxExpansionsPerQuery }, ...(settings.languages ? { languages: settings.languages } : {}) },
      files === undefined
        ? undefined
        : {
            dir: files.dir,
            write: files.write,
            intervalMs: files.intervalMs,
            minGapMs: files.minGapMs ?? Math.min(60_000, files.intervalMs / 10),
            changes: WRITE_AFTER_CHANGES,
            log,
            ...(sharing.image ? { shared: sharing.image } : { info: log }),
          },
    );
  }

  /** Starts the background passes (the first build among them); a replica has none. */
  start(): void {
    if (this.started || this.closed || this.settings.replica === true) return;
    this.started = true;
    this.schedule(0);
  }

  /** Whether the last background pass could read the store (true before the first). */
  following(): boolean {
    return !this.failing;
  }

  built(kind?: SearchKind): boolean {
    return kind === undefined ? KINDS.every((k) => this.host.built(k)) : this.host.built(kind);
  }

  /** Calls `go` once `kind`'s index is built (at once if it is), or with the error that stops the build. */
  whenBuilt(kind: SearchKind, go: (error?: unknown) => void): void {
    this.start();
    if (this.host.built(kind)) go();
    else {
      this.waiting.push({ kind, go });
      this.timer?.ref();
    }
  }

  /** Calls `done(t)` at the end of the next pass that catches up with what was committed before `t` (a replica: at once). */
  sync(done: (passStartedAt: number) => void): void {
    if (this.settings.replica === true) return done(Date.now());
    this.start();
    this.syncs.push(done);
  }

  /** The search's own refresh, before its budget starts: bounded, the background does the rest. */
  async prepare(op: SearchOp): Promise<void> {
    // A replica's batches come before the search from the pool, which refreshed first.
    if (this.settings.replica === true) return;
    await this.host.refresh(opKind(op), this.settings.indexSliceMs);
  }

  /** Runs an op (its kind built) within `budgetMs`; rejects with what failureOf() reads. */
  async execute(op: SearchOp, budgetMs = Number.POSITIVE_INFINITY): Promise<OpResult> {
    if (op.op === 'suggest') return this.host.suggest(op.kind, op.prefix, op.limit);
    return this.host.search(op.search, Date.now() + budgetMs);
  }

  /**
   * A replica applies a batch of the pool's stream (IndexHost.apply), then does what a
   * background pass does after its refreshes: the searches waiting for a build go on, and
   * the index on disk is written when due.
   */
  applyBatch(kind: SearchKind, changes: readonly SearchChange[], position: string, done: boolean): void {
    const wasBuilt = this.built();
    this.host.apply(kind, changes, position, done);
    if (!done) return;
    const ready = this.waiting.filter((w) => this.host.built(w.kind));
    this.waiting = this.waiting.filter((w) => !this.host.built(w.kind));
    for (const w of ready) w.go();
    if (!wasBuilt && this.built()) this.onBuilt();
    this.writeWhenDue();
  }

  /**
   * Stops the background passes; resolves once a write of the indexes under way has ended, so
   * that a process that ends after it leaves no file being written (a write cut off is safe
   * too: indexFiles.ts keeps the generation before until a manifest names the new one).
   */
  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.writeTimer);
    return this.writing ?? Promise.resolve();
  }

  /**
   * Writes the indexes now if due, or else sets a timer for when they fall due by time alone
   * (a write follows any change within search.indexWriteSeconds, docs/search-engine.md
   * "Persistence", even when no further change comes to look again).
   */
  private writeWhenDue(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    if (this.closed || this.writing !== undefined) return;
    if (this.host.writeDue()) return this.writeInBackground();
    const at = this.host.writeDueAt();
    if (at === undefined) return;
    this.writeTimer = setTimeout(() => this.writeWhenDue(), Math.max(0, at - Date.now()));
    this.writeTimer.unref();
  }

  /** Writes the indexes to disk without holding up the passes and searches (indexHost.ts write). */
  private writeInBackground(): void {
    if (this.closed || this.writing !== undefined) return;
    this.writing = this.host.write().then((written) => {
      this.writing = undefined;
      if (written) this.sharing.onWritten?.(this.host.generation);
      // Changes applied while it was written (or a failed write, retried later) wait for the next.
      this.writeWhenDue();
    });
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    // A timer, even for the next slice at once: an unref'd setImmediate does not wake an
    // event loop that waits for other handles (a worker's port, a server's socket), so the
    // next pass ran only when a message or a request happened to come: a build without
    // searches never ended, and a load in progress reached the index at a slice per search.
    this.timer = setTimeout(() => void this.pass(), delayMs);
    // Background index work keeps a process alive only while a search waits for it.
    if (this.waiting.length === 0) this.timer.unref();
  }

  private setFailing(failing: boolean): void {
    if (failing === this.failing) return;
    this.failing = failing;
    this.onFollowing(!failing);
  }

  private async pass(): Promise<void> {
    this.timer = undefined;
    if (this.closed) return;
    const startedAt = Date.now();
    const syncs = this.syncs;
    this.syncs = [];
    const wasBuilt = this.built();
    let done = true;
    try {
      for (const kind of KINDS) if (!(await this.host.refresh(kind, this.settings.indexSliceMs / KINDS.length))) done = false;
    } catch (e) {
      // A store that fails (a locked or missing file, a server gone): the waiting searches report it; retry
      // at the next poll, so that the index follows again within indexPollMs of the store's return.
      for (const w of this.waiting.splice(0)) w.go(e);
      this.syncs.push(...syncs);
      this.setFailing(true);
      this.schedule(this.settings.indexPollMs);
      return;
    }
    if (this.closed) return;
    this.setFailing(false);
    const ready = this.waiting.filter((w) => this.host.built(w.kind));
    this.waiting = this.waiting.filter((w) => !this.host.built(w.kind));
    for (const w of ready) w.go();
    if (!wasBuilt && this.built()) this.onBuilt();
    // Written in the background, piece by piece between the passes and searches (indexHost.ts write).
    if (done) this.writeWhenDue();
    if (done) for (const s of syncs) s(startedAt);
    else this.syncs.push(...syncs);
    this.schedule(done ? this.settings.indexPollMs : 0);
  }
}
