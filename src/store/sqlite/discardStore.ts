/**
 * Removing a SQLite store that a failed command created and left empty (docs/cli.md
 * "The store is created by loads only"): an `ingest` of a file that is not there must not
 * leave behind an empty store that `serve` would then open as if it were the real one.
 */
import { existsSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../Store.js';

/** What to call after a command ends, given whether the store was there before it. */
export interface CreatedStore {
  path: string;
  /** Whether the directory of the store was there before (else it is removed too, when empty). */
  dirExisted: boolean;
}

/** The store file (and its directory) this command would create, or null when they are there already. */
export function storeToBeCreated(path: string): CreatedStore | null {
  if (path === '' || path === ':memory:' || existsSync(path)) return null;
  return { path, dirExisted: existsSync(dirname(path)) };
}

/** Whether nothing was written to the store: no item, no person, no key. */
export async function isEmptyStore(store: Store): Promise<boolean> {
  try {
    return (await store.countItems()) === 0 && (await store.countPersons()) === 0 && (await store.listKeys()).length === 0;
  } catch {
    return false; // a store that cannot say is kept
  }
}

/** Removes the store's files (the database, its WAL and shared memory), after the store is closed. */
export function discardStore(created: CreatedStore): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${created.path}${suffix}`, { force: true });
  if (!created.dirExisted) {
    try {
      rmdirSync(dirname(created.path));
    } catch {
      // not empty: something else is in it, so it stays
    }
  }
}
