/**
 * The one reader of the store's change feed for a pool of search threads
 * (docs/search-engine.md "One copy per node"): it reads each kind's changes as a search thread
 * did (docs/search-engine.md "Hosting the indexes": slices of `indexSliceMs`, then a poll
 * every `indexPollMs`) and hands every batch to every thread, in one order, as the store
 * handed it over. Each thread maps and applies them as they come (IndexHost.apply), so all
 * hold the same documents at the same ordinals, and a message sent to a thread after a batch
 * finds it applied: a search scattered over the threads (shards) runs on one state.
 *
 * A stream starts (`begin`) from a generation in shared memory at its positions, or from a
 * full scan; it starts again when a new generation is written (every thread goes over to it)
 * or when the store can no longer serve a position (a full scan into fresh indexes).
 */
import type { SearchChange, SearchFeedStore, SearchKind } from '../domain/searchFeed.js';
import type { SharedIndexes } from './indexFiles.js';

export type FeedMessage =
  /** `stream`: numbers the streams of the pool, so that a message about one (a shared refresh of ranks) finds it. */
  | { type: 'begin'; kind: SearchKind; image: SharedIndexes | null; mode: 'rebase' | 'rescan'; stream: number }
  | { type: 'batch'; kind: SearchKind; changes: SearchChange[]; position: string; done: boolean };

const KINDS: readonly SearchKind[] = ['person', 'item'];

/** Changes read per batch, as a search thread read them (indexHost.ts BATCH). */
const BATCH: Record<SearchKind, number> = { item: 50, person: 500 };

interface Stream {
  /** Where the next read starts (null: a full scan). */
  position: string | null;
  /** The last batch handed over did not catch up: the next one that does is handed over even if empty (it swaps the new index in). */
  open: boolean;
}

export class ReplicaFeed {
  private streams: Record<SearchKind, Stream> | undefined;
  private readonly refreshing: Record<SearchKind, Promise<unknown>> = { person: Promise.resolve(), item: Promise.resolve() };
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private failing = false;
  private syncs: Array<(passStartedAt: number) => void> = [];
  private started: () => void = () => {};
  private readonly ready = new Promise<void>((resolve) => (this.started = resolve));
  /** The last stream begun. */
  private stream = 0;

  constructor(
    private readonly store: SearchFeedStore,
    private readonly settings: { indexSliceMs: number; indexPollMs: number },
    /** Hands a message to every search thread, in order. */
    private readonly broadcast: (message: FeedMessage) => void,
    /**
     * Resolves once every thread has applied what was handed to it so far: a background pass
     * waits for it before the next, so that the threads' queues of batches stay short (a
     * search sent to a thread waits behind them) however fast the store reads.
     */
    private readonly applied: () => Promise<void> = () => Promise.resolve(),
    /** Called when reads start failing (false) or succeed again (true). */
    private readonly onFollowing: (following: boolean) => void = () => {},
  ) {}

  /** Whether the last read succeeded (true before the first). */
  following(): boolean {
    return !this.failing;
  }

  /**
   * Starts every thread's stream over: from `image` at its positions (the threads keep
   * serving the index they have, which takes the batches too), or, without one, from a full
   * scan. Then reads in the background.
   */
  begin(image: SharedIndexes | null): void {
    if (this.closed) return;
    const streams = {} as Record<SearchKind, Stream>;
    for (const kind of KINDS) {
      streams[kind] = { position: image === null ? null : image.manifest.kinds[kind].position, open: true };
      this.broadcast({ type: 'begin', kind, image, mode: image === null ? 'rescan' : 'rebase', stream: ++this.stream });
    }
    this.streams = streams;
    this.started();
    clearTimeout(this.timer);
    this.schedule(0);
  }

  /**
   * Reads and hands over `kind`'s changes for about `budgetMs` (a batch at least); true once
   * caught up. Reads of one kind run one after another; a call waits for the stream's start.
   */
  refresh(kind: SearchKind, budgetMs: number): Promise<boolean> {
    const run = Promise.all([this.refreshing[kind], this.ready]).then(() => this.read(kind, budgetMs));
    this.refreshing[kind] = run.catch(() => undefined);
    return run;
  }

  private async read(kind: SearchKind, budgetMs: number): Promise<boolean> {
    const stop = Date.now() + budgetMs;
    for (;;) {
      const stream = this.streams![kind];
      const batch = await this.store.readSearchChanges(kind, stream.position, BATCH[kind]);
      if (this.closed) return false;
      // A generation or a rescan began while this read was under way: read again from its start.
      if (this.streams![kind] !== stream) continue;
      if ('rescan' in batch) {
        stream.position = null;
        stream.open = true;
        this.broadcast({ type: 'begin', kind, image: null, mode: 'rescan', stream: ++this.stream });
        continue;
      }
      if (batch.changes.length > 0 || (batch.done && stream.open))
        this.broadcast({ type: 'batch', kind, changes: batch.changes, position: batch.position, done: batch.done });
      stream.position = batch.position;
      stream.open = !batch.done;
      if (batch.done) return true;
      if (Date.now() >= stop) return false;
    }
  }

  /** Calls `done(t)` at the end of the next pass that catches up with what was committed before `t`. */
  sync(done: (passStartedAt: number) => void): void {
    this.syncs.push(done);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    // A timer, not setImmediate: hostedIndexes.ts schedule says why.
    this.timer = setTimeout(() => void this.pass(), delayMs).unref();
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
    let done = true;
    try {
      for (const kind of KINDS) if (!(await this.refresh(kind, this.settings.indexSliceMs / KINDS.length))) done = false;
    } catch {
      // The store does not answer: the searches' own refreshes report it; read again at the next poll.
      this.syncs.push(...syncs);
      this.setFailing(true);
      this.schedule(this.settings.indexPollMs);
      return;
    }
    if (this.closed) return;
    this.setFailing(false);
    await this.applied();
    if (this.closed) return;
    if (done) for (const s of syncs) s(startedAt);
    else this.syncs.push(...syncs);
    this.schedule(done ? this.settings.indexPollMs : 0);
  }
}
