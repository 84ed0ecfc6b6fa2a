/**
 * The PostgreSQL store (issue #16 point 2): every operation of the Store,
 * asynchronous (AsyncStore), over a pool of `pg` connections. Its schema
 * is applied by `heritage-api migrate` and checked here at open.
 */
import type pg from 'pg';
import type { AsyncStore, StoreSpec } from '../Store.js';
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
export async function openPostgresStore(options: PostgresOptions): Promise<AsyncStore> {
  const pool = createPool({ url: options.url, max: options.maxConnections });
  try {
    await checkSchema(pool, options.url);
  } catch (e) {
    await pool.end();
    throw operatorError(e, options.url);
  }
  return postgresStore(pool, options);
}

function postgresStore(pool: pg.Pool, options: PostgresOptions): AsyncStore {
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
  // Explicit delegation keeps the Store surface visible in one place.
  return {
    upsertItems: t((x) => items.upsertItems(x)),
    applyItemChanges: t((changes, harvest) => items.applyItemChanges(changes, harvest)),
    getHarvestState: t((source) => items.getHarvestState(source)),
    getItemDocument: t((id, f) => items.getItemDocument(id, f)),
    getItemHead: t((id) => items.getItemHead(id)),
    getAncestry: t((id) => items.getAncestry(id)),
    getChildren: t((id, offset, rows) => children.getChildren(id, offset, rows)),
    findCycles: t((ids) => items.findCycles(ids)),
    blockItem: t((id, reason) => items.blockItem(id, reason)),
    unblockItem: t((id) => items.unblockItem(id)),
    countItems: t(() => items.countItems()),
    listItemIds: t((o) => items.listItemIds(o)),
    listProviders: t(() => providers.list(pool)),
    upsertPersons: t((x) => persons.upsertPersons(x)),
    countPersons: t(() => persons.countPersons()),
    createKey: t((name, hash) => keys.createKey(name, hash)),
    listKeys: t(() => keys.listKeys()),
    revokeKey: t((name) => keys.revokeKey(name)),
    findActiveKey: t((hash) => keys.findActiveKey(hash)),
    markKeyUsed: t((name, at) => keys.markKeyUsed(name, at)),
    recordLoad: t((run) => status.recordLoad(run)),
    listLoads: t(() => status.listLoads()),
    listHarvests: t(() => status.listHarvests()),
    readSearchChanges: t((kind, after, limit) => search.readSearchChanges(kind, after, limit)),
    readSearchBodies: t((kind, ids) => search.readSearchBodies(kind, ids)),
    // Moved by triggers in the transaction of every write that changes what is served (schema.ts).
    dataVersion: t(async () => String((await pool.query<{ version: number }>('SELECT version FROM data_version')).rows[0]!.version)),
    reopenSpec: async (): Promise<StoreSpec> => {
      const settings: PostgresSpec = { url: options.url };
      return { backend: 'postgres', settings };
    },
    close: () => pool.end(),
  };
}
