/**
 * The one place that picks a backend from the config.
 */
import type { Config } from '../config.js';
import type { Store } from './Store.js';
import { openPostgresStore } from './postgres/PostgresStore.js';
import { openSqliteStore } from './sqlite/SqliteStore.js';

export interface OpenOptions {
  /**
   * Create the store when it does not exist. Only loads (ingest, harvest,
   * demo) do; any other command given a mistyped --db must not leave an empty
   * store behind, but fail with a StoreNotFoundError (docs/cli.md "The store is created by loads only").
   * A PostgreSQL store is never created here: its database is created by the
   * operator and its schema by `heritage-api migrate`, and opening checks both.
   */
  create: boolean;
  /** Where to say what the operator should know while the store opens (an upgrade of its schema). */
  notice?: (line: string) => void;
}

/** `load`: the store is opened for a load (ingest, harvest), which wants a larger page cache. */
export async function openStore(
  config: Config,
  purpose: 'serve' | 'load' = 'serve',
  options: OpenOptions = { create: purpose === 'load' },
): Promise<Store> {
  const cacheMegabytes = purpose === 'load' ? config.ingest.cacheMegabytes : config.store.cacheMegabytes;
  switch (config.store.backend) {
    case 'sqlite':
      return openSqliteStore({
        path: config.store.path,
        cacheMegabytes,
        create: options.create,
        busyTimeoutSeconds: config.store.busyTimeoutSeconds,
        notice: options.notice,
      });
    case 'postgres':
      return openPostgresStore({
        url: config.store.url,
        replicaUrls: config.store.replicaUrls,
        maxReplicaLagSeconds: config.store.maxReplicaLagSeconds,
      });
    default:
      // config.ts validates the backend name; this is a guard for new backends.
      throw new Error(`No store backend '${config.store.backend}'.`);
  }
}
