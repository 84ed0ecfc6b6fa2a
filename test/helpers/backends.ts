/**
 * Every store backend the tests run against. Store and HTTP tests loop over
 * this list, so a new backend is tested by adding one entry here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../src/store/Store.js';

export interface TestStoreOptions {
  /** The smallest search change log kept per kind (src/store/sqlite/searchChanges.ts), to test pruning. */
  searchChangesKept?: number;
}

export interface TestBackend {
  name: string;
  /** A fresh, empty store; `dispose` closes and removes it. */
  open(options?: TestStoreOptions): { store: Store; path: string; dispose(): void };
  /** A second connection to the store at `path`, as another process would have. */
  connect(path: string): Store;
}

export const BACKENDS: TestBackend[] = [
  {
    name: 'sqlite',
    open(options = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'heritage-api-test-'));
      const path = join(dir, 'test.db');
      const store = openSqliteStore({ path, ...options });
      return {
        store,
        path,
        dispose() {
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    connect: (path) => openSqliteStore({ path }),
  },
];
