/**
 * GET /health/live and GET /health/ready, for load balancers and
 * orchestrators (docs/api.md "Health and metrics").
 *
 * /health/live: the process runs and its event loop turns; nothing else is
 * looked at, so that a slow store does not get a live process restarted.
 * /health/ready: the store answers (a cheap dataVersion(), through the Store
 * interface: any backend) and the search index is built (the search workers
 * say so, src/search/searchPool.ts) and follows the store (its connections read it: after
 * the store's return they reconnect by themselves); until all hold it is a 503 with the
 * catalog's error body, so that the balancer sends no traffic yet.
 *
 * Both are open (no key, no Accept needed: probes send neither), exempt from
 * the rate limit (a probe every second must not use up an address's budget),
 * answer JSON whatever Accept says, are never cached, and are not in
 * /openapi.json: they are this server's, not the DDB interface's.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../errors.js';
import type { SearchRunner } from '../../search/searchPool.js';
import type { Store } from '../../store/Store.js';

export interface HealthRouteDeps {
  store: Pick<Store, 'dataVersion'>;
  searches: Pick<SearchRunner, 'state'>;
}

const RETRY_AFTER_SECONDS = 5;

/** Hidden from /openapi.json; outside the rate limit. */
const ROUTE = { schema: { hide: true }, config: { rateLimit: false } };

function json(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.header('Content-Type', 'application/json; charset=utf-8').header('Cache-Control', 'no-store').send(JSON.stringify(body));
}

/** Why the server is not ready, or undefined when it is. */
export async function notReadyReason(deps: HealthRouteDeps): Promise<string | undefined> {
  try {
    await deps.store.dataVersion();
  } catch {
    // The error itself is logged where the store is used and counted in heritage_store_errors_total.
    return 'the store does not answer';
  }
  const search = deps.searches.state();
  if (!search.indexBuilt) return 'the search index is still being built';
  // The store answers this process but not yet the search's own connections (they reconnect at their next poll).
  if (!search.following) return 'the search cannot read the store';
  return undefined;
}

export function registerHealthRoutes(app: FastifyInstance, deps: HealthRouteDeps): void {
  app.get('/health/live', ROUTE, async (_request, reply) => json(reply, { status: 'live' }));
  app.get('/health/ready', ROUTE, async (_request, reply) => {
    const reason = await notReadyReason(deps);
    if (reason !== undefined) {
      throw ApiError.of('notReady', reason, RETRY_AFTER_SECONDS).withHeaders({
        'Retry-After': String(RETRY_AFTER_SECONDS),
        'Cache-Control': 'no-store',
      });
    }
    return json(reply, { status: 'ready' });
  });
}
