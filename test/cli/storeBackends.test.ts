/**
 * The commands on either store backend (docs/deployment.md "The PostgreSQL backend"): `ingest`,
 * `keys`, `items` and
 * `export` run on a PostgreSQL store named by store.backend and store.url as they do on a
 * SQLite file, and print the same; a PostgreSQL store that is missing, unreachable or not
 * migrated is refused with a message that says what to do, never with its password.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { migratedDatabase } from '../helpers/backends.js';
import { cli, type CliRun } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { createTestDatabase } from '../helpers/postgres.js';

const CHAPTER_ID = '222NZKK63TNRLC2VETRV722VKBDSUVGL';

/** The same sequence of commands on one store; what each printed, the store's location replaced by <store>. */
async function session(run: (args: string[]) => Promise<CliRun>, location: string, dir: string): Promise<Record<string, CliRun>> {
  const out: Record<string, CliRun> = {};
  const file = `${dir}-persons.jsonl`;
  const step = async (name: string, args: string[]) => {
    const r = await run(args);
    const clean = (lines: string[]) =>
      lines.map((l) =>
        l
          .split(location)
          .join('<store>')
          .replace('--db <store> ', '')
          .split(file)
          .join('<file>')
          .replace(/\d+(\.\d+)? s\b/g, '<t> s')
          .replace(/\(\d+\/s\)/g, '(<n>/s)'),
      );
    out[name] = { code: r.code, out: clean(r.out), err: clean(r.err) };
    assert.equal(r.code, 0, `${name}: ${r.err.join('\n')}`);
  };
  await step('ingest items', ['ingest', 'items', `${FIXTURES}items/cortex`]);
  await step('ingest entities', ['ingest', 'entities', `${FIXTURES}persons`]);
  await step('keys create', ['keys', 'create', '--name', 'reader']);
  await step('keys revoke', ['keys', 'revoke', 'reader']);
  await step('items list', ['items', 'list', '--limit', '5']);
  await step('items block', ['items', 'block', CHAPTER_ID, '--reason', 'A claim.']);
  await step('items unblock', ['items', 'unblock', CHAPTER_ID]);
  await step('items show', ['items', 'show', CHAPTER_ID, '--format', 'json']);
  await step('export persons', ['export', 'persons', '--out', file]);
  out['export persons'] = { ...out['export persons']!, out: readFileSync(file, 'utf8').split('\n') };
  return out;
}

test('ingest, keys, items and export print the same on SQLite and on PostgreSQL (store.backend, store.url)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-backends-'));
  const db = await migratedDatabase();
  try {
    const path = join(dir, 'store.db');
    const onSqlite = await session((args) => cli(['--db', path, ...args]), path, join(dir, 'a'));
    const env = { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: db.url };
    const onPostgres = await session((args) => cli(args, { env }), db.url, join(dir, 'b'));
    // The one line that differs by nature: the key itself, new each time.
    for (const s of [onSqlite, onPostgres])
      s['keys create']!.out = s['keys create']!.out.filter((l) => !/^[A-Za-z0-9_-]{30,}$/.test(l.trim()));
    for (const name of Object.keys(onSqlite)) assert.deepEqual(onPostgres[name], onSqlite[name], name);
    assert.ok(onPostgres['items list']!.out.length >= 5);
    assert.ok(onPostgres['export persons']!.out.length > 100, 'every person exported');
    // The key lives in the PostgreSQL store: listed there, revoked.
    const keys = await cli(['keys', 'list'], { env });
    assert.equal(keys.code, 0);
    assert.match(keys.out.join('\n'), /reader/);
  } finally {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a PostgreSQL store that is unreachable, missing or not migrated is refused with what to do, never the password', async () => {
  const unreachable = { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: 'postgres://u:secret@127.0.0.1:1/db' };
  for (const args of [
    ['serve'],
    ['keys', 'list'],
    ['items', 'list'],
    ['export', 'items'],
    ['ingest', 'items', `${FIXTURES}items/cortex`],
  ]) {
    const run = await cli(args, { env: unreachable });
    assert.equal(run.code, 1, args.join(' '));
    assert.deepEqual(
      run.err,
      [
        'heritage-api: Cannot reach the PostgreSQL store at postgres://u:***@127.0.0.1:1/db (connect ECONNREFUSED 127.0.0.1:1): check store.url and that the server runs.',
      ],
      args.join(' '),
    );
  }
  const empty = await createTestDatabase();
  try {
    const run = await cli(['keys', 'list'], { env: { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: empty.url } });
    assert.equal(run.code, 1);
    assert.match(run.err.join('\n'), /heritage-api migrate/);
    assert.ok(!run.err.join('\n').includes(new URL(empty.url).password || '\u0000'));
  } finally {
    await empty.drop();
  }
});
