/**
 * Connections to PostgreSQL (the `pg` driver): a pool, transactions, and the errors an
 * operator must fix as sentences that say what to do. Every query is parameterised; the
 * only identifiers written into SQL are this folder's own table names.
 */
import pg from 'pg';
import { UsageError } from '../../errors.js';
import { StoreUnreachableError } from '../storeErrors.js';

/** int8 (counts, sequence numbers, milliseconds) as a JS number: every value the store keeps is below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === (pg.types.builtins.INT8 as number)
      ? (v: string) => Number(v)
      : (pg.types.getTypeParser(oid, format as 'text') as (v: string) => unknown)) as typeof pg.types.getTypeParser,
};

export type Queryable = Pick<pg.ClientBase, 'query'>;

/** The URL without its password: what messages and logs may show. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured store.url';
  }
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url);
}

export interface PoolOptions {
  url: string;
  /** Connections of this process (pg's default is 10). */
  max?: number;
  /** A server that does not accept a connection within this long counts as unreachable (never a hang). */
  connectTimeoutMs?: number;
  /** Client-side bound on one query; none by default (a load's statements may be long). */
  queryTimeoutMs?: number;
}

/** How long a connection may take: a stopped or unreachable server fails a request, it does not hold it. */
export const CONNECT_TIMEOUT_MS = 5000;

export function createPool(options: PoolOptions): pg.Pool {
  // allowExitOnIdle: idle connections do not keep a process alive that has nothing else to do (a
  // command that is done, a search worker's thread), as an open SQLite file does not.
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    types,
    allowExitOnIdle: true,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    // A server gone without a word (a cable, a crashed host) is noticed by the kernel's probes.
    keepAlive: true,
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
  });
  // An idle connection the server drops (a restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs `work` in one transaction on one connection: committed when it resolves, rolled
 * back when it throws. `readOnly` reads one snapshot (REPEATABLE READ).
 */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, readOnly = false): Promise<T> {
  const client = await pool.connect();
  let failed: Error | undefined;
  // A connection the server drops while it is checked out (a restart, a network cut) fails the
  // query under way, and pg also emits 'error' on the client. pg-pool listens for it only while
  // the client is idle; unheard, the event is an uncaught exception that ended a search worker's
  // thread (and would end a process). The failed query carries the error to the caller.
  const dropped = (e: Error) => (failed = e);
  client.on('error', dropped);
  try {
    await client.query(readOnly ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch((rollback: Error) => (failed = rollback));
    throw e;
  } finally {
    // A connection that could not even roll back (the server went away) is dropped, not reused.
    client.removeListener('error', dropped);
    client.release(failed);
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection_exception and its kinds
]);

/** Whether `e` says the server cannot be reached (as opposed to a query it refused). */
export function isUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  const message = (e as Error | undefined)?.message ?? '';
  // pg's own errors carry no code.
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|connect(ion)? timeout/i.test(
    message,
  );
}

/**
 * PostgreSQL's and the network's errors that the operator must fix, as UsageErrors that
 * name the store (without its password). Anything else is returned as it is.
 */
export function operatorError(e: unknown, url: string): unknown {
  if (e instanceof UsageError) return e;
  const code = (e as { code?: unknown }).code;
  const reason = (e as Error).message;
  const where = redactUrl(url);
  if (isUnreachable(e))
    return new StoreUnreachableError(
      where,
      `Cannot reach the PostgreSQL store at ${where} (${reason}): check store.url and that the server runs.`,
    );
  switch (code) {
    case '28P01':
    case '28000':
      return new UsageError(`PostgreSQL refused the login to ${where} (${reason}): check the user and password in store.url.`);
    case '3D000':
      return new UsageError(
        `There is no database ${JSON.stringify(new URL(url).pathname.slice(1))} at ${where}: create it (createdb), then run heritage-api migrate --store <url>.`,
      );
    case '53100':
      return new UsageError(
        `The disk of the PostgreSQL store ${where} is full (${reason}): free space, then run this again; what was committed before stays.`,
      );
    case '25006':
      return new UsageError(
        `The PostgreSQL store ${where} is read-only (a replica?) (${reason}): point store.url at the primary for writes.`,
      );
    default:
      return e;
  }
}
