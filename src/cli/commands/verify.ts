/**
 * `heritage-api verify`: checks the configured store and prints what it found, section by
 * section (docs/cli.md "verify"). Exit 0: no problem; 2: problems, listed; 1: the store
 * could not be checked (missing, unreachable, another schema version).
 */
import type { Config } from '../../config.js';
import { terminalProgress } from '../../ingest/progress.js';
import { postgresVerifySource } from '../../store/postgres/verify.js';
import { sqliteVerifySource } from '../../store/sqlite/verify.js';
import { MAX_LISTED, verifyStore, type VerifySource } from '../../store/verify/verifyStore.js';
import { EXIT, type CliIo } from '../io.js';

async function sourceOf(config: Config): Promise<VerifySource> {
  return config.store.backend === 'postgres' ? postgresVerifySource(config.store.url) : sqliteVerifySource(config.store.path);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export async function verifyCommand(config: Config, io: CliIo): Promise<number> {
  const source = await sourceOf(config);
  try {
    io.out(`Verifying the ${source.backend} store ${source.location}`);
    const progress = io.progressStream ? terminalProgress('verify', io.progressStream) : { update() {}, stop() {} };
    let report;
    try {
      report = await verifyStore(source, ({ done, total }) => progress.update({ records: done, errors: 0, done, total, unit: 'rows' }));
    } finally {
      progress.stop();
    }
    for (const s of report.sections) {
      io.out(`${s.name}: ${s.checked}: ${s.problemCount === 0 ? 'no problem' : plural(s.problemCount, 'problem')}`);
      for (const p of s.problems) io.out(`  ${p}`);
      if (s.problemCount > s.problems.length) io.out(`  ... and ${s.problemCount - MAX_LISTED} more`);
      for (const n of s.notes) io.out(`  note: ${n}`);
    }
    if (report.problems === 0) {
      io.out('No problem found.');
      return EXIT.ok;
    }
    io.out(
      `${plural(report.problems, 'problem')} found: the store is damaged. A package or person named above is repaired by loading it again ` +
        '(heritage-api ingest items|entities PATH: its rows are rewritten), a cycle by correcting dcterms:isPartOf in the records and loading them again; ' +
        'problems of the database itself (the database section) need a backup restored.',
    );
    return EXIT.partial;
  } finally {
    await source.close();
  }
}
