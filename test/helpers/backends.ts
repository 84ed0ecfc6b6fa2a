/**
 * Every store backend the tests run against: SQLite (a file of its own per test) and
 * PostgreSQL (a database of its own per test, on the run's cluster,
 * test/helpers/postgres.ts). Store and HTTP tests loop over BACKENDS, so one test body
 * runs on both and a store cannot pass on one backend only; a new backend is tested by
 * adding one entry to ALL_BACKENDS. HERITAGE_TEST_BACKENDS=sqlite (or =postgres) restricts
 * the loop to the backends it names (CONTRIBUTING.md "Tests").
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigOverrides } from '../../src/config.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import { createPool } from '../../src/store/postgres/db.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { migratePostgres } from '../../src/store/postgres/schema.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { PreparedItem, Store } from '../../src/store/Store.js';
import { cortexXml, type TestPackage } from './packages.js';
import { createTestDatabase } from './postgres.js';
import { tempDir } from './tempDir.js';

export interface TestStoreOptions {
  /** The smallest search change log kept per kind, to test pruning. */
  searchChangesKept?: number;
}

export interface OpenedStore {
  store: Store;
  /** Where it is: a file path or a postgres:// URL; `connect` opens another connection to it. */
  location: string;
  /** Closes the store and removes it. */
  dispose(): Promise<void>;
}

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty store. */
  open(options?: TestStoreOptions): Promise<OpenedStore>;
  /** A second connection to the store at `location`, as another process would have. */
  connect(location: string): Promise<Store>;
  /** The config's `store` settings that name the store at `location`, as an operator writes them. */
  config(location: string): NonNullable<ConfigOverrides['store']>;
}

/** A fresh, migrated PostgreSQL database of its own; `drop` removes it. */
export async function migratedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const db = await createTestDatabase();
  const pool = createPool({ url: db.url, max: 1 });
  try {
    await migratePostgres(pool, db.url);
  } finally {
    await pool.end();
  }
  return db;
}

export const SQLITE: TestBackend = {
  name: 'sqlite',
  async open(options = {}) {
    const dir = tempDir('test');
    const path = join(dir, 'test.db');
    const store = openSqliteStore({ path, ...options });
    return {
      store,
      location: path,
      async dispose() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  connect: async (path) => openSqliteStore({ path }),
  config: (path) => ({ backend: 'sqlite', path }),
};

export const POSTGRES: TestBackend = {
  name: 'postgres',
  async open(options = {}) {
    const db = await migratedDatabase();
    const store = await openPostgresStore({ url: db.url, maxConnections: 4, ...options });
    return {
      store,
      location: db.url,
      async dispose() {
        await store.close();
        await db.drop();
      },
    };
  },
  connect: (url) => openPostgresStore({ url, maxConnections: 2 }),
  // store.path names the data directory under PostgreSQL (the default search index goes
  // beside it, src/search/indexPath.ts): a temporary one, so no test writes into data/.
  config: (url) => ({ backend: 'postgres', url, path: join(tempDir('pgdata'), 'heritage.db') }),
};

/** Every backend, in the order the loops run them. */
export const ALL_BACKENDS: readonly TestBackend[] = [SQLITE, POSTGRES];

/** The environment variable that restricts the backend loop: `sqlite`, `postgres` or both, comma-separated. */
export const BACKENDS_ENV = 'HERITAGE_TEST_BACKENDS';

/**
 * The backends named in `value` (a comma-separated list of names, as in
 * HERITAGE_TEST_BACKENDS), in the order of ALL_BACKENDS; every backend when `value` is
 * unset or blank. An unknown name throws, so that a typo does not quietly test nothing.
 */
export function selectBackends(value: string | undefined): TestBackend[] {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0) return [...ALL_BACKENDS];
  const known = ALL_BACKENDS.map((backend) => backend.name);
  const unknown = names.filter((name) => !known.some((k) => k === name));
  if (unknown.length > 0) {
    throw new Error(
      `${BACKENDS_ENV} names ${unknown.map((n) => `'${n}'`).join(', ')}; the backends are ${known.join(', ')} (comma-separated).`,
    );
  }
  return ALL_BACKENDS.filter((backend) => names.includes(backend.name));
}

/** The backends the store and HTTP tests loop over: every one, or those HERITAGE_TEST_BACKENDS names. */
export const BACKENDS: TestBackend[] = selectBackends(process.env[BACKENDS_ENV]);

/** Test packages (test/helpers/packages.ts) as a load prepares them, upserted in batches of `batchSize` in the order given. */
export async function loadPackages(store: Store, packages: readonly TestPackage[], batchSize = 3): Promise<void> {
  const items = packages.map((p) => preparedItem(cortexXml(p)));
  for (let i = 0; i < items.length; i += batchSize) await store.upsertItems(items.slice(i, i + batchSize));
}

/** One package document as a load prepares it. */
export function preparedItem(xml: string): PreparedItem {
  const [r] = readItemRecords(xml);
  if (r?.kind !== 'item') throw new Error(`not one item: ${JSON.stringify(r)}`);
  return r.item;
}
