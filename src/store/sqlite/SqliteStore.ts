/**
 * The embedded SQLite store (better-sqlite3), the default backend.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../Store.js';
import type { StoreSpec } from '../../domain/searchFeed.js';
import { UsageError } from '../../errors.js';
import { StoreNotFoundError } from '../storeErrors.js';
import { operatorError } from './operatorError.js';
import { migrate } from './schema.js';
import { SqliteChildren } from './children.js';
import { SqliteItems } from './items.js';
import { SqliteKeys } from './keys.js';
import { SqliteItemRefs, SqlitePersonWriter } from './persons.js';
import { SqliteSitemap } from './sitemap.js';
import { SqliteProviders } from './providers.js';
import { SqliteOai } from './oaiRecords.js';
import { SqliteSearchChanges } from './searchChanges.js';
import { SqliteStatus } from './status.js';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  readonly?: boolean;
  /** SQLite page cache of this connection (PRAGMA cache_size); SQLite's own default is 2 MB. */
  cacheMegabytes?: number;
  /**
   * How long one reading of PRAGMA data_version is reused (COMMIT_CHECK_MS by
   * default). A search worker's connection reads it every time (0): the
   * server's own writes are another connection's commits to it, and must be
   * seen by the next search.
   */
  commitCheckMs?: number;
  /** Create the file when it is not there (default); otherwise a missing file is a StoreNotFoundError. */
  create?: boolean;
  /** How long a write waits for another process's write lock before it fails (PRAGMA busy_timeout). */
  busyTimeoutSeconds?: number;
  /** The smallest search change log kept per kind (searchChanges.ts; SEARCH_CHANGES_KEPT by default). */
  searchChangesKept?: number;
  /** Told, as a sentence for the operator, when an older store is about to be brought up to date. */
  notice?: (line: string) => void;
}

/** The settings of a StoreSpec of this backend. */
interface SqliteSpec {
  path: string;
  cacheMegabytes: number;
}

/** Another connection to the store of `spec` (from openStore.ts), for a search worker. */
export function reopenSqliteStore(spec: StoreSpec): Store {
  const { path, cacheMegabytes } = spec.settings as SqliteSpec;
  return openSqliteStore({ path, cacheMegabytes, commitCheckMs: 0, create: false });
}

/** This module as a StoreSpec's opener (src/domain/searchFeed.ts StoreOpener). */
export { reopenSqliteStore as reopenStore };

/** A writer waits this long for another one by default: a batch of 100,000 persons holds the lock ~5 s. */
const BUSY_TIMEOUT_SECONDS = 30;

export function openSqliteStore(options: SqliteOptions): Store {
  const create = options.create ?? true;
  const busySeconds = options.busyTimeoutSeconds ?? BUSY_TIMEOUT_SECONDS;
  const inFile = options.path !== ':memory:';
  if (inFile && !create && !existsSync(options.path)) throw new StoreNotFoundError(options.path);
  // What the operator must fix (a lock held too long, a full disk, a file that is no store) becomes a sentence, not a stack trace.
  const translated =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return run(...args);
      } catch (e) {
        throw operatorError(e, options.path, busySeconds);
      }
    };
  if (inFile && create) {
    try {
      mkdirSync(dirname(options.path), { recursive: true });
    } catch (e) {
      throw new UsageError(`Cannot create the directory of the store ${options.path}: ${(e as Error).message}.`);
    }
  }
  const db = translated(() => new Database(options.path, { readonly: options.readonly ?? false, fileMustExist: !create }))();
  try {
    translated(() => {
      // WAL lets the server keep reading while `heritage-api ingest` writes from another process.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma(`busy_timeout = ${Math.round(busySeconds * 1000)}`);
      // The default 2 MB cache is far smaller than the indexes of a million persons: loads then
      // re-read the same B-tree pages over and over (measured: 4,300 persons/s at 1 M with it).
      db.pragma(`cache_size = ${-Math.round((options.cacheMegabytes ?? 64) * 1024)}`);
      migrate(db, undefined, (from, to) =>
        options.notice?.(
          `Bringing the store ${options.path} from schema ${from} to ${to}, once after an upgrade (docs/deployment.md): on a store of a million items this takes minutes.`,
        ),
      );
    })();
  } catch (e) {
    db.close();
    throw e;
  }
  const otherCommits = commitCounter(db, options.commitCheckMs ?? COMMIT_CHECK_MS);
  // data_version counts other connections' commits; our own writes are counted here.
  let ownWrites = 0;
  let version = '';
  let versionCommits = -1;
  let versionWrites = -1;
  const searchChanges = new SqliteSearchChanges(db, options.searchChangesKept);
  const oai = new SqliteOai(db);
  // Called inside each write transaction, so pruning and the OAI-PMH records commit with it;
  // the records last, so that their datestamps are taken as near the commit as can be (docs/oai-pmh.md).
  const invalidate = () => {
    ownWrites++;
    if (!options.readonly) {
      searchChanges.prune();
      oai.refresh();
    }
  };
  const providers = new SqliteProviders(db);
  const items = new SqliteItems(db, new SqliteItemRefs(db), providers, invalidate);
  const children = new SqliteChildren(db);
  const status = new SqliteStatus(db);
  const persons = new SqlitePersonWriter(db, invalidate);
  const keys = new SqliteKeys(db, invalidate);
  const sitemap = new SqliteSitemap(db);
  // Writes may meet another process's lock or a full disk; reads on WAL do not wait for writers.
  // A failure is a rejected promise, as a networked backend's is (Store.ts).
  const write =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    async (...args: A): Promise<R> => {
      try {
        return run(...args);
      } catch (e) {
        throw operatorError(e, options.path, busySeconds);
      }
    };
  // One resolved promise per version: callers compare it on every request, and
  // while nothing changes they get the same one, with nothing allocated.
  let versionPromise = Promise.resolve(version);
  // Explicit delegation keeps the Store surface visible in one place.
  return {
    upsertItems: write((x) => items.upsertItems(x)),
    applyItemChanges: write((changes, harvest) => items.applyItemChanges(changes, harvest)),
    getHarvestState: async (source) => items.getHarvestState(source),
    getItemDocument: async (id, f) => items.getItemDocument(id, f),
    getItemHead: async (id) => items.getItemHead(id),
    getAncestry: async (id) => items.getAncestry(id),
    getChildren: async (id, offset, rows) => children.getChildren(id, offset, rows),
    findCycles: async (ids) => items.findCycles(ids),
    // One transaction each: the block and the OAI-PMH record it makes deleted commit together.
    blockItem: write(db.transaction((id: string, reason: string) => items.blockItem(id, reason))),
    unblockItem: write(db.transaction((id: string) => items.unblockItem(id))),
    countItems: async () => items.countItems(),
    listItemIds: async (options) => items.listItemIds(options),
    listProviders: async () => providers.list(),
    upsertPersons: write((x) => persons.upsertPersons(x)),
    countPersons: async () => persons.countPersons(),
    sitemapPages: async (kind, pageSize) => sitemap.sitemapPages(kind, pageSize),
    listSitemapEntries: async (kind, range) => sitemap.listSitemapEntries(kind, range),
    createKey: write((name, hash) => keys.createKey(name, hash)),
    listKeys: async () => keys.listKeys(),
    revokeKey: write((name) => keys.revokeKey(name)),
    findActiveKey: async (hash) => keys.findActiveKey(hash),
    activeKeyHashes: async () => keys.activeKeyHashes(),
    markKeyUsed: write((name, at) => keys.markKeyUsed(name, at)),
    recordLoad: write((run) => status.recordLoad(run)),
    listLoads: async () => status.listLoads(),
    listHarvests: async () => status.listHarvests(),
    listOaiRecords: async (query) => oai.listOaiRecords(query),
    getOaiRecord: async (id, body) => oai.getOaiRecord(id, body),
    listOaiSets: async (after, limit) => oai.listOaiSets(after, limit),
    oaiSetExists: async (spec) => oai.oaiSetExists(spec),
    oaiEarliestDatestamp: async () => oai.oaiEarliestDatestamp(),
    oaiTokenSecret: async () => oai.oaiTokenSecret(),
    countOaiRecords: async () => oai.countOaiRecords(),
    listOaiActivity: async (offset, limit) => oai.listOaiActivity(offset, limit),
    listNewestOaiRecords: async (limit) => oai.listNewestOaiRecords(limit),
    readSearchChanges: async (kind, after, limit) => searchChanges.readSearchChanges(kind, after, limit),
    readSearchBodies: async (kind, ids) => searchChanges.readSearchBodies(kind, ids),
    searchIdentity: async () => searchChanges.identity(),
    dataVersion: () => {
      let commits: number;
      try {
        commits = otherCommits();
      } catch (e) {
        return Promise.reject(operatorError(e, options.path, busySeconds));
      }
      if (commits !== versionCommits || ownWrites !== versionWrites) {
        versionCommits = commits;
        versionWrites = ownWrites;
        version = `${commits}.${ownWrites}`;
        versionPromise = Promise.resolve(version);
      }
      return versionPromise;
    },
    reopenSpec: () => {
      if (options.path === ':memory:' || options.path === '') return undefined;
      const settings: SqliteSpec = { path: options.path, cacheMegabytes: options.cacheMegabytes ?? 64 };
      return { backend: 'sqlite', opener: import.meta.url, settings };
    },
    close: async () => {
      db.close();
    },
  };
}

/**
 * How long one reading of PRAGMA data_version is reused. Each reading opens a
 * read transaction on the WAL; per request that was 15–20 % of a cached
 * `parents` answer under load, in the bench. Another process's commit (a running
 * `ingest`) is therefore seen at most this long after it; this process's own
 * writes are counted apart and seen at once.
 */
export const COMMIT_CHECK_MS = 1;

function commitCounter(db: Database.Database, reuseMs: number): () => number {
  const read = db.prepare<[], number>('PRAGMA data_version').pluck();
  let value = 0;
  let readAt = -Infinity;
  return () => {
    const now = performance.now();
    if (now - readAt >= reuseMs) {
      value = read.get()!;
      readAt = now;
    }
    return value;
  };
}
