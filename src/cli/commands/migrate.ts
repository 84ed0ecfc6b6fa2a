/**
 * `heritage-api migrate --store <store>`: brings a store's schema to this version's
 * (docs/deployment.md "heritage-api migrate"). PostgreSQL stores are migrated only by this command, and refused
 * by the others until they are; SQLite files are migrated when opened, so this only says
 * where one stands.
 */
import { UsageError } from '../../errors.js';
import { createPool, isPostgresUrl, operatorError, redactUrl } from '../../store/postgres/db.js';
import { migratePostgres } from '../../store/postgres/schema.js';
import { MIGRATIONS } from '../../store/sqlite/schema.js';
import { openSqliteStore } from '../../store/sqlite/SqliteStore.js';
import { EXIT, type CliIo } from '../io.js';

export async function migrateCommand(location: string, io: CliIo): Promise<number> {
  if (!isPostgresUrl(location)) {
    if (location.trim() === '')
      throw new UsageError('Give the store to migrate: --store postgres://user:password@host:port/database, or --store <SQLite file>.');
    await openSqliteStore({ path: location, create: false, notice: (line) => io.err(line) }).close();
    io.out(`The SQLite store ${location} is at schema ${MIGRATIONS.length} (SQLite stores are migrated whenever they are opened).`);
    return EXIT.ok;
  }
  const pool = createPool({ url: location, max: 1 });
  try {
    const { from, to } = await migratePostgres(pool, location);
    io.out(
      from === to
        ? `The PostgreSQL store ${redactUrl(location)} is at schema ${to} already.`
        : `Migrated the PostgreSQL store ${redactUrl(location)} from schema ${from} to ${to}.`,
    );
    return EXIT.ok;
  } catch (e) {
    throw operatorError(e, location);
  } finally {
    await pool.end();
  }
}
