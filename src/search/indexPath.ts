/**
 * Where the search indexes are kept on disk (config `search.path`, docs/configuration.md):
 * beside the store unless the operator says otherwise.
 */
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import type { IndexFileSettings } from './hostedIndexes.js';

/**
 * The directory of the indexes: `search.path`, else `<store.path>.search` beside an SQLite
 * file, else `<database>.search` in the directory of `store.path` (the data directory) for
 * PostgreSQL. Undefined when `search.persist` is off or the store is in memory.
 */
export function searchIndexPath(config: Config): string | undefined {
  if (!config.search.persist) return undefined;
  if (config.search.path !== '') return resolve(config.search.path);
  if (config.store.backend === 'postgres') {
    let database = 'postgres';
    try {
      database = decodeURIComponent(new URL(config.store.url).pathname.slice(1)) || database;
    } catch {
      // validated by config.ts: a URL
    }
    return join(dirname(resolve(config.store.path)), `${database.replace(/[^A-Za-z0-9._-]/g, '_')}.search`);
  }
  if (config.store.path === ':memory:' || config.store.path.startsWith('file::memory:')) return undefined;
  return `${resolve(config.store.path)}.search`;
}

/** The runner's settings for the indexes on disk (src/search/searchPool.ts PoolOptions.indexFiles). */
export function searchIndexFiles(config: Config): Omit<IndexFileSettings, 'write'> | undefined {
  const dir = searchIndexPath(config);
  return dir === undefined ? undefined : { dir, intervalMs: config.search.indexWriteSeconds * 1000 };
}
