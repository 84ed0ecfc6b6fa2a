/**
 * What a search worker does (src/search/searchWorker.ts is its entry): its own connection
 * to the store, from the Store's reopenSpec() (opened by the module it names), and on it the engine's indexes
 * (./hostedIndexes.ts), kept fresh in the background; one search at a time, each within
 * its budget.
 *
 * Protocol (src/search/searchPool.ts): the worker lowers its priority and posts `thread`
 * (./threadPriority.ts) at once, then `built` once both indexes are
 * built; for each `job` (and `part`), `started` once its kind is built and refreshed if that
 * took more than STARTED_AFTER_MS since the pool sent it (the batches of the feed sent before
 * it are applied first), or always for a job not `armed` (the budget
 * counts from `started`; a pool that has seen `built` arms it at the dispatch), then
 * `done` or `failed`; each `sync` is answered `synced` at the end of the
 * next background pass that caught up with every commit made before it began.
 */
import { getHeapStatistics } from 'node:v8';
import type { SearchChange, SearchFeedStore, SearchKind, StoreOpener, StoreSpec } from '../domain/searchFeed.js';
import type { RanksOfKey } from './engine/SearchIndex.js';
import type { SearchPart } from './engine/shards.js';
import type { SearchRequest } from './engine/types.js';
import { lowerThisThread, thisThreadId } from './threadPriority.js';
import { failureOf, HostedIndexes, type HostedSettings, type OpResult, type SearchFailure, type SearchOp } from './hostedIndexes.js';
import type { SharedIndexes } from './indexFiles.js';

/**
 * A job that waited less than this for its index (the common case: built and caught up)
 * posts no `started`: each message wakes the main thread, which on a loaded machine takes
 * the core from the worker (a fifth of the worker's samples at 1 M under load).
 */
export const STARTED_AFTER_MS = 5;

export interface SearchWorkerSetup extends HostedSettings {
  spec: StoreSpec;
  /** The nice value the thread lowers itself to (search.niceness; ./threadPriority.ts). */
  niceness: number;
  /**
   * The pool reads the indexes on disk once into shared memory and sends them (`image`):
   * the worker waits for the first instead of reading the directory itself.
   */
  sharedImages?: boolean;
}

export interface SearchJob {
  type: 'job';
  id: number;
  op: SearchOp;
  budgetMs: number;
  /** The pool counts the budget from the dispatch: `started` only if the start came later. */
  armed: boolean;
  /**
   * When the pool posted it (Date.now(), one clock for every thread): the feed's batches posted
   * before it are applied first, so a start later than this by STARTED_AFTER_MS is told.
   */
  sentAt: number;
}

/** A refresh of the ranks made in shared memory by one replica, for the others (docs/search-engine.md "One copy per node"). */
export interface SharedRanksMessage {
  type: 'ranks';
  kind: SearchKind;
  stream: number;
  refreshes: RanksOfKey[];
}

export type ToWorker =
  | SearchJob
  | { type: 'sync'; token: number }
  /** To a replica (HostedSettings.replica): the pool's stream of `kind` starts over (IndexHost.begin). */
  | { type: 'begin'; kind: SearchKind; image: SharedIndexes | null; mode: 'rebase' | 'rescan'; stream: number }
  /** To a replica: another replica's refresh of the ranks of `kind`'s stream `stream`, in shared memory, to take (IndexHost.adoptRanks). */
  | SharedRanksMessage
  /** To a replica: answer `acked` (every batch sent before is applied), with `batches` (the pool's count of batches sent before it) echoed. */
  | { type: 'ack'; token: number; batches: number }
  /** To a replica: the next batch of the stream of `kind` (IndexHost.apply). */
  | { type: 'batch'; kind: SearchKind; changes: SearchChange[]; position: string; done: boolean }
  /** To a replica: its shard of one search scattered over the pool (docs/search-engine.md "Shards"). */
  | PartJob
  /** A generation of the indexes in shared memory (null: none usable); the first is the start's, later ones are newer generations. */
  | { type: 'image'; image: SharedIndexes | null }
  /** The pool closes: stop the index work and answer `closed` once a write to disk under way has ended. */
  | { type: 'close' };

/** A shard of one search: the replica answers `part` (or `failed`) with its share (engine/shards.ts SearchPart). */
export interface PartJob {
  type: 'part';
  id: number;
  kind: SearchKind;
  request: SearchRequest;
  shard: number;
  shards: number;
  budgetMs: number;
  /** As SearchJob.armed: `started` only if the start came later, or always when not armed. */
  armed: boolean;
  /** As SearchJob.sentAt. */
  sentAt: number;
}

export type WorkerAnswer =
  /** First of all: the thread's id in the kernel, for the watchdog (undefined without /proc). */
  | { type: 'thread'; tid: number | undefined }
  | { type: 'built' }
  /** This worker (the writer) wrote a new generation of the indexes to disk. */
  | { type: 'written'; generation: number }
  /** From the replica that refreshes the ranks (the writer): hand it to the others. */
  | SharedRanksMessage
  /** A line for the operator's log (the indexes on disk: one rejected, a write that failed). */
  | { type: 'log'; line: string }
  /** The worker's index stopped following the store (it does not answer) or follows it again. */
  | { type: 'following'; following: boolean }
  /** `heapBytes`: the worker's JavaScript heap in use (SearchState.heapBytes). */
  | { type: 'synced'; token: number; heapBytes: number }
  | { type: 'started'; id: number }
  /** `ms`: the time of its work in the worker (smallSearches.ts: small searches stay on one worker). */
  | { type: 'part'; id: number; part: SearchPart; ms: number }
  | { type: 'acked'; token: number; batches: number }
  | { type: 'done'; id: number; result: OpResult; ms: number }
  | { type: 'failed'; id: number; failure: SearchFailure }
  /** The answer to `close`: nothing of this worker writes to disk any more. */
  | { type: 'closed' };

/** Another connection to the store, by the module the spec names (src/domain/searchFeed.ts StoreSpec). */
async function reopenStore(spec: StoreSpec): Promise<SearchFeedStore> {
  const opener = (await import(spec.opener)) as StoreOpener;
  return opener.reopenStore(spec);
}

/**
 * Opens the store and starts building its indexes at once, so that the first search
 * finds them ready; returns what handles each message. Messages that come while the
 * store opens wait for it. A store that cannot be opened (its server down as the worker
 * starts: a worker replaced during an outage) fails each search with why (the 503 of a
 * store that cannot answer) and is tried again every `indexPollMs`, and at each search,
 * until it opens: a failed opening is never kept.
 */
export function searchJobs(setup: SearchWorkerSetup, post: (answer: WorkerAnswer) => void): (message: ToWorker) => void {
  // Before the index is built: building is search work too, and must not take the lookups' cores.
  lowerThisThread(setup.niceness);
  post({ type: 'thread', tid: thisThreadId() });
  if (setup.replica === true) return replicaJobs(setup, post);
  let opening: Promise<HostedIndexes> | undefined;
  let retry: NodeJS.Timeout | undefined;
  // The images the pool sends (sharedImages): the newest, and when the first came.
  let image: SharedIndexes | null = null;
  let firstImage: () => void = () => {};
  const imageCame = new Promise<void>((resolve) => (firstImage = resolve));
  let images = 0;
  const open = (): Promise<HostedIndexes> => {
    clearTimeout(retry);
    opening ??= reopenStore(setup.spec).then(
      (store) => {
        const hosted = new HostedIndexes(
          store,
          setup,
          () => post({ type: 'built' }),
          (line) => post({ type: 'log', line }),
          (following) => post({ type: 'following', following }),
          setup.sharedImages
            ? { image: () => imageCame.then(() => image), onWritten: (generation) => post({ type: 'written', generation }) }
            : { onWritten: (generation) => post({ type: 'written', generation }) },
        );
        hosted.start();
        post({ type: 'following', following: true });
        return hosted;
      },
      (error: unknown) => {
        opening = undefined;
        post({ type: 'following', following: false });
        // Idle workers keep trying too, so that the index is built before the next search.
        retry = setTimeout(() => void open().catch(() => {}), setup.indexPollMs).unref();
        throw error;
      },
    );
    return opening;
  };
  // Reported to each search below; not an unhandled rejection that ends the worker.
  open().catch(() => {});
  return (message) => {
    if (message.type === 'close') {
      // Not through open(): closing must not open a store.
      clearTimeout(retry);
      const closing = opening?.then((hosted) => hosted.close()) ?? Promise.resolve();
      void closing.catch(() => {}).then(() => post({ type: 'closed' }));
      return;
    }
    if (message.type === 'image') {
      // Not through open(): an image must not wait for (or be lost with) a store that does not open.
      image = message.image;
      if (images++ === 0) firstImage();
      else if (message.image !== null) void opening?.then((hosted) => hosted.host.rebase(message.image!)).catch(() => {});
      return;
    }
    open().then(
      (hosted) => handle(hosted, message),
      (error: unknown) => {
        if (message.type === 'job') post({ type: 'failed', id: message.id, failure: failureOf(error) });
      },
    );
  };

  function handle(hosted: HostedIndexes, message: ToWorker): void {
    if (message.type === 'sync') {
      hosted.sync(() => post({ type: 'synced', token: message.token, heapBytes: getHeapStatistics().used_heap_size }));
      return;
    }
    if (message.type !== 'job') return;
    const { id, op, budgetMs, armed, sentAt: came } = message;
    const kind = op.op === 'engine' ? op.search.kind : op.kind;
    hosted.whenBuilt(kind, (error) => {
      void (async () => {
        try {
          if (error !== undefined) throw error as Error;
          await hosted.prepare(op);
          if (!armed || Date.now() - came > STARTED_AFTER_MS) post({ type: 'started', id });
          // `ms`: the search's own work, up to its first wait (for the store: hits not yet shown),
          // as a part's is (the scattered search reads its hits in the main thread)
          const t = performance.now();
          const answer = hosted.execute(op, budgetMs);
          const ms = performance.now() - t;
          post({ type: 'done', id, result: await answer, ms });
        } catch (e) {
          post({ type: 'failed', id, failure: failureOf(e) });
        }
      })();
    });
  }
}

/**
 * A replica of the pool (docs/search-engine.md "One copy per node"): it reads no change feed;
 * the pool's stream (`begin`, `batch`) is applied as each message comes, in the order the
 * pool sent it, so every replica holds the same documents at the same ordinals, and a
 * search or a shard sent after a batch runs on an index that holds it and nothing after
 * it. Its own store connection serves what hits show (and the identity for the writer),
 * opened as searchJobs opens it.
 */
function replicaJobs(setup: SearchWorkerSetup, post: (answer: WorkerAnswer) => void): (message: ToWorker) => void {
  let opening: Promise<SearchFeedStore> | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = (): Promise<SearchFeedStore> => {
    clearTimeout(retry);
    opening ??= Promise.resolve(reopenStore(setup.spec)).then(
      (store) => {
        post({ type: 'following', following: true });
        return store;
      },
      (error: unknown) => {
        opening = undefined;
        post({ type: 'following', following: false });
        retry = setTimeout(() => void open().catch(() => {}), setup.indexPollMs).unref();
        throw error;
      },
    );
    return opening;
  };
  open().catch(() => {});
  const store: SearchFeedStore = {
    readSearchChanges: () => Promise.reject(new Error('a replica reads no change feed')),
    readSearchBodies: async (kind, ids) => (await open()).readSearchBodies(kind, ids),
    searchIdentity: async () => (await open()).searchIdentity(),
  };
  // Built once the index is and the store is open (what a hit shows is read there), so that
  // a search's budget, counted from `built` on, never waits for the connection.
  const hosted = new HostedIndexes(
    store,
    setup,
    () =>
      void open().then(
        () => post({ type: 'built' }),
        () => {},
      ),
    (line) => post({ type: 'log', line }),
    () => {},
    { onWritten: (generation) => post({ type: 'written', generation }) },
  );
  // With a generation on disk that all replicas start from, the writer refreshes the ranks into
  // shared memory and the others take its refresh (docs/search-engine.md "One copy per node").
  if (setup.indexFiles !== undefined)
    hosted.host.rankSharing = {
      share: setup.indexFiles.write,
      onShared: (kind, stream, refreshes) => post({ type: 'ranks', kind, stream, refreshes }),
    };
  // While a search awaits the store (what its hits show), the stream's messages wait here, in
  // order, so that index work does not hold up its answer; the next search or shard applies
  // them first, so it finds every batch sent before it.
  let inFlight = 0;
  const deferred: Array<() => void> = [];
  const drain = () => {
    while (deferred.length > 0) deferred.shift()!();
  };
  const inOrder = (work: () => void) => {
    if (inFlight > 0) deferred.push(work);
    else {
      drain();
      work();
    }
  };
  return (message) => {
    switch (message.type) {
      case 'begin':
        inOrder(() => hosted.host.begin(message.kind, message.image, message.mode, message.stream));
        return;
      case 'ranks':
        inOrder(() => hosted.host.adoptRanks(message.kind, message.stream, message.refreshes));
        return;
      case 'batch':
        inOrder(() => hosted.applyBatch(message.kind, message.changes, message.position, message.done));
        return;
      case 'image':
        return;
      case 'close':
        void hosted.close().then(() => post({ type: 'closed' }));
        return;
      case 'ack':
        inOrder(() => post({ type: 'acked', token: message.token, batches: message.batches }));
        return;
      case 'sync':
        post({ type: 'synced', token: message.token, heapBytes: getHeapStatistics().used_heap_size });
        return;
      case 'part': {
        // At once, before any later message: the shard runs on the batches sent before it.
        const { id, kind, request, shard, shards, budgetMs, armed, sentAt } = message;
        drain();
        // Applying the batches sent before it is index work: its budget starts now.
        if (!armed || Date.now() - sentAt > STARTED_AFTER_MS) post({ type: 'started', id });
        try {
          if (!hosted.built(kind)) throw new Error(`the ${kind} index of this search thread is not built`);
          const t = performance.now();
          const part = hosted.host.index(kind).searchPart(request, Date.now() + budgetMs, shard, shards);
          post({ type: 'part', id, part, ms: performance.now() - t });
        } catch (e) {
          post({ type: 'failed', id, failure: failureOf(e) });
        }
        return;
      }
      case 'job': {
        const { id, op, budgetMs, armed, sentAt: came } = message;
        const kind = op.op === 'engine' ? op.search.kind : op.kind;
        drain();
        hosted.whenBuilt(kind, (error) => {
          void (async () => {
            try {
              if (error !== undefined) throw error as Error;
              await open();
              drain();
              inFlight++;
              if (!armed || Date.now() - came > STARTED_AFTER_MS) post({ type: 'started', id });
              // `ms`: the search's own work, up to its first wait (for the store: hits not yet shown),
              // as a part's is (the scattered search reads its hits in the main thread)
              const t = performance.now();
              const answer = hosted.execute(op, budgetMs);
              const ms = performance.now() - t;
              post({ type: 'done', id, result: await answer, ms });
            } catch (e) {
              post({ type: 'failed', id, failure: failureOf(e) });
            } finally {
              if (inFlight > 0 && --inFlight === 0) drain();
            }
          })();
        });
      }
    }
  };
}
