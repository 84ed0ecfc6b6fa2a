/**
 * What an HTTP worker of `serve --workers N` (docs/deployment.md "Workers") shares with
 * the rest of its node through the primary, over the cluster's IPC channel
 * (src/ipcPeer.ts): the search, hosted once by the primary
 * (src/search/ipcSearch.ts); the rate-limit counts (./clusterRateLimit.ts);
 * and /metrics, the node's sum (./clusterMetrics.ts). buildServer takes it
 * as ServerOptions.node; without it the process is the whole node.
 */
import type { IpcPeer } from '../ipcPeer.js';
import { IpcSearchRunner } from '../search/ipcSearch.js';
import type { SearchRunner, SearchSettings } from '../search/searchPool.js';
import { shareMetrics } from './clusterMetrics.js';
import { clusterRateLimitStore, type RateLimitStoreClass } from './clusterRateLimit.js';
import type { MetricsJson } from './metrics.js';

export interface NodeLinks {
  /** Runs the searches in the primary. */
  searches: SearchRunner;
  /** The `store` of the limiter `name` (@fastify/rate-limit), counting for the node. */
  rateLimitStore(name: string): RateLimitStoreClass;
  /** Offers this process's metrics to the primary; returns what reads the node's. */
  metrics(local: () => Promise<MetricsJson>): () => Promise<string>;
}

export function nodeLinks(peer: IpcPeer, search: SearchSettings): NodeLinks {
  return {
    searches: new IpcSearchRunner(peer, search),
    rateLimitStore: (name) => clusterRateLimitStore(peer, name),
    metrics: (local) => shareMetrics(peer, local),
  };
}
