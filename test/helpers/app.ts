/**
 * A real server on a real store for HTTP tests (Fastify inject: the whole
 * request pipeline, no socket).
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { loadConfig, type ConfigOverrides } from '../../src/config.js';
import { buildServer, type ServerOptions } from '../../src/http/server.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import type { Store } from '../../src/store/Store.js';
import type { TestBackend } from './backends.js';
import { tempDir } from './tempDir.js';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  /** Where the store lives: a file path or a postgres:// URL (backend.connect opens a second connection). */
  location: string;
  key: string;
  /** Headers a well-behaved JSON client sends. */
  json: Record<string, string>;
  xml: Record<string, string>;
  close(): Promise<void>;
}

export async function startTestApp(
  backend: TestBackend,
  options: { load?: string[]; loadEntities?: string[]; flags?: ConfigOverrides; server?: ServerOptions } = {},
): Promise<TestApp> {
  const opened = await backend.open();
  // The search indexes on disk: beside an SQLite file (in its temporary directory), else in one of their own.
  const indexDir = backend.name === 'sqlite' || options.flags?.search?.path !== undefined ? undefined : tempDir('index');
  // One search thread unless a test asks for more, whatever the machine's cores (the default
  // is one per core): the suites start an app per test, and a test that scatters searches
  // says so (test/search/poolScatter.test.ts). A time budget of 30 s, not the 3 s a server
  // has: the suites check answers, and on a busy 2-core machine a search of 1,000 rows can wait
  // for a core longer than 3 s; a test of the budget sets its own (test/entities/bounds.test.ts).
  const search = { workers: 1, timeBudgetMs: 30_000, ...options.flags?.search, ...(indexDir ? { path: indexDir } : {}) };
  const config = loadConfig({
    flags: { ...options.flags, search, store: { ...options.flags?.store, ...backend.config(opened.location) } },
  });
  if (options.load) await ingestItems(opened.store, options.load, { batchSize: 100 });
  if (options.loadEntities) await ingestEntities(opened.store, options.loadEntities, { batchSize: 500 });
  const key = generateApiKey();
  await opened.store.createKey('test', hashApiKey(key));
  const app = await buildServer(config, opened.store, { logging: false, ...options.server });
  const auth = `OAuth oauth_consumer_key="${key}"`;
  return {
    app,
    store: opened.store,
    location: opened.location,
    key,
    json: { accept: 'application/json', authorization: auth },
    xml: { accept: 'application/xml', authorization: auth },
    async close() {
      await app.close();
      await opened.dispose();
      if (indexDir) rmSync(indexDir, { recursive: true, force: true });
    },
  };
}
