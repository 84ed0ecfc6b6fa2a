/**
 * GET /metrics: Prometheus' text format (the metrics are
 * defined in ../metrics.ts, listed in docs/api.md "Health and metrics").
 *
 * On unless `metrics.enabled` is false. Open by default: it holds counts and
 * timings by route pattern, never a key, a query or a URL, so it tells an
 * outsider no more than the service's traffic level. `metrics.requireKey`
 * asks for an API key as every data route does, for a node reachable from
 * outside without a proxy that keeps /metrics in. Exempt from the rate limit
 * (a scraper is one address) and not in /openapi.json.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Metrics } from '../metrics.js';

export interface MetricsRouteDeps {
  config: Config;
  metrics: Metrics;
}

export function registerMetricsRoute(app: FastifyInstance, deps: MetricsRouteDeps): void {
  if (!deps.config.metrics.enabled) return;
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      const text = await deps.metrics.text();
      return reply.header('Content-Type', deps.metrics.contentType).header('Cache-Control', 'no-store').send(text);
    },
  );
}
