/**
 * GET /entities' search on a store, synchronously, for tests that are not about the
 * service around it: the engine's person index of the store (src/search/indexHost.ts),
 * caught up before each search, and the entity search mapped onto it as the service maps
 * it (src/search/entityEngine.ts).
 */
import { entityEngineSearch, entityResult } from '../../src/search/entityEngine.js';
import type { EntitySearch, EntitySearchResult } from '../../src/search/entitySearch.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { DEFAULT_LIMITS } from '../../src/search/engine/searchLimits.js';
import type { Store } from '../../src/store/Store.js';

const hosts = new WeakMap<Store, IndexHost>();

export async function searchPersons(store: Store, search: EntitySearch): Promise<EntitySearchResult> {
  let host = hosts.get(store);
  if (host === undefined) {
    host = new IndexHost(store, { limits: DEFAULT_LIMITS });
    hosts.set(store, host);
  }
  while (!(await host.refresh('person', 1000)));
  return entityResult(search, await host.search(entityEngineSearch(search), Date.now() + 600_000));
}
