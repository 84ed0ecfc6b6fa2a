/**
 * The PostgreSQL store (docs/deployment.md "The PostgreSQL backend"): every operation of the Store,
 * asynchronous, over a pool of `pg` connections. Its schema
 * is applied by `heritage-api migrate` and checked here at open.
 */
import type pg from 'pg';
import { ApiError } from '../../errors.js';
import type { Store } from '../Store.js';
import type { StoreSpec } from '../../domain/searchFeed.js';
import { DecodedBodies } from '../bodyCodec.js';
import { createPool, isUnreachable, operatorError } from './db.js';
import { PgChildren } from './children.js';
import { DECODED_BODIES_BYTES, PgItems } from './items.js';
import { PgOaiReads } from './oaiRecords.js';
import { PgKeys } from './keys.js';
import { PgPersons } from './persons.js';
import { PgSitemap } from './sitemap.js';
import { PgProviders } from './providers.js';
import type { ReplicationState } from '../Store.js';
import { isRecoveryConflict, Replication, serverName } from './replication.js';
import { checkSchema } from './schema.js';
import { PgSearchChanges, SEARCH_CHANGES_KEPT } from './searchChanges.js';
import { PgStatus } from './status.js';

export interface PostgresOptions {
  /** postgres://user:password@host:port/database: the primary, where every write goes. */
  url: string;
  /** Streaming replicas of `url` that serve reads (store.replicaUrls; replication.ts). */
  replicaUrls?: readonly string[];
  /** A replica further behind than this is left out (store.maxReplicaLagSeconds). */
  maxReplicaLagSeconds?: number;
  /** Connections of this process, per server. */
  maxConnections?: number;
  /** The smallest search change log kept per kind (searchChanges.ts; SEARCH_CHANGES_KEPT by default). */
  searchChangesKept?: number;
}

/** The settings of a StoreSpec of this backend. */
export interface PostgresSpec {
  url: string;
  replicaUrls: readonly string[];
  maxReplicaLagSeconds: number;
}

/** What the replicas' lag may be when store.maxReplicaLagSeconds is not given (config.ts has the same). */
const DEFAULT_MAX_REPLICA_LAG_SECONDS = 5;

/**
 * Opens the store at `options.url`; refuses one whose schema is not this version's (run
 * `heritage-api migrate`). With replicas, a primary that cannot be reached does not stop
 * the opening when a replica can be: reads go on from it, and writes fail with
 * PrimaryStoreUnreachableException until the primary is back.
 */
export async function openPostgresStore(options: PostgresOptions): Promise<Store> {
  const replicaUrls = options.replicaUrls ?? [];
  const primary = server(options.url, options, false);
  const replicas = replicaUrls.map((url) => server(url, options, true));
  const all = [primary, ...replicas];
  try {
    try {
      await checkSchema(primary.pool, options.url);
    } catch (e) {
      if (!isUnreachable(e) || replicas.length === 0) throw e;
      await checkOnAReplica(replicas, e);
    }
  } catch (e) {
    await Promise.all(all.map((s) => s.pool.end()));
    throw operatorError(e, options.url);
  }
  let replication: Replication<PgServer> | undefined;
  if (replicas.length > 0) {
    replication = new Replication(
      primary,
      replicas,
      options.maxReplicaLagSeconds ?? DEFAULT_MAX_REPLICA_LAG_SECONDS,
      new Map(all.map((s) => [s, s.url])),
    );
    await replication.start();
  }
  return postgresStore(primary, replication, options);
}

/** The primary is down: the schema is checked on the first replica that answers. */
async function checkOnAReplica(replicas: readonly PgServer[], primaryError: unknown): Promise<void> {
  for (const r of replicas) {
    try {
      await checkSchema(r.pool, r.url);
      return;
    } catch (e) {
      if (!isUnreachable(e)) throw operatorError(e, r.url);
    }
  }
  throw primaryError;
}

/**
 * Another connection to the store of `spec` (from openStore.ts), for a search worker: it
 * reads the search feed and the bodies of hits, one query at a time.
 */
export function reopenPostgresStore(spec: StoreSpec): Promise<Store> {
  const { url, replicaUrls, maxReplicaLagSeconds } = spec.settings as PostgresSpec;
  return openPostgresStore({ url, replicaUrls, maxReplicaLagSeconds, maxConnections: WORKER_CONNECTIONS });
}

/** This module as a StoreSpec's opener (src/domain/searchFeed.ts StoreOpener). */
export { reopenPostgresStore as reopenStore };

/** A search worker's pool: its feed and a search's bodies may overlap, nothing more. */
const WORKER_CONNECTIONS = 2;

/** One server and the store's parts over its pool. */
interface PgServer {
  url: string;
  name: string;
  pool: pg.Pool;
  items: PgItems;
  children: PgChildren;
  providers: PgProviders;
  persons: PgPersons;
  sitemap: PgSitemap;
  keys: PgKeys;
  status: PgStatus;
  search: PgSearchChanges;
  oai: PgOaiReads;
}

/** Decoded bodies are the same whichever server they come from: one cache for all (items.ts). */
let sharedDecoded: DecodedBodies | undefined;

function server(url: string, options: PostgresOptions, standby: boolean): PgServer {
  const kept = options.searchChangesKept ?? SEARCH_CHANGES_KEPT;
  if (!(kept >= 1)) throw new RangeError('searchChangesKept must be at least 1: the newest change keeps the numbering going');
  // A replica that hangs fails its reads after a while, and they are tried on the next server.
  const pool = createPool({ url, max: options.maxConnections, ...(standby ? { queryTimeoutMs: REPLICA_QUERY_TIMEOUT_MS } : {}) });
  sharedDecoded ??= new DecodedBodies(DECODED_BODIES_BYTES);
  return {
    url,
    name: serverName(url),
    pool,
    items: new PgItems(pool, kept, sharedDecoded),
    children: new PgChildren(pool),
    providers: new PgProviders(),
    persons: new PgPersons(pool, kept),
    sitemap: new PgSitemap(pool),
    keys: new PgKeys(pool),
    status: new PgStatus(pool),
    search: new PgSearchChanges(pool, standby),
    oai: new PgOaiReads(pool),
  };
}

/** How often a read is tried again on the next server when its server went away under it. */
const READ_ATTEMPTS = 3;

/** Longest read on a replica: longer, and it counts as gone (a hung server), and the read moves on. */
const REPLICA_QUERY_TIMEOUT_MS = 30_000;
/** With replicas, longest wait for data_version, and for a key's last use on the primary (inside a request). */
const VERSION_TIMEOUT_MS = 10_000;
const MARK_USED_TIMEOUT_MS = 2_000;

function postgresStore(primary: PgServer, replication: Replication<PgServer> | undefined, options: PostgresOptions): Store {
  // What the operator must fix (the server gone, a full disk, a wrong password) becomes a
  // sentence, not a stack trace (db.ts operatorError).
  //
  // Whether a read that failed on `s` is worth another try on reader(). When `s` is gone and
  // no other server is in use (the reads were on the primary, which is stopping, and the
  // replica that came back has not been checked since), the servers are checked first: the
  // retry then finds the replica instead of failing the request on the same dead server.
  const readAgain = async (s: PgServer, e: unknown, attempt: number): Promise<boolean> => {
    if (attempt >= READ_ATTEMPTS || replication === undefined) return false;
    if (isRecoveryConflict(e, s, primary)) return true;
    if (!replication.unreachable(s, e)) return false;
    if (replication.reader() === s) await replication.recheck();
    return true;
  };
  // Reads go to the server replication.ts chose (the primary when there are no replicas). A
  // read whose server went away under it is tried again on the next one: reads are safe to repeat.
  const r =
    <A extends unknown[], R>(run: (s: PgServer, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      for (let attempt = 1; ; attempt++) {
        const s = replication?.reader() ?? primary;
        try {
          return await run(s, ...args);
        } catch (e) {
          if (!(await readAgain(s, e, attempt))) throw operatorError(e, s.url);
        }
      }
    };
  // Reads whose answer must include this process's (or the operator's) latest writes: keys
  // (a revoked key is refused on every node at once, docs/deployment.md), harvest state,
  // the cycle check after a load. They go to the primary while it answers.
  const p = <A extends unknown[], R>(run: (s: PgServer, ...args: A) => Promise<R>) => {
    const fallback = r(run);
    return async (...args: A): Promise<R> => {
      if (replication === undefined) return fallback(...args);
      if (replication.primaryUp()) {
        try {
          return await run(primary, ...args);
        } catch (e) {
          if (!replication.unreachable(primary, e)) throw operatorError(e, primary.url);
        }
      }
      return fallback(...args);
    };
  };
  // This process's own writes, counted once committed, so that dataVersion() moves at once
  // for them even when it answers from a reading of data_version begun before (below).
  let ownWrites = 0;
  // Writes go to the primary. With replicas, one that cannot reach it fails with the
  // catalog's 503, whose message says that reads go on and writes resume when the primary is
  // back; without, the store as a whole is unreachable, and db.ts says so.
  const w = <A extends unknown[], R>(run: (s: PgServer, ...args: A) => Promise<R>) => {
    return async (...args: A): Promise<R> => {
      try {
        return await run(primary, ...args);
      } catch (e) {
        if (replication !== undefined && isUnreachable(e)) {
          replication.unreachable(primary, e);
          throw ApiError.of('primaryUnreachable');
        }
        throw operatorError(e, primary.url);
      } finally {
        ownWrites++;
      }
    };
  };
  // Callers compare dataVersion() on every request: concurrent calls share one reading of
  // data_version, so that a busy server asks PostgreSQL once per round trip, not once per
  // request. Another connection's commit is thus seen one round trip late at most (SQLite's
  // COMMIT_CHECK_MS is the same trade).
  //
  // With replicas, the version is read from the server the reads go to, and says which
  // (its epoch moves whenever reads move): a cache filled from a replica is keyed on that
  // replica's version, and a switch to a server further behind can not leave older data
  // under a version that is still current (docs/deployment.md "Replicas"). It also carries
  // the primary's data_version as polled in the background (no round trip per request), so
  // that caches of key lookups, which go to the primary, follow a revoke within a poll.
  let reading: Promise<number> | undefined;
  let readingEpoch = -1;
  const readVersion = (s: PgServer, epoch: number): Promise<number> => {
    if (reading !== undefined && readingEpoch === epoch) return reading;
    readingEpoch = epoch;
    const text = 'SELECT version FROM data_version';
    const shared = s.pool
      .query<{ version: number }>({ text, ...(replication === undefined ? {} : { query_timeout: VERSION_TIMEOUT_MS }) })
      .then(
        (res) => {
          if (reading === shared) reading = undefined;
          return res.rows[0]!.version;
        },
        (e: unknown) => {
          if (reading === shared) reading = undefined;
          throw e;
        },
      );
    reading = shared;
    return shared;
  };
  const dataVersion = async (): Promise<string> => {
    const own = ownWrites;
    if (replication === undefined) {
      try {
        return `${await readVersion(primary, 0)}.${own}`;
      } catch (e) {
        throw operatorError(e, primary.url);
      }
    }
    const primaryTag = replication.primaryTag();
    for (let attempt = 1; ; attempt++) {
      const s = replication.reader();
      const epoch = replication.readerEpoch();
      try {
        return `r${epoch}:${await readVersion(s, epoch)}.${own}/${primaryTag}`;
      } catch (e) {
        if (!(await readAgain(s, e, attempt))) throw operatorError(e, s.url);
      }
    }
  };
  let closed = false;
  // Explicit delegation keeps the Store surface visible in one place.
  return {
    upsertItems: w((s, x) => s.items.upsertItems(x)),
    applyItemChanges: w((s, changes, harvest) => s.items.applyItemChanges(changes, harvest)),
    getHarvestState: p((s, source) => s.items.getHarvestState(source)),
    getItemDocument: r((s, id, f) => s.items.getItemDocument(id, f)),
    getItemHead: r((s, id) => s.items.getItemHead(id)),
    getAncestry: r((s, id) => s.items.getAncestry(id)),
    getChildren: r((s, id, offset, rows) => s.children.getChildren(id, offset, rows)),
    findCycles: p((s, ids) => s.items.findCycles(ids)),
    blockItem: w((s, id, reason) => s.items.blockItem(id, reason)),
    unblockItem: w((s, id) => s.items.unblockItem(id)),
    countItems: r((s) => s.items.countItems()),
    listItemIds: r((s, o) => s.items.listItemIds(o)),
    listProviders: r((s) => s.providers.list(s.pool)),
    upsertPersons: w((s, x) => s.persons.upsertPersons(x)),
    countPersons: r((s) => s.persons.countPersons()),
    sitemapPages: r((s, kind, pageSize) => s.sitemap.sitemapPages(kind, pageSize)),
    listSitemapEntries: r((s, kind, range) => s.sitemap.listSitemapEntries(kind, range)),
    createKey: w((s, name, hash) => s.keys.createKey(name, hash)),
    listKeys: p((s) => s.keys.listKeys()),
    revokeKey: w((s, name) => s.keys.revokeKey(name)),
    findActiveKey: p((s, hash) => s.keys.findActiveKey(hash)),
    activeKeyHashes: p((s) => s.keys.activeKeyHashes()),
    // Best effort, inside a request: skipped while the primary is known to be down, and a
    // primary that went away meanwhile does not fail the request (keys.ts markKeyUsed).
    markKeyUsed: async (name, at) => {
      if (replication !== undefined && !replication.primaryUp()) return;
      try {
        await primary.keys.markKeyUsed(name, at, replication === undefined ? undefined : MARK_USED_TIMEOUT_MS);
      } catch (e) {
        if (!isUnreachable(e)) throw operatorError(e, primary.url);
        replication?.unreachable(primary, e);
      }
    },
    recordLoad: w((s, run) => s.status.recordLoad(run)),
    listLoads: r((s) => s.status.listLoads()),
    listHarvests: r((s) => s.status.listHarvests()),
    // From the primary while it answers: a replica behind it could hide a change stamped before a
    // harvest's responseDate, which the next incremental harvest would then miss (docs/oai-pmh.md).
    listOaiRecords: p((s, q) => s.oai.listOaiRecords(q)),
    getOaiRecord: p((s, id, body) => s.oai.getOaiRecord(id, body)),
    listOaiSets: r((s, after, limit) => s.oai.listOaiSets(after, limit)),
    oaiSetExists: r((s, spec) => s.oai.oaiSetExists(spec)),
    oaiEarliestDatestamp: r((s) => s.oai.oaiEarliestDatestamp()),
    oaiTokenSecret: r((s) => s.oai.oaiTokenSecret()),
    // From the primary, as the OAI-PMH lists: a page counts positions in the primary's order.
    countOaiRecords: p((s) => s.oai.countOaiRecords()),
    listOaiActivity: p((s, offset, limit) => s.oai.listOaiActivity(offset, limit)),
    listNewestOaiRecords: p((s, limit) => s.oai.listNewestOaiRecords(limit)),
    readSearchChanges: r((s, kind, after, limit) => s.search.readSearchChanges(kind, after, limit)),
    readSearchBodies: r((s, kind, ids) => s.search.readSearchBodies(kind, ids)),
    searchIdentity: r((s) => s.search.identity()),
    // Moved by triggers in the transaction of every write that changes what is served (schema.ts).
    dataVersion,
    replication: (): ReplicationState | undefined => replication?.state(),
    reopenSpec: (): StoreSpec => {
      const settings: PostgresSpec = {
        url: options.url,
        replicaUrls: [...(options.replicaUrls ?? [])],
        maxReplicaLagSeconds: options.maxReplicaLagSeconds ?? DEFAULT_MAX_REPLICA_LAG_SECONDS,
      };
      return { backend: 'postgres', opener: import.meta.url, settings };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await replication?.close();
      await Promise.all([primary, ...(replication?.replicas ?? [])].map((s) => s.pool.end()));
    },
  };
}
