/**
 * The embedded SQLite store (better-sqlite3), the default backend.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../Store.js';
import { migrate } from './schema.js';
import { SqliteChildren } from './children.js';
import { SqliteItems } from './items.js';
import { SqliteKeys } from './keys.js';
import { SqliteItemRefs, SqlitePersonWriter } from './persons.js';
import { SqlitePersonSearch } from './personSearch.js';
import { SqliteProviders } from './providers.js';
import { SqliteStatus } from './status.js';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  readonly?: boolean;
  /** SQLite page cache of this connection (PRAGMA cache_size); SQLite's own default is 2 MB. */
  cacheMegabytes?: number;
}

export function openSqliteStore(options: SqliteOptions): Store {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path, { readonly: options.readonly ?? false });
  // WAL lets the server keep reading while `heritage-api ingest` writes from another process.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A writer waits this long for another one: a batch of 100,000 persons holds the lock ~5 s.
  db.pragma('busy_timeout = 30000');
  // The default 2 MB cache is far smaller than the indexes of a million persons: loads then
  // re-read the same B-tree pages over and over (measured: 4,300 persons/s at 1 M with it).
  db.pragma(`cache_size = ${-Math.round((options.cacheMegabytes ?? 64) * 1024)}`);
  migrate(db);
  const otherCommits = commitCounter(db);
  const search = new SqlitePersonSearch(db, otherCommits);
  // data_version counts other connections' commits; our own writes are counted here.
  let ownWrites = 0;
  let version = '';
  let versionCommits = -1;
  let versionWrites = -1;
  const invalidate = (personsChanged = true) => {
    ownWrites++;
    if (personsChanged) search.invalidate();
  };
  const providers = new SqliteProviders(db);
  const items = new SqliteItems(db, new SqliteItemRefs(db), providers, invalidate);
  const children = new SqliteChildren(db);
  const status = new SqliteStatus(db);
  const persons = new SqlitePersonWriter(db, () => invalidate(true));
  const keys = new SqliteKeys(db, () => invalidate(false));
  // Explicit delegation keeps the Store surface visible in one place.
  return {
    upsertItems: (x) => items.upsertItems(x),
    applyItemChanges: (changes, harvest) => items.applyItemChanges(changes, harvest),
    getHarvestState: (source) => items.getHarvestState(source),
    getItemDocument: (id, f) => items.getItemDocument(id, f),
    getItemHead: (id) => items.getItemHead(id),
    getAncestry: (id) => items.getAncestry(id),
    getChildren: (id, offset, rows) => children.getChildren(id, offset, rows),
    findCycles: (ids) => items.findCycles(ids),
    blockItem: (id, reason) => items.blockItem(id, reason),
    unblockItem: (id) => items.unblockItem(id),
    countItems: () => items.countItems(),
    listProviders: () => providers.list(),
    upsertPersons: (x) => persons.upsertPersons(x),
    countPersons: () => persons.countPersons(),
    searchPersons: (req) => search.search(req),
    createKey: (name, hash) => keys.createKey(name, hash),
    listKeys: () => keys.listKeys(),
    revokeKey: (name) => keys.revokeKey(name),
    findActiveKey: (hash) => keys.findActiveKey(hash),
    markKeyUsed: (name, at) => keys.markKeyUsed(name, at),
    recordLoad: (run) => status.recordLoad(run),
    listLoads: () => status.listLoads(),
    listHarvests: () => status.listHarvests(),
    dataVersion: () => {
      // One string while nothing changes: callers compare it on every request (issue #5).
      const commits = otherCommits();
      if (commits !== versionCommits || ownWrites !== versionWrites) {
        versionCommits = commits;
        versionWrites = ownWrites;
        version = `${commits}.${ownWrites}`;
      }
      return version;
    },
    close: () => db.close(),
  };
}

/**
 * How long one reading of PRAGMA data_version is reused. Each reading opens a
 * read transaction on the WAL; per request that was 15–20 % of a cached
 * `parents` answer under load (issue #5). Another process's commit (a running
 * `ingest`) is therefore seen at most this long after it; this process's own
 * writes are counted apart and seen at once.
 */
export const COMMIT_CHECK_MS = 1;

function commitCounter(db: Database.Database): () => number {
  const read = db.prepare<[], number>('PRAGMA data_version').pluck();
  let value = 0;
  let readAt = -Infinity;
  return () => {
    const now = performance.now();
    if (now - readAt >= COMMIT_CHECK_MS) {
      value = read.get()!;
      readAt = now;
    }
    return value;
  };
}
