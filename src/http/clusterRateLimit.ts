/**
 * The rate limits of a node of several processes (`serve --workers N`,
 * docs/deployment.md "Workers"): http.rateLimitMax and web.rateLimitMax hold for the node, not
 * for each worker. A client's keep-alive connection stays on one worker, so
 * a per-worker share of the limit would be wrong; the counts are kept in the
 * primary instead, in @fastify/rate-limit's own LocalStore (the same windows
 * as one process has), and each worker's limiter asks it over IPC
 * (src/ipcPeer.ts) through a store of the plugin's `store` option.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { IpcPeer } from '../ipcPeer.js';

const RATE = 'rateLimit';

interface Count {
  current: number;
  ttl: number;
}

type Callback = (error: Error | null, result?: Count) => void;

/** The plugin's LocalStore (store/LocalStore.js; the package declares no types for it). */
interface LocalStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
}
type LocalStoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean) => LocalStore;

interface Ask {
  store: string;
  op: 'incr' | 'read';
  key: string;
  timeWindow: number;
  max: number;
  continueExceeding: boolean;
  exponentialBackoff: boolean;
}

interface StoreParams {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

/** What @fastify/rate-limit's `store` option takes: a class it makes with its settings. */
export type RateLimitStoreClass = FastifyRateLimitStoreCtor;

/**
 * A store class for the plugin whose counts are the primary's. `name` tells apart the
 * limiters of the app (the API's and the pages'); the plugin's per-limiter children are
 * numbered in the order it makes them, which is the same in every worker (the same app).
 */
export function clusterRateLimitStore(peer: IpcPeer, name: string): RateLimitStoreClass {
  class ClusterRateLimitStore {
    private children = 0;
    private readonly continueExceeding: boolean;
    private readonly exponentialBackoff: boolean;

    constructor(
      params: StoreParams,
      private readonly store = name,
    ) {
      this.continueExceeding = params.continueExceeding ?? false;
      this.exponentialBackoff = params.exponentialBackoff ?? false;
    }

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.ask('incr', key, cb, timeWindow, max);
    }

    read(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.ask('read', key, cb, timeWindow, max);
    }

    child(params: StoreParams): ClusterRateLimitStore {
      return new ClusterRateLimitStore(params, `${this.store}/${this.children++}`);
    }

    private ask(op: Ask['op'], key: string, cb: Callback, timeWindow: number, max: number): void {
      const ask: Ask = {
        store: this.store,
        op,
        key,
        timeWindow,
        max,
        continueExceeding: this.continueExceeding,
        exponentialBackoff: this.exponentialBackoff,
      };
      peer.call<Count>(RATE, ask).then(
        (count) => cb(null, count),
        (e: Error) => cb(e),
      );
    }
  }
  return ClusterRateLimitStore as unknown as RateLimitStoreClass;
}

/** In the primary: keeps the counts of every worker's limiters, one LocalStore per limiter. */
export function hostRateLimits(): { attach(peer: IpcPeer): void } {
  const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as LocalStoreClass;
  const stores = new Map<string, LocalStore>();
  const count = (a: Ask) =>
    new Promise<Count>((resolve, reject) => {
      let store = stores.get(a.store);
      if (store === undefined) stores.set(a.store, (store = new LocalStore(a.continueExceeding, a.exponentialBackoff)));
      store[a.op](a.key, (e, r) => (e ? reject(e) : resolve({ current: r!.current, ttl: r!.ttl })), a.timeWindow, a.max);
    });
  return { attach: (peer) => void peer.handle(RATE, (a) => count(a as Ask)) };
}
