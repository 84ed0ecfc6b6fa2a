/**
 * GET /search/person's search on a store, for tests that are not about the service around
 * it: the parameters read as the route reads them (src/http/searchRequest/personSearch.ts),
 * on the engine's person index of the store (src/search/indexHost.ts), caught up before each
 * search, and the answer as the route renders it.
 */
import type { EntitiesResult } from '../../src/http/bodies/entities.js';
import { personResult, toPersonSearch } from '../../src/http/searchRequest/personSearch.js';
import type { Query } from '../../src/http/searchRequest/queryParameters.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { DEFAULT_LIMITS } from '../../src/search/engine/searchLimits.js';
import type { Store } from '../../src/store/Store.js';

const hosts = new WeakMap<Store, IndexHost>();

export async function searchPersons(store: Store, params: Query): Promise<EntitiesResult> {
  let host = hosts.get(store);
  if (host === undefined) {
    host = new IndexHost(store, { limits: DEFAULT_LIMITS });
    hosts.set(store, host);
  }
  while (!(await host.refresh('person', 1000)));
  const search = toPersonSearch(params);
  return personResult(search, await host.search({ kind: 'person', request: search.request }, Date.now() + 600_000));
}
