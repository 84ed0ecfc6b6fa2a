/**
 * SQLite's errors that the operator, not the code, must fix, as sentences
 * that say what to do (docs/cli.md "Mistakes and problems"). Anything else is returned as it
 * is: a bug keeps its stack trace.
 */
import { UsageError } from '../../errors.js';
import { StoreBusyError } from '../storeErrors.js';

export function operatorError(e: unknown, path: string, busySeconds: number): unknown {
  if (e instanceof UsageError) return e;
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string') return e;
  const reason = (e as Error).message;
  // better-sqlite3 gives the extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_READONLY_DIRECTORY, ...).
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return new StoreBusyError(path, busySeconds);
  if (code === 'SQLITE_FULL')
    return new UsageError(
      `The disk of the store ${path} is full (${reason}): free space, then run this again; what was written before stays.`,
    );
  if (code === 'SQLITE_NOTADB')
    return new UsageError(`${path} is not a heritage-api store (not an SQLite database): check --db or store.path.`);
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new UsageError(`The store ${path} is damaged (${reason}): restore it from a backup, or load the data again into a new store.`);
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new UsageError(
      `The store ${path} cannot be written (${reason}): check the permissions of the file, of its directory and of its -wal and -shm files.`,
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new UsageError(
      `Cannot open the store ${path} (${reason}): check that it names a file, not a directory, in a directory you may read and write.`,
    );
  }
  return e;
}
