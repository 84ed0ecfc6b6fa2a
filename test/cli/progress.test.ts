/**
 * Progress of a load on a terminal: records, rate and
 * errors always; a bar, the percentage of the whole and the time left where
 * the whole is known.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { harvest } from '../../src/ingest/harvest.js';
import { duration, progressLine, type ProgressCounts } from '../../src/ingest/progress.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { collect, MAIN } from '../helpers/cli.js';
import { loadEdmRecords, startOaiServer } from '../helpers/oaiServer.js';
import { CORTEX_DIR, HOPE_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

test('the progress line: with a total, bar, percentage of it and the time left; without, the time so far', () => {
  assert.equal(
    progressLine('items', { records: 61_700, errors: 2, done: 1_218, total: 2_900, unit: 'files' }, 20),
    'items ████████░░░░░░░░░░░░ 42% of 2,900 files | 61,700 records | 3,085 records/s | 2 errors | ETA 28s',
  );
  assert.equal(
    progressLine('harvest', { records: 0, errors: 0, done: 0, total: 786, unit: 'records' }, 1.5),
    'harvest ░░░░░░░░░░░░░░░░░░░░ 0% of 786 records | 0 records | 0 records/s | 0 errors | ETA ?',
  );
  assert.equal(
    progressLine('entities', { records: 1_200_000, errors: 0 }, 3725),
    'entities 1,200,000 records | 322 records/s | 0 errors | 1h02m',
  );
  assert.deepEqual([duration(0), duration(59.4), duration(61), duration(3600), duration(7260)], ['0s', '59s', '1m01s', '1h00m', '2h01m']);
});

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test(
  'ingest items on a terminal ends with the whole: 100 % of the files',
  { skip: !hasScript && 'needs script(1) from util-linux for a terminal' },
  async () => {
    const db = join(tempDir('tty'), 'h.db');
    // script(1) gives the CLI a terminal, as an operator's shell does.
    const command = `'${process.execPath}' --import tsx '${MAIN}' --db '${db}' ingest items '${CORTEX_DIR}'`;
    const run = await collect(
      spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, TERM: 'xterm' } }),
    );
    assert.equal(run.code, 0, run.stdout);
    // cli-progress redraws the line in place: the last drawing is what the operator sees at the end.
    const drawings = [...run.stdout.matchAll(/\x1b\[1G(.*?)\x1b\[0K/g)].map((m) => m[1]);
    assert.ok(drawings.length > 0, run.stdout);
    assert.match(drawings.at(-1)!, /^items █{20} 100% of 5 files \| 5 records \| \d+ records\/s \| 0 errors \| ETA 0s$/);
    assert.match(run.stdout, /\r\nitems: 5 records from 5 files in \d+\.\d s \(\d+\/s\): 5 new, 0 updated, 0 unchanged, 0 skipped\.\r\n/);
  },
);

test('a harvest reports its progress against the complete list size the repository announces', async () => {
  const server = await startOaiServer({ records: loadEdmRecords(HOPE_DIR, { limit: 25 }), pageSize: 10 });
  const store = openSqliteStore({ path: join(tempDir('progress'), 'h.db') });
  const seen: ProgressCounts[] = [];
  try {
    const summary = await harvest(store, {
      baseUrl: server.url,
      metadataPrefix: 'edm',
      edm: { ingestDate: new Date(), providersFingerprint: '' },
      client: { retries: 0 },
      progress: { update: (counts) => seen.push(counts), stop() {} },
    });
    assert.equal(summary.complete, true);
    assert.deepEqual(seen, [
      { records: 10, errors: 0, done: 10, total: 25, unit: 'records' },
      { records: 20, errors: 0, done: 20, total: 25, unit: 'records' },
      { records: 25, errors: 0, done: 25, total: 25, unit: 'records' },
    ]);
  } finally {
    await store.close();
    await server.close();
  }
});
