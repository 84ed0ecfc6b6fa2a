/**
 * Ctrl-C during a load (docs/decisions.md "Bad records"): the load stops at once, even
 * while it waits for input, keeps what it read, says what was kept and that
 * a re-run goes on, and exits with 130 (docs/cli.md). A re-run of the same
 * input then loads only the rest.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { edmChange } from '../../src/ingest/items/edmItems.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { collect, MAIN, spawnCli } from '../helpers/cli.js';
import { loadEdmRecords, startOaiServer } from '../helpers/oaiServer.js';
import { filesIn, HOPE_DIR, rdfText, readAll } from '../ingest-edm/helpers.js';
import { tempDir } from '../helpers/tempDir.js';

const BATCH = 10;
const records = filesIn(HOPE_DIR).slice(0, 40).map(rdfText);
/** Many rdf:RDF under one wrapper, as a stream of EDM records. */
const edmStream = (rdf: string[]) => `<records>\n${rdf.join('\n')}\n`;

/** Item ids of EDM records in load order, through the same reader and package builder as the load. */
async function idsOf(text: string): Promise<string[]> {
  const ids: string[] = [];
  for (const result of await readAll(`${text}</records>`)) {
    const change = edmChange(result, { ingestDate: new Date(), providersFingerprint: '' });
    if (change.kind === 'record' && change.record.kind === 'upsert') ids.push(change.record.item.id);
  }
  return ids;
}

/**
 * Waits until the store at `path` holds `n` items: the condition, checked as
 * the load commits, never a fixed wait. The EDM reader hands on the records
 * of a chunk when the next chunk comes (or the input ends), so a comment is
 * sent along while waiting.
 */
async function untilItems(path: string, n: number, stdin: NodeJS.WritableStream, exited: () => boolean): Promise<void> {
  for (;;) {
    if (exited()) throw new Error('the load ended before it was stopped');
    stdin.write('<!-- more to come -->\n');
    if (existsSync(path)) {
      const store = openSqliteStore({ path, create: false });
      const count = await store.countItems();
      await store.close();
      if (count >= n) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test(
  'Ctrl-C during a load keeps the batches stored, says so, exits 130; the same command again loads the rest',
  { timeout: 120_000 },
  async () => {
    const db = join(tempDir('sigint'), 'h.db');
    const env = { PATH: process.env.PATH, HERITAGE_API_INGEST_ITEM_BATCH_SIZE: String(BATCH) };
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--db', db, 'ingest', 'items', '-'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = collect(child);
    let exited = false;
    void done.then(() => (exited = true));
    // Three batches, and standard input stays open: the load waits for more when the signal comes.
    const firstPart = edmStream(records.slice(0, 3 * BATCH));
    child.stdin.write(firstPart);
    await untilItems(db, 3 * BATCH, child.stdin, () => exited);
    child.kill('SIGINT');
    const run = await done;
    child.stdin.destroy();

    const ids = await idsOf(firstPart);
    assert.equal(ids.length, 3 * BATCH);
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stdout, /^items: 30 records from 1 files in \d+\.\d s \(\d+\/s\): 30 new, 0 updated, 0 unchanged, 0 skipped\.\n/);
    assert.equal(
      run.stdout.replace(/^items: .*\n/, ''),
      [
        'New items (the first 10 of 30; every item: heritage-api --db ' + db + ' items list):',
        ...ids.slice(0, 10).map((id) => `  ${id}`),
        `Show one: heritage-api --db ${db} items show ${ids[0]}`,
        '',
      ].join('\n'),
    );
    assert.equal(
      run.stderr,
      'Stopping after the records read so far (Ctrl-C again stops at once)...\n' +
        'Stopped by Ctrl-C: 30 records stored (30 new, 0 updated, 0 unchanged), nothing after them. ' +
        'Run the same command again to load the rest; what is stored already stays unchanged.\n',
    );

    // The same command with the whole input: what was kept stays as it is, the rest is loaded.
    const whole = edmStream(records);
    const again = await spawnCli(['--db', db, 'ingest', 'items', '-'], { env, stdin: `${whole}</records>\n` });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^items: 40 records from 1 files in \d+\.\d s \(\d+\/s\): 10 new, 0 updated, 30 unchanged, 0 skipped\.\n/);
    const allIds = await idsOf(whole);
    assert.equal(
      again.stdout.replace(/^items: .*\n/, ''),
      ['New items:', ...allIds.slice(30).map((id) => `  ${id}`), `Show one: heritage-api --db ${db} items show ${allIds[30]}`, ''].join(
        '\n',
      ),
    );
    assert.equal(again.stderr, '');
  },
);

test(
  'Ctrl-C during a harvest request keeps the pages stored, says so, exits 130; the same command resumes at the next page',
  { timeout: 120_000 },
  async () => {
    // Requests: 0 page 1, 1 Identify, 2 page 2, never answered: the harvest waits on it when the signal comes.
    const server = await startOaiServer({ records: loadEdmRecords(HOPE_DIR, { limit: 25 }), pageSize: 10, stallAt: 2 });
    const db = join(tempDir('sigint'), 'h.db');
    const env = { PATH: process.env.PATH };
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--db', db, 'harvest', server.url], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const done = collect(child);
      let exited = false;
      void done.then(() => (exited = true));
      await untilItems(db, 10, child.stdin, () => exited);
      child.kill('SIGINT');
      const run = await done;
      assert.equal(run.code, 130, run.stderr);
      assert.match(
        run.stdout,
        new RegExp(
          `^harvest ${server.url} \\(from the beginning\\): 10 records in 1 pages in \\d+\\.\\d s: 10 new, 0 updated, 0 unchanged, 0 deleted, 0 skipped\\.\n$`,
        ),
      );
      assert.equal(
        run.stderr,
        'Stopping after the records read so far (Ctrl-C again stops at once)...\n' +
          'Stopped by Ctrl-C: 10 records stored (10 new, 0 updated, 0 unchanged), nothing after them. Run the same command again to resume at the next page.\n',
      );
      // Only the stalled request is never answered: the same command resumes at page 2.
      const again = await spawnCli(['--db', db, 'harvest', server.url]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(
        again.stdout.replace(/ in \d+\.\d s:/, ' in X s:').replace(/from \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\./, 'from DATE.'),
        `harvest ${server.url} (resumed a stopped run): 15 records in 2 pages in X s: 15 new, 0 updated, 0 unchanged, 0 deleted, 0 skipped.\n` +
          'Complete. The next run harvests changes from DATE.\n',
      );
    } finally {
      await server.close();
    }
  },
);
