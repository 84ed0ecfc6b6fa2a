/**
 * `heritage-api migrate` and `heritage-api copy` against a real PostgreSQL
 * (docs/deployment.md): the fixtures copied from SQLite to PostgreSQL and back answer every
 * read as the original does, the digests printed agree both ways, and the refusals say
 * what to do without showing the password.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { SCHEMA_VERSION } from '../../src/store/postgres/schema.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { migratedDatabase } from '../helpers/backends.js';
import { cli } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { assertSameAnswers, fixtureItems, fixturePersons, loadEverything } from './storeFixtures.js';

/** The table lines of copy's report: [table, source rows, target rows, digest]. */
function tableLines(out: string[]): string[][] {
  return out.filter((l) => /^\w+\s+\d+\s+\d+\s+[0-9a-f]{64}$/.test(l)).map((l) => l.split(/\s+/));
}

test('copy: SQLite to PostgreSQL and back, nothing lost, checked by counts and digests', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-copy-'));
  const db = await migratedDatabase();
  try {
    const items = (await fixtureItems()).filter((_, i) => i % 3 === 0 || i < 40);
    const persons = fixturePersons().slice(0, 400);
    const original = join(dir, 'original.db');
    const source = openSqliteStore({ path: original });
    await loadEverything(source, items, persons);

    const there = await cli(['copy', '--from', original, '--to', db.url]);
    assert.equal(there.code, 0, there.err.join('\n'));
    const lines = tableLines(there.out);
    assert.deepEqual(
      lines.map((l) => l[0]),
      ['providers', 'items', 'item_refs', 'item_providers', 'blocked_items', 'persons', 'api_keys', 'harvest_state', 'load_runs'],
    );
    for (const [table, from, to] of lines) assert.equal(to, from, table);
    assert.equal(lines.find((l) => l[0] === 'items')![1], String(items.length - 1));
    assert.equal(lines.find((l) => l[0] === 'persons')![1], String(persons.length));
    assert.ok(!there.out.join('\n').includes('heritage-test'), 'the password is not printed');

    const copied = await openPostgresStore({ url: db.url });
    try {
      const ids = [...items.map((i) => i.id), 'NOPE'];
      await assertSameAnswers(
        source,
        copied,
        ids,
        persons.map((p) => p.id),
        true,
      );
      // The copy is a store like any other: it takes writes after the copied rows.
      await copied.upsertItems([{ ...items[0]!, id: 'NEW', choUri: 'urn:new', refs: [] }]);
      assert.equal(await copied.countItems(), items.length);
      await copied.applyItemChanges([{ kind: 'delete', sourceId: 'urn:new' }]);
    } finally {
      await copied.close();
    }

    const back = join(dir, 'back.db');
    const again = await cli(['copy', '--from', db.url, '--to', back]);
    assert.equal(again.code, 0, again.err.join('\n'));
    // The same rows give the same digests on the way back.
    assert.deepEqual(tableLines(again.out), lines);
    const returned = openSqliteStore({ path: back, create: false });
    try {
      await assertSameAnswers(
        source,
        returned,
        [...items.map((i) => i.id), 'NOPE'],
        persons.map((p) => p.id),
        true,
      );
    } finally {
      await returned.close();
      await source.close();
    }

    // Into a store that has data: refused, and the store is left as it was.
    const full = await cli(['copy', '--from', original, '--to', db.url]);
    assert.equal(full.code, 1);
    assert.match(
      full.err.join('\n'),
      /The target store postgres:\/\/heritage:\*\*\*@127\.0\.0\.1:\d+\/\w+ is not empty \(\d+ rows in providers\): copy into a new store/,
    );
  } finally {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('migrate: applies the schema once, and a store is refused until it is migrated or when it is newer', async () => {
  const db = await createTestDatabase();
  try {
    await assert.rejects(openPostgresStore({ url: db.url }), (e: Error) => {
      assert.equal(e.name, 'UsageError');
      assert.match(e.message, /has no heritage-api schema yet: run heritage-api migrate --store <its URL> first\./);
      assert.ok(!e.message.includes('heritage-test'), 'no password in the message');
      return true;
    });
    const unmigrated = await cli(['copy', '--from', db.url, '--to', join(tmpdir(), 'never-written.db')]);
    assert.equal(unmigrated.code, 1);
    assert.match(unmigrated.err.join('\n'), /run heritage-api migrate/);

    const first = await cli(['migrate', '--store', db.url]);
    assert.equal(first.code, 0, first.err.join('\n'));
    assert.match(
      first.out.join('\n'),
      new RegExp(`^Migrated the PostgreSQL store postgres://heritage:\\*\\*\\*@.* from schema 0 to ${SCHEMA_VERSION}\\.$`),
    );
    const second = await cli(['migrate', '--store', db.url]);
    assert.match(second.out.join('\n'), new RegExp(`is at schema ${SCHEMA_VERSION} already\\.$`));
    // The configured store, from the environment, is the default.
    const fromEnv = await cli(['migrate'], { env: { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: db.url } });
    assert.equal(fromEnv.code, 0);
    const store = await openPostgresStore({ url: db.url });
    assert.equal(await store.countItems(), 0);
    await store.close();

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [SCHEMA_VERSION + 1]);
    await client.end();
    await assert.rejects(openPostgresStore({ url: db.url }), /was migrated by a newer heritage-api \(schema \d+, this version knows \d+\)/);
    const newer = await cli(['migrate', '--store', db.url]);
    assert.equal(newer.code, 1);
    assert.match(newer.err.join('\n'), /newer heritage-api/);
  } finally {
    await db.drop();
  }
});

test('an unreachable PostgreSQL is a message that names it without its password', async () => {
  const run = await cli(['migrate', '--store', 'postgres://u:secret@127.0.0.1:1/db']);
  assert.equal(run.code, 1);
  assert.match(
    run.err.join('\n'),
    /^heritage-api: Cannot reach the PostgreSQL store at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db \(.*\): check store\.url and that the server runs\.$/,
  );
});
