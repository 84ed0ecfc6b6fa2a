/**
 * A real PostgreSQL for the tests: store tests run on the real thing, never a mock.
 *
 * `npm test` starts one cluster for the whole run (test/helpers/withPostgres.ts) and
 * passes its address down in TEST_POSTGRES_ADMIN_URL; a test file run alone starts
 * its own cluster on first use and stops it when the file's tests are done. Every test
 * gets a database of its own (createTestDatabase), dropped at the end.
 */
import { after } from 'node:test';
import pg from 'pg';
import { ENV, startCluster, type Cluster } from './postgresCluster.js';

let own: Promise<Cluster> | undefined;

// Imported at the top of a test file, so this is a hook of the file's root: it runs once its tests are done.
after(async () => {
  if (own) await (await own).stop();
});

/** The admin URL of the run's cluster, starting one for this process when the run has none. */
async function adminUrl(): Promise<string> {
  const shared = process.env[ENV];
  if (shared) return shared;
  own ??= startCluster();
  return (await own).adminUrl;
}

let counter = 0;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database of its own; `drop` removes it (closing what is still connected). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = await adminUrl();
  const name = `t_${process.pid}_${++counter}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
