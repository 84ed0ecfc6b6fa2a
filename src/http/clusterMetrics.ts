/**
 * /metrics of a node of several processes (`serve --workers N`,
 * docs/deployment.md "Workers"): whichever worker is asked answers for the whole node. It asks the
 * primary, which gathers every worker's metrics and its own (the search and
 * its index age, which it hosts, and its process metrics) and adds them up
 * with prom-client's AggregatorRegistry.aggregate: counts and histograms are
 * summed over the processes, so a request counts once whichever worker
 * answered it, and process_resident_memory_bytes is the node's.
 */
import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';
import type { IpcPeer } from '../ipcPeer.js';
import { registerSearchMetrics, type MetricsJson, type MetricsSources } from './metrics.js';

const NODE_METRICS = 'metrics.node';
const PROCESS_METRICS = 'metrics.process';

/** In a worker: answers the primary's gathering with this process's metrics; returns the node's text, asked of the primary. */
export function shareMetrics(peer: IpcPeer, local: () => Promise<MetricsJson>): () => Promise<string> {
  // As JSON: what prom-client reads carries functions, which cannot cross to another process.
  peer.handle(PROCESS_METRICS, async () => JSON.parse(JSON.stringify(await local())) as MetricsJson);
  return () => peer.call<string>(NODE_METRICS, null);
}

/** In the primary: its own metrics, and the node's sum for the worker that asks. */
export function hostMetrics(sources: MetricsSources, workers: () => Iterable<IpcPeer>): { attach(peer: IpcPeer): void } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerSearchMetrics(registry, sources);
  const node = async (): Promise<string> => {
    const gathered = await Promise.allSettled([...workers()].map((w) => w.call<MetricsJson>(PROCESS_METRICS, null)));
    // A worker that exits while asked is left out of this scrape; its replacement counts from 0.
    const parts = gathered.flatMap((g) => (g.status === 'fulfilled' ? [g.value] : []));
    return AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), ...parts]).metrics();
  };
  return { attach: (peer) => void peer.handle(NODE_METRICS, () => node()) };
}
