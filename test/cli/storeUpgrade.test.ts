/**
 * A SQLite store written by an older version is brought up to date when a command opens it;
 * on a large store a step takes minutes (migration 11 computes every item's stored fields),
 * so the command says so first, on standard error, rather than sit silent. A new store, or
 * one already up to date, is opened without a word.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrate } from '../../src/store/sqlite/schema.js';
import { cli } from '../helpers/cli.js';
import { CORTEX_DIR } from '../helpers/paths.js';

test('a command that opens an older SQLite store says it is bringing it up to date, once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-upgrade-'));
  try {
    const path = join(dir, 'old.db');
    const old = new Database(path);
    migrate(old, MIGRATIONS.length - 1);
    old.close();

    const first = await cli(['migrate', '--store', path]);
    assert.equal(first.code, 0, first.err.join('\n'));
    assert.deepEqual(first.err, [
      `Bringing the store ${path} from schema ${MIGRATIONS.length - 1} to ${MIGRATIONS.length}, once after an upgrade (docs/deployment.md): on a store of a million items this takes minutes.`,
    ]);
    assert.deepEqual(first.out, [
      `The SQLite store ${path} is at schema ${MIGRATIONS.length} (SQLite stores are migrated whenever they are opened).`,
    ]);

    const again = await cli(['migrate', '--store', path]);
    assert.deepEqual(again.err, [], 'an up-to-date store is opened without a word');

    // A new store is made at the latest schema without a word either.
    const fresh = join(dir, 'new.db');
    const load = await cli(['--db', fresh, 'ingest', 'items', CORTEX_DIR]);
    assert.equal(load.code, 0, load.err.join('\n'));
    assert.ok(!load.err.some((l) => l.includes('Bringing the store')), load.err.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
