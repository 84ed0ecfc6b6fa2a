/**
 * The search of a node of several processes (`serve --workers N`,
 * docs/deployment.md "Workers"): one process hosts the engine's indexes (the primary, with its
 * pool of search threads, ./searchPool.ts), so that their memory is not
 * multiplied by N; each HTTP worker has an IpcSearchRunner that sends its
 * searches there over the cluster's IPC channel (src/ipcPeer.ts).
 *
 * The worker's runner is a Runner as the pool is: it refuses too many
 * clauses itself; the host runs
 * the rest on its own runner, with its budget, queue and watchdog, and sends
 * back the answer or the error as plain data (./hostedIndexes.ts SearchFailure), which
 * the worker turns back into the same coded error (src/errorCodes.ts), so that the client
 * gets the same 400s and 503s, headers included. What the pool reports for /health/ready is
 * sent to every worker whenever it changes.
 */
import type { IpcPeer } from '../ipcPeer.js';
import { failureOf, type OpResult, type SearchFailure, type SearchOp } from './hostedIndexes.js';
import { errorOfFailure, Runner, type SearchSettings, type SearchState } from './searchPool.js';

const SEARCH = 'search';
const STATE = 'search.state';

/** A failure of the store in the host too: the worker's answer is the same 503 as the host's would be. */
type Outcome = { ok: true; result: OpResult } | { ok: false; failure: SearchFailure };

/** The host's state, numbered so that a worker keeps the latest whatever order they arrive in. */
interface StampedState {
  seq: number;
  state: SearchState;
}

const NOT_STARTED: SearchState = {
  indexBuilt: false,
  following: true,
  index: undefined,
  workers: 0,
  busy: 0,
  queued: 0,
  timeouts: 0,
  refused: 0,
  terminated: 0,
  heapBytes: 0,
};

/** The search runner of an HTTP worker process. */
export class IpcSearchRunner extends Runner {
  private latest: StampedState = { seq: -1, state: NOT_STARTED };

  constructor(
    private readonly peer: IpcPeer,
    settings: SearchSettings,
  ) {
    super(settings);
    peer.listen(STATE, (s) => this.keep(s as StampedState));
  }

  protected async execute(op: SearchOp): Promise<OpResult> {
    const outcome = await this.peer.call<Outcome>(SEARCH, op);
    if (outcome.ok) return outcome.result;
    throw errorOfFailure(outcome.failure, this.settings.timeBudgetMs);
  }

  /** Asks for the host's state at once: a worker started after the index was built is ready without waiting for a change. */
  start(): void {
    this.peer.call<StampedState>(STATE, null).then(
      (s) => this.keep(s),
      () => {}, // The host is gone: the worker stops with it (src/cli/commands/serveCluster.ts).
    );
  }

  state(): SearchState {
    return this.latest.state;
  }

  /** The indexes are the host's: nothing of this process to close. */
  async close(): Promise<void> {}

  private keep(s: StampedState): void {
    if (s.seq > this.latest.seq) this.latest = s;
  }
}

/** What the host of the indexes runs: answers the searches of the workers it is given, tells them its state. */
export interface SearchHost {
  /** Answers this worker's searches and state calls. */
  attach(peer: IpcPeer): void;
  detach(peer: IpcPeer): void;
  close(): void;
}

/**
 * Serves `runner` (the primary's pool) to the HTTP workers; looks at its state every
 * `pollMs` and sends it to every worker when it changed.
 */
export function hostSearches(runner: Runner, pollMs: number): SearchHost {
  const peers = new Set<IpcPeer>();
  let seq = 0;
  let last = JSON.stringify(runner.state());
  const stamped = (): StampedState => ({ seq, state: runner.state() });
  const timer = setInterval(() => {
    const now = JSON.stringify(runner.state());
    if (now === last) return;
    last = now;
    seq++;
    const s = stamped();
    for (const peer of peers) peer.note(STATE, s);
  }, pollMs).unref();
  return {
    attach(peer) {
      peers.add(peer);
      peer.handle(SEARCH, async (op): Promise<Outcome> => {
        try {
          return { ok: true, result: await runner.submit(op as SearchOp) };
        } catch (e) {
          return { ok: false, failure: failureOf(e) };
        }
      });
      peer.handle(STATE, () => stamped());
    },
    detach(peer) {
      peers.delete(peer);
    },
    close() {
      clearInterval(timer);
      peers.clear();
    },
  };
}
