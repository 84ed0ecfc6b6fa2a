/**
 * The one place that picks a backend from the config.
 */
import type { Config } from '../config.js';
import type { Store } from './Store.js';
import { openSqliteStore } from './sqlite/SqliteStore.js';

export function openStore(config: Config): Store {
  switch (config.store.backend) {
    case 'sqlite':
      return openSqliteStore({ path: config.store.path });
    default:
      // config.ts validates the backend name; this is a guard for new backends.
      throw new Error(`No store backend '${config.store.backend}'.`);
  }
}
