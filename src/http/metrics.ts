/**
 * The metrics of GET /metrics (docs/api.md "Health and metrics"), in Prometheus' text format
 * through prom-client.
 *
 * Requests are counted on the request path, so that counting must cost next
 * to nothing: prom-client's labelled children hash their labels on every
 * call (about 1.7 µs for a counter and a histogram here, more than a tenth
 * of a cached `parents` answer). Each route therefore gets a RouteTally once,
 * when it is registered: a request adds to two plain arrays (a few ns), and
 * prom-client reads the arrays only when /metrics is scraped.
 *
 * Labels are the route's pattern (`/items/:id/parents`) and the status, never
 * anything of the request itself: no URL, query, key or id can reach a label,
 * however the request is written. Requests no route matches share one label.
 *
 * Replica lag (with the PostgreSQL backend, docs/deployment.md "Replicas") goes here as
 * `heritage_store_replica_lag_seconds{replica}`: a Gauge whose collect() reads
 * each replica's lag from the store, beside the index age below.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SearchState } from '../search/searchPool.js';
import type { ReplicationState } from '../store/Store.js';

/** Upper bounds of the latency buckets, in seconds: cached answers take tens of µs, searches up to the budget. */
export const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of requests that match no route (404, 405, malformed). */
export const UNMATCHED = '(unmatched)';

/** Highest status kept apart; anything else (there is none) counts as 0. */
const STATUSES = 600;

/** The counts of one route. */
export class RouteTally {
  /** Requests by status code. */
  readonly byStatus = new Float64Array(STATUSES);
  /** Requests by latency bucket (not cumulative); the last is above every bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;

  constructor(readonly route: string) {}

  record(status: number, seconds: number): void {
    this.byStatus[status > 0 && status < STATUSES ? status : 0]! += 1;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    this.buckets[i]! += 1;
    this.sum += seconds;
  }
}

export interface MetricsSources {
  /** The search pool's state (src/search/searchPool.ts). */
  search: () => SearchState;
  /** Seconds since the search index last caught up with the data; undefined before it was built. */
  indexAgeSeconds: () => Promise<number | undefined>;
  /** The store's replicas (Store.replication); undefined for a store without. */
  replication?: () => ReplicationState | undefined;
}

/** One registry's metrics as prom-client reads them, to add up those of a node's processes (./clusterMetrics.ts). */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

export interface Metrics {
  /** The tally of a route pattern: get it once, when the route is registered, and record on it. */
  route(pattern: string): RouteTally;
  /** Records a request by its route pattern (for callers without a tally at hand: the fast path). */
  record(pattern: string, status: number, seconds: number): void;
  /** A store operation that failed (its method name: never arguments). */
  storeError(operation: string): void;
  /** The text of GET /metrics. */
  text(): Promise<string>;
  /** This process's metrics, for the primary of `serve --workers N` to add up (./clusterMetrics.ts). */
  json(): Promise<MetricsJson>;
  readonly contentType: string;
}

type HistogramValues = Awaited<ReturnType<Histogram<'route'>['get']>>;

/** A histogram whose values come from the route tallies (prom-client cannot add counts to its buckets). */
class TallyHistogram extends Histogram<'route'> {
  constructor(
    private readonly tallies: Map<string, RouteTally>,
    registry: Registry,
  ) {
    super({
      name: 'heritage_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern.',
      labelNames: ['route'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  override async get(): Promise<HistogramValues> {
    return this.tallied();
  }

  /** What the registry reads for the text format (prom-client's Histogram has it beside get()). */
  async getForPromString(): Promise<HistogramValues> {
    return this.tallied();
  }

  // prom-client's typings give `type` as a numeric enum; at run time it is the string of the text format.
  private tallied(): HistogramValues {
    const name = 'heritage_http_request_duration_seconds';
    const values = [];
    for (const tally of this.tallies.values()) {
      // Routes not asked yet are left out, as prom-client leaves out label sets never observed.
      if (tally.buckets.every((n) => n === 0)) continue;
      let count = 0;
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        count += tally.buckets[i]!;
        values.push({ labels: { le: LATENCY_BUCKETS[i]!, route: tally.route }, value: count, metricName: `${name}_bucket` });
      }
      count += tally.buckets[LATENCY_BUCKETS.length]!;
      values.push({ labels: { le: '+Inf', route: tally.route }, value: count, metricName: `${name}_bucket` });
      values.push({ labels: { route: tally.route }, value: tally.sum, metricName: `${name}_sum` });
      values.push({ labels: { route: tally.route }, value: count, metricName: `${name}_count` });
    }
    const help = 'Time to answer a request, by route pattern.';
    return { name, help, type: 'histogram', values, aggregator: 'sum', collect: () => {} } as unknown as HistogramValues;
  }
}

/**
 * The metrics of one process's requests and store, and of the search when `sources` is
 * given. The HTTP workers of `serve --workers N` leave the search out: the primary hosts
 * it and adds its own (registerSearchMetrics) once to the node's sum (./clusterMetrics.ts).
 */
export function createMetrics(sources: MetricsSources | undefined): Metrics {
  const registry = new Registry();
  // Process metrics: CPU, memory, event loop lag, handles, GC (prom-client's defaults).
  collectDefaultMetrics({ register: registry });

  const tallies = new Map<string, RouteTally>();
  const route = (pattern: string): RouteTally => {
    let tally = tallies.get(pattern);
    if (tally === undefined) tallies.set(pattern, (tally = new RouteTally(pattern)));
    return tally;
  };

  new Counter({
    name: 'heritage_http_requests_total',
    help: 'Requests answered, by route pattern and status.',
    labelNames: ['route', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const tally of tallies.values()) {
        for (let status = 0; status < STATUSES; status++) {
          const n = tally.byStatus[status]!;
          if (n > 0) this.inc({ route: tally.route, status: String(status) }, n);
        }
      }
    },
  });
  new TallyHistogram(tallies, registry);

  const storeErrors = new Counter({
    name: 'heritage_store_errors_total',
    help: 'Store operations that failed while answering requests, by operation.',
    labelNames: ['operation'],
    registers: [registry],
  });

  if (sources !== undefined) registerSearchMetrics(registry, sources);

  return {
    route,
    record: (pattern, status, seconds) => route(pattern).record(status, seconds),
    storeError: (operation) => storeErrors.inc({ operation }),
    text: () => registry.metrics(),
    json: () => registry.getMetricsAsJSON(),
    contentType: registry.contentType,
  };
}

/** The search's metrics (index age, pool state), on the registry of the process that hosts the search. */
export function registerSearchMetrics(registry: Registry, sources: MetricsSources): void {
  new Gauge({
    name: 'heritage_search_index_age_seconds',
    help: 'Seconds since the search index last caught up with the stored data (0: it holds the latest data); absent before it is built.',
    registers: [registry],
    async collect() {
      const age = await sources.indexAgeSeconds();
      this.reset();
      if (age !== undefined) this.set(age);
    },
  });
  const search = (read: (s: SearchState) => number, name: string, help: string, kind: 'gauge' | 'counter') => {
    const collect = function (this: Gauge | Counter) {
      this.reset();
      const value = read(sources.search());
      if (this instanceof Gauge) this.set(value);
      else this.inc(value);
    };
    if (kind === 'gauge') new Gauge({ name, help, registers: [registry], collect });
    else new Counter({ name, help, registers: [registry], collect });
  };
  search((s) => (s.indexBuilt ? 1 : 0), 'heritage_search_index_built', 'Whether the search index is built (1) or not yet (0).', 'gauge');
  search((s) => s.workers, 'heritage_search_workers', 'Search worker threads running.', 'gauge');
  search((s) => s.busy, 'heritage_search_busy', 'Searches running now.', 'gauge');
  search((s) => s.queued, 'heritage_search_queued', 'Searches waiting for a free worker.', 'gauge');
  search((s) => s.timeouts, 'heritage_search_timeouts_total', 'Searches stopped at their time budget (503).', 'counter');
  search((s) => s.refused, 'heritage_search_refused_total', 'Searches refused because the queue was full (503).', 'counter');
  search((s) => s.terminated, 'heritage_search_workers_terminated_total', 'Search workers terminated by the watchdog.', 'counter');
  search(
    (s) => s.heapBytes,
    'heritage_search_heap_bytes',
    "JavaScript heap in use where the search indexes live: the search workers' (as of their last index poll), or the main thread's without workers.",
    'gauge',
  );
  // The replicas as this process's store sees them: registered only where the search is hosted
  // (one process per node), so a cluster's sum of its processes' metrics counts them once.
  replicationMetrics(registry, () => sources.replication?.());
}

/**
 * The replicas of a PostgreSQL store (docs/deployment.md
 * "Replicas"), as the store last checked them: absent for a store without replicas.
 * A replica is labelled host:port/database, never with its user or password.
 */
function replicationMetrics(registry: Registry, state: () => ReplicationState | undefined): void {
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, s: ReplicationState) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        const s = state();
        if (s !== undefined) fill(this, s);
      },
    });
  gauge(
    'heritage_store_replica_lag_seconds',
    'Seconds each replica is behind the primary, as last checked (about every second); absent while it does not answer.',
    ['replica'],
    (g, s) => {
      for (const r of s.replicas) if (r.lagSeconds !== undefined) g.set({ replica: r.name }, r.lagSeconds);
    },
  );
  gauge(
    'heritage_store_replica_in_use',
    'Whether reads may go to each replica (1): it answers, is a standby and lags at most store.maxReplicaLagSeconds.',
    ['replica'],
    (g, s) => {
      for (const r of s.replicas) g.set({ replica: r.name }, r.inUse ? 1 : 0);
    },
  );
  gauge('heritage_store_replicas_in_use', 'Replicas reads may go to now; 0: the primary serves the reads.', [], (g, s) =>
    g.set(s.replicas.filter((r) => r.inUse).length),
  );
  gauge('heritage_store_reads_from_primary', 'Whether this process reads from the primary (1) or from a replica (0).', [], (g, s) =>
    g.set(s.readsFromPrimary ? 1 : 0),
  );
  gauge(
    'heritage_store_primary_reachable',
    'Whether the primary answered its last check (1); 0: writes fail with PrimaryStoreUnreachableException, reads go on from the replicas.',
    [],
    (g, s) => g.set(s.primaryReachable ? 1 : 0),
  );
}
