/**
 * A new operator is never misled (docs/cli.md "Mistakes and problems"): typos in variables,
 * settings and flags are refused with the name meant; a mistyped --db does
 * not create an empty store; a taken port, a locked store or a file that is
 * no store get one sentence that says what to do, never a stack trace.
 * Each runs the CLI as its own process and compares all it prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { spawnCli } from '../helpers/cli.js';
import { writePackages } from '../helpers/packages.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const tmp = () => tempDir('operator');
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

test('--version and -V print the version of the package', async () => {
  for (const flag of ['--version', '-V']) {
    const run = await spawnCli([flag], { cwd: tmp() });
    assert.deepEqual(run, { code: 0, signal: null, stdout: `${VERSION}\n`, stderr: '' }, flag);
  }
});

test('a mistyped HERITAGE_API_* variable is refused, naming the variable meant', async () => {
  const run = await spawnCli(['--db', join(tmp(), 'h.db'), 'keys', 'list'], { env: { HERITAGE_API_HTTP_REQUIRE_ACEPT: 'false' } });
  assert.deepEqual(run, {
    code: 1,
    signal: null,
    stdout: '',
    stderr:
      'heritage-api: Unknown environment variable HERITAGE_API_HTTP_REQUIRE_ACEPT (did you mean HERITAGE_API_HTTP_REQUIRE_ACCEPT?): ' +
      'no setting has this name. Correct or unset it; docs/configuration.md lists every setting and its variable.\n',
  });
});

test('a mistyped setting in the config file is refused, naming the setting meant', async () => {
  const dir = tmp();
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ http: { requireAcept: false } }));
  const run = await spawnCli(['--config', config, '--db', join(dir, 'h.db'), 'keys', 'list']);
  assert.deepEqual(run, {
    code: 1,
    signal: null,
    stdout: '',
    stderr:
      `heritage-api: config file ${config}: unknown setting 'http.requireAcept'. Settings of 'http': requireAccept, corsOrigin, rateLimitMax, ` +
      "rateLimitWindowSeconds, cacheMaxAgeSeconds, compressedCacheBytes, packageBodyCacheBytes, maxUrlLength. Did you mean 'http.requireAccept'?\n",
  });
});

test('a mistyped flag or command is refused, naming the one meant', async () => {
  assert.deepEqual(await spawnCli(['--dbb', 'x.db', 'keys', 'list']), {
    code: 1,
    signal: null,
    stdout: '',
    stderr: "error: unknown option '--dbb'\n(Did you mean --db?)\n",
  });
  assert.deepEqual(await spawnCli(['serve', '--prot', '9000']), {
    code: 1,
    signal: null,
    stdout: '',
    stderr: "error: unknown option '--prot'\n(Did you mean --port?)\n",
  });
  assert.deepEqual(await spawnCli(['keys', 'lst']), {
    code: 1,
    signal: null,
    stdout: '',
    stderr: "error: unknown command 'lst'\n(Did you mean list?)\n",
  });
});

test('commands that are not loads never create a store: a mistyped --db says there is none and how to make one', async () => {
  const dir = tmp();
  const db = join(dir, 'no-such-dir', 'heritge.db');
  const message =
    `heritage-api: There is no store at ${db}. Check --db (store.path), or create the store by loading data: ` +
    "'heritage-api ingest items PATH...', 'ingest entities PATH...' or 'harvest URL'.\n";
  const commands = [
    ['serve', '--port', '0'],
    ['keys', 'list'],
    ['keys', 'create', '--name', 'portal'],
    ['keys', 'revoke', 'portal'],
    ['items', 'list'],
    ['items', 'show', CHAPTER_ID],
    ['items', 'block', CHAPTER_ID, '--reason', 'Copyright claim.'],
    ['items', 'unblock', CHAPTER_ID],
  ];
  for (const command of commands) {
    const run = await spawnCli(['--db', db, ...command]);
    assert.deepEqual(run, { code: 1, signal: null, stdout: '', stderr: message }, command.join(' '));
    assert.equal(existsSync(join(dir, 'no-such-dir')), false, `${command.join(' ')} created nothing`);
  }
  // A load creates it.
  const load = await spawnCli(['--db', db, 'ingest', 'items', CORTEX_DIR]);
  assert.equal(load.code, 0, load.stderr);
  assert.equal(existsSync(db), true);
});

test('a port in use is one sentence that says what to do', async () => {
  const dir = tmp();
  const db = join(dir, 'h.db');
  assert.equal((await spawnCli(['--db', db, 'ingest', 'items', CORTEX_DIR])).code, 0);
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const run = await spawnCli(['--db', db, '--log-level', 'warn', 'serve', '--port', String(port)]);
    assert.deepEqual(run, {
      code: 1,
      signal: null,
      stdout: '',
      stderr: `heritage-api: Port ${port} on 127.0.0.1 is in use by another program: stop that program, or choose another port with --port PORT (0 picks a free one).\n`,
    });
  } finally {
    taken.close();
  }
});

test('a store locked by another writer is one sentence that says what to do', async () => {
  const dir = tmp();
  const db = join(dir, 'h.db');
  assert.equal((await spawnCli(['--db', db, 'ingest', 'items', CORTEX_DIR])).code, 0);
  const fresh = writePackages([{ id: 'NEWITEM', title: 'New' }]);
  const other = new Database(db);
  other.exec('BEGIN IMMEDIATE');
  try {
    const env = { HERITAGE_API_STORE_BUSY_TIMEOUT_SECONDS: '1' };
    for (const command of [
      ['keys', 'create', '--name', 'portal'],
      ['items', 'block', CHAPTER_ID, '--reason', 'Copyright claim.'],
      ['ingest', 'items', fresh],
    ]) {
      const run = await spawnCli(['--db', db, ...command], { env });
      assert.deepEqual(
        run,
        {
          code: 1,
          signal: null,
          stdout: '',
          stderr:
            `heritage-api: The store ${db} is locked by another process writing to it (an ingest, a harvest, a keys or items command), ` +
            'and it did not finish within 1 s (store.busyTimeoutSeconds): run this again once that process has finished.\n',
        },
        command.join(' '),
      );
    }
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
});

test('a file that is not a store is named as such', async () => {
  const dir = tmp();
  const notAStore = join(dir, 'notes.txt');
  writeFileSync(notAStore, 'These are my notes, not a database. '.repeat(100));
  const run = await spawnCli(['--db', notAStore, 'keys', 'list']);
  assert.deepEqual(run, {
    code: 1,
    signal: null,
    stdout: '',
    stderr: `heritage-api: ${notAStore} is not a heritage-api store (not an SQLite database): check --db or store.path.\n`,
  });
});
