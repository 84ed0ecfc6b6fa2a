/**
 * `heritage-api copy --from <store> --to <store>`: moves a store to another backend
 * (docs/deployment.md "heritage-api copy"), SQLite file to PostgreSQL and back, with progress, and checks
 * the result by counts and digests per table, which it prints. A store is a file path
 * (SQLite) or a postgres:// URL; the target must be empty, and a PostgreSQL one migrated.
 */
import { terminalProgress } from '../../ingest/progress.js';
import { copyStore } from '../../store/copy/copyStore.js';
import type { CopyEndpoint } from '../../store/copy/copyTables.js';
import { isPostgresUrl } from '../../store/postgres/db.js';
import { postgresCopyEndpoint } from '../../store/postgres/copyRows.js';
import { sqliteCopyEndpoint } from '../../store/sqlite/copyRows.js';
import { EXIT, type CliIo } from '../io.js';

async function endpoint(location: string, create: boolean): Promise<CopyEndpoint> {
  return isPostgresUrl(location) ? postgresCopyEndpoint(location) : sqliteCopyEndpoint(location, { create });
}

export async function copyCommand(from: string, to: string, io: CliIo): Promise<number> {
  const source = await endpoint(from, false);
  try {
    const target = await endpoint(to, true);
    try {
      const progress = io.progressStream ? terminalProgress('copy', io.progressStream) : { update() {}, stop() {} };
      let checks;
      try {
        checks = await copyStore(source, target, ({ done, total }) =>
          progress.update({ records: done, errors: 0, done, total, unit: 'rows' }),
        );
      } finally {
        progress.stop();
      }
      io.out(`Copied ${source.location} to ${target.location}:`);
      io.out('table           rows (source)  rows (target)  sha-256 of the rows (source = target)');
      let ok = true;
      for (const c of checks) {
        const same = c.sourceRows === c.targetRows && c.sourceDigest === c.targetDigest;
        ok &&= same;
        const digest = same ? c.sourceDigest : `${c.sourceDigest} ≠ ${c.targetDigest}`;
        io.out(`${c.table.padEnd(15)} ${String(c.sourceRows).padStart(13)}  ${String(c.targetRows).padStart(13)}  ${digest}`);
      }
      if (!ok) {
        io.err('The target differs from the source in the tables marked ≠: do not use it; copy again into a new store.');
        return EXIT.failed;
      }
      io.out('Every table has the same rows and the same digest in both stores.');
      return EXIT.ok;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
