/**
 * `heritage-api serve --workers N` (server.workers; docs/deployment.md "Workers"): a
 * node of N HTTP worker processes on one port, with node:cluster.
 *
 * The primary serves no HTTP. It hosts the search (its pool of search
 * threads and their indexes, once for the node: src/search/ipcSearch.ts),
 * the rate-limit counts (src/http/clusterRateLimit.ts) and the sum of the
 * metrics (src/http/clusterMetrics.ts), and it supervises: a worker that
 * dies is logged and replaced; SIGTERM or SIGINT stops every worker (each
 * closes its server, letting the requests under way finish) and then
 * itself, with exit code 0.
 *
 * Each worker runs the same command line (`cluster.fork` of the CLI with the
 * same arguments): it loads the same config, opens its own connection to the
 * store, and listens. A worker that cannot start (port in use, store gone)
 * tells the primary why and exits; while the node starts, that stops the
 * node with the worker's message, as one process says it (no crash loop),
 * and later the node goes on with the workers it has.
 *
 * 1 worker, or a store no other process can open (in memory), is the
 * single process of ./serve.ts.
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config.js';
import { UsageError } from '../../errors.js';
import { hostMetrics } from '../../http/clusterMetrics.js';
import { hostRateLimits } from '../../http/clusterRateLimit.js';
import { nodeLinks } from '../../http/clusterWorker.js';
import { createIndexAge } from '../../http/indexAge.js';
import { IpcPeer, type IpcChannel } from '../../ipcPeer.js';
import { hostSearches } from '../../search/ipcSearch.js';
import { createSearchRunner } from '../../search/searchPool.js';
import { searchIndexFiles } from '../../search/indexPath.js';
import type { Store } from '../../store/Store.js';
import { serveCommand, startServer } from './serve.js';

/** The CLI's entry, which every worker runs with the primary's arguments. */
const MAIN = new URL(import.meta.url.endsWith('.ts') ? '../main.ts' : '../main.js', import.meta.url);

/** How long a stopping worker may take to finish its requests before it is killed. */
const STOP_GRACE_MS = 10_000;

/** Why a worker could not start: what one process would have said. */
interface Failure {
  message: string;
  usage: boolean;
  stack: string | undefined;
}

/** What the worker says once it listens. */
interface Listening {
  httpUrl: string;
  httpsUrl: string | undefined;
}

/** server.workers, with 0 as one per core. */
export function workerCount(config: Config): number {
  return config.server.workers === 0 ? availableParallelism() : config.server.workers;
}

/** `serve`: one process, the primary of a node, or (in a forked process) one of its HTTP workers. */
export async function serveNodeCommand(config: Config, store: Store, log: (line: string) => void, argv: readonly string[]): Promise<void> {
  if (cluster.isWorker) return runWorker(config, store);
  const workers = workerCount(config);
  if (workers <= 1 || store.reopenSpec() === undefined) {
    await serveCommand(config, store, log);
    return;
  }
  await runPrimary(config, store, log, argv, workers);
}

async function runPrimary(
  config: Config,
  store: Store,
  log: (line: string) => void,
  argv: readonly string[],
  count: number,
): Promise<void> {
  const indexFiles = searchIndexFiles(config);
  const searches = createSearchRunner(store, config.search, indexFiles ? { indexFiles } : {});
  searches.start();
  const searchHost = hostSearches(searches, config.search.indexPollMs);
  const rateLimits = hostRateLimits();
  const peers = new Map<Worker, IpcPeer>();
  const metrics = hostMetrics(
    {
      search: () => searches.state(),
      indexAgeSeconds: createIndexAge(store, () => searches.state()),
      replication: () => store.replication?.(),
    },
    () => peers.values(),
  );
  cluster.setupPrimary({ exec: fileURLToPath(MAIN), args: [...argv], serialization: 'advanced' });

  const listened = new Set<Worker>();
  const failures = new Map<Worker, Failure>();
  let starting = true;
  let stopping = false;
  let startup: { resolve(first: Listening): void; reject(e: Error): void } | undefined;
  const started = new Promise<Listening>((resolve, reject) => (startup = { resolve, reject }));
  let first: Listening | undefined;

  const fork = (): void => {
    const worker = cluster.fork();
    const peer = new IpcPeer(worker);
    peers.set(worker, peer);
    searchHost.attach(peer);
    rateLimits.attach(peer);
    metrics.attach(peer);
    peer.listen('listening', (l) => {
      listened.add(worker);
      first ??= l as Listening;
      if (starting && listened.size === count) startup!.resolve(first);
    });
    peer.listen('failed', (f) => failures.set(worker, f as Failure));
    worker.on('exit', (code, signal) => onExit(worker, peer, code, signal));
    // A message to a worker that has just exited fails; its exit is handled above.
    worker.on('error', () => {});
  };

  const onExit = (worker: Worker, peer: IpcPeer, code: number, signal: string | null): void => {
    peer.close(new Error('the worker process exited'));
    searchHost.detach(peer);
    peers.delete(worker);
    const how = signal === null ? `with code ${code}` : `on ${signal}`;
    if (stopping) return;
    if (!listened.has(worker)) {
      const failure = failures.get(worker) ?? {
        message: `A worker process exited ${how} before it listened.`,
        usage: false,
        stack: undefined,
      };
      if (starting) {
        const error = failure.usage ? new UsageError(failure.message) : new Error(failure.message);
        if (!failure.usage && failure.stack !== undefined) error.stack = failure.stack;
        startup!.reject(error);
        return;
      }
      log(`heritage-api: a new worker process could not start (${failure.message}); ${peers.size} worker processes go on.`);
      if (peers.size === 0) void stop(1);
      return;
    }
    listened.delete(worker);
    log(`heritage-api: worker process ${worker.process.pid} exited ${how}; starting another.`);
    fork();
  };

  /** Stops every worker (each finishes its requests), then the search and the store. */
  const stopWorkers = async (): Promise<void> => {
    stopping = true;
    const exits = [...peers.keys()].map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          const kill = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS);
          worker.once('exit', () => clearTimeout(kill));
          peers.get(worker)!.note('stop', null);
        }),
    );
    await Promise.all(exits);
    searchHost.close();
    await searches.close();
  };
  // A failure while stopping is said, with the exit code 1 it then gets; never an unhandled
  // rejection whose trace would hide which step failed.
  const stop = async (code: number) => {
    try {
      await stopWorkers();
      await store.close();
    } catch (e) {
      log(`heritage-api: stopping the node failed: ${(e as Error).stack ?? String(e)}`);
      code = 1;
    }
    process.exit(code);
  };

  for (let i = 0; i < count; i++) fork();
  let listening: Listening;
  try {
    listening = await started;
  } catch (e) {
    // One worker could not start: the others are stopped, and the caller says why (src/cli/main.ts).
    await stopWorkers();
    throw e;
  }
  starting = false;
  process.once('SIGINT', () => void stop(0)).once('SIGTERM', () => void stop(0));
  const where = `${listening.httpUrl}${listening.httpsUrl ? ` and ${listening.httpsUrl}` : ''}`;
  log(`heritage-api listening on ${where} (${await store.countItems()} items, ${count} worker processes)`);
}

/** An HTTP worker: listens, says so (or why not) to the primary, and stops when told or when the primary is gone. */
async function runWorker(config: Config, store: Store): Promise<void> {
  const channel: IpcChannel = {
    send: (m, sent) => process.send!(m, undefined, undefined, sent),
    on: (event, listener) => process.on(event, listener),
    off: (event, listener) => process.off(event, listener),
  };
  const peer = new IpcPeer(channel);
  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer(config, store, true, nodeLinks(peer, config.search));
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    const failure: Failure = { message: error.message, usage: error instanceof UsageError, stack: error.stack };
    await store.close();
    peer.note('failed', failure, () => process.exit(1));
    return;
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await running.close();
    await store.close();
    process.exit(0);
  };
  peer.listen('stop', () => void stop());
  // The primary is gone (killed): nothing would replace this worker or answer its searches.
  process.once('disconnect', () => void stop());
  // An operator may stop one worker; the primary replaces it. A terminal's Ctrl-C reaches
  // every process of the node: the primary stops the workers in order.
  process.once('SIGTERM', () => void stop());
  process.on('SIGINT', () => {});
  peer.note('listening', { httpUrl: running.httpUrl, httpsUrl: running.httpsUrl } satisfies Listening);
}
