/**
 * The one place that picks a backend from the config.
 */
import type { Config } from '../config.js';
import { UsageError } from '../errors.js';
import type { Store, StoreSpec } from './Store.js';
import { openSqliteStore, reopenSqliteStore } from './sqlite/SqliteStore.js';

export interface OpenOptions {
  /**
   * Create the store when it does not exist. Only loads (ingest, harvest,
   * demo) do; any other command given a mistyped --db must not leave an empty
   * store behind, but fail with a StoreNotFoundError (issue #13, point 9).
   */
  create: boolean;
}

/** `load`: the store is opened for a load (ingest, harvest), which wants a larger page cache. */
export function openStore(config: Config, purpose: 'serve' | 'load' = 'serve', options: OpenOptions = { create: purpose === 'load' }): Store {
  const cacheMegabytes = purpose === 'load' ? config.ingest.cacheMegabytes : config.store.cacheMegabytes;
  switch (config.store.backend) {
    case 'sqlite':
      return openSqliteStore({ path: config.store.path, cacheMegabytes, create: options.create, busyTimeoutSeconds: config.store.busyTimeoutSeconds });
    case 'postgres':
      // The PostgreSQL store is asynchronous (AsyncStore); the server and the loads reach it once the store seam is (issue #16 point 1).
      throw new UsageError(
        'store.backend postgres is not served yet: serve, demo, ingest, harvest, keys, items and export run on the SQLite store only until the asynchronous store seam is done (issue #16). ' +
          'On PostgreSQL, run heritage-api migrate and heritage-api copy (docs/deployment.md).',
      );
    default:
      // config.ts validates the backend name; this is a guard for new backends.
      throw new Error(`No store backend '${config.store.backend}'.`);
  }
}

/** Another connection to the store a Store's reopenSpec() describes (a search worker's, src/search/searchWorker.ts). */
export function openStoreFrom(spec: StoreSpec): Store {
  switch (spec.backend) {
    case 'sqlite':
      return reopenSqliteStore(spec);
    default:
      throw new Error(`No store backend '${spec.backend}'.`);
  }
}
