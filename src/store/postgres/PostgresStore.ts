/**
 * The PostgreSQL store (issue #16 point 2): every operation of the Store,
 * asynchronous, over a pool of `pg` connections. Its schema
 * is applied by `heritage-api migrate` and checked here at open.
 */
import type pg from 'pg';
import type { Store, StoreSpec } from '../Store.js';
import { createPool, operatorError } from './db.js';
import { PgChildren } from './children.js';
import { PgItems } from './items.js';
import { PgKeys } from './keys.js';
import { PgPersons } from './persons.js';
import { PgProviders } from './providers.js';
import { checkSchema } from './schema.js';
import { PgSearchChanges, SEARCH_CHANGES_KEPT } from './searchChanges.js';
import { PgStatus } from './status.js';

export interface PostgresOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Connections of this process. */
  maxConnections?: number;
  /** The smallest search change log kept per kind (searchChanges.ts; SEARCH_CHANGES_KEPT by default). */
  searchChangesKept?: number;
}

/** The settings of a StoreSpec of this backend. */
export interface PostgresSpec {
  url: string;
}

/** Opens the store at `options.url`; refuses one whose schema is not this version's (run `heritage-api migrate`). */
export async function openPostgresStore(options: PostgresOptions): Promise<Store> {
  const pool = createPool({ url: options.url, max: options.maxConnections });
  try {
    await checkSchema(pool, options.url);
  } catch (e) {
    await pool.end();
    throw operatorError(e, options.url);
  }
  return postgresStore(pool, options);
}

/**
 * Another connection to the store of `spec` (from openStore.ts), for a search worker: it
 * reads the search feed and the bodies of hits, one query at a time.
 */
export function reopenPostgresStore(spec: StoreSpec): Promise<Store> {
  const { url } = spec.settings as PostgresSpec;
  return openPostgresStore({ url, maxConnections: WORKER_CONNECTIONS });
}

/** A search worker's pool: its feed and a search's bodies may overlap, nothing more. */
const WORKER_CONNECTIONS = 2;

function postgresStore(pool: pg.Pool, options: PostgresOptions): Store {
  const kept = options.searchChangesKept ?? SEARCH_CHANGES_KEPT;
  if (!(kept >= 1)) throw new RangeError('searchChangesKept must be at least 1: the newest change keeps the numbering going');
  const items = new PgItems(pool, kept);
  const children = new PgChildren(pool);
  const providers = new PgProviders();
  const persons = new PgPersons(pool, kept);
  const keys = new PgKeys(pool);
  const status = new PgStatus(pool);
  const search = new PgSearchChanges(pool);
  // What the operator must fix (the server gone, a full disk, a wrong password) becomes a sentence, not a stack trace.
  const t =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(...args);
      } catch (e) {
        throw operatorError(e, options.url);
      }
    };
  // This process's own writes, counted once committed, so that dataVersion() moves at once
  // for them even when it answers from a reading of data_version begun before (below).
  let ownWrites = 0;
  const w = <A extends unknown[], R>(run: (...args: A) => Promise<R>) => {
    const translated = t(run);
    return async (...args: A): Promise<R> => {
      try {
        return await translated(...args);
      } finally {
        ownWrites++;
      }
    };
  };
  // Callers compare dataVersion() on every request: concurrent calls share one reading of
  // data_version, so that a busy server asks PostgreSQL once per round trip, not once per
  // request. Another connection's commit is thus seen one round trip late at most (SQLite's
  // COMMIT_CHECK_MS is the same trade).
  let reading: Promise<number> | undefined;
  const readVersion = () => {
    reading ??= pool.query<{ version: number }>('SELECT version FROM data_version').then(
      (r) => {
        reading = undefined;
        return r.rows[0]!.version;
      },
      (e: unknown) => {
        reading = undefined;
        throw e;
      },
    );
    return reading;
  };
  let closed = false;
  // Explicit delegation keeps the Store surface visible in one place.
  return {
    upsertItems: w((x) => items.upsertItems(x)),
    applyItemChanges: w((changes, harvest) => items.applyItemChanges(changes, harvest)),
    getHarvestState: t((source) => items.getHarvestState(source)),
    getItemDocument: t((id, f) => items.getItemDocument(id, f)),
    getItemHead: t((id) => items.getItemHead(id)),
    getAncestry: t((id) => items.getAncestry(id)),
    getChildren: t((id, offset, rows) => children.getChildren(id, offset, rows)),
    findCycles: t((ids) => items.findCycles(ids)),
    blockItem: w((id, reason) => items.blockItem(id, reason)),
    unblockItem: w((id) => items.unblockItem(id)),
    countItems: t(() => items.countItems()),
    listItemIds: t((o) => items.listItemIds(o)),
    listProviders: t(() => providers.list(pool)),
    upsertPersons: w((x) => persons.upsertPersons(x)),
    countPersons: t(() => persons.countPersons()),
    createKey: w((name, hash) => keys.createKey(name, hash)),
    listKeys: t(() => keys.listKeys()),
    revokeKey: w((name) => keys.revokeKey(name)),
    findActiveKey: t((hash) => keys.findActiveKey(hash)),
    markKeyUsed: t((name, at) => keys.markKeyUsed(name, at)),
    recordLoad: w((run) => status.recordLoad(run)),
    listLoads: t(() => status.listLoads()),
    listHarvests: t(() => status.listHarvests()),
    readSearchChanges: t((kind, after, limit) => search.readSearchChanges(kind, after, limit)),
    readSearchBodies: t((kind, ids) => search.readSearchBodies(kind, ids)),
    // Moved by triggers in the transaction of every write that changes what is served (schema.ts).
    dataVersion: t(async () => {
      const own = ownWrites;
      return `${await readVersion()}.${own}`;
    }),
    reopenSpec: (): StoreSpec => {
      const settings: PostgresSpec = { url: options.url };
      return { backend: 'postgres', settings };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
