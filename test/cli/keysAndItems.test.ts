/**
 * `heritage-api keys ...` and `items block|unblock` (docs/cli.md), against a real store file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { hashApiKey } from '../../src/apiKeys.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const freshDb = () => join(tempDir('cli'), 'h.db');

/** Only loads create a store (docs/cli.md "The store is created by loads only"): one with the demo packages. */
async function loadedDb(): Promise<string> {
  const db = freshDb();
  assert.equal((await cli(['--db', db, 'ingest', 'items', CORTEX_DIR])).code, 0);
  return db;
}

test('keys create prints a new key once; only its hash is stored; list never shows it; revoke', async () => {
  const db = await loadedDb();
  const created = await cli(['--db', db, 'keys', 'create', '--name', 'portal']);
  assert.equal(created.code, 0);
  assert.equal(created.out.length, 1);
  const key = created.out[0]!;
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(created.err, ["Created key 'portal'. It is shown only this once: store it now."]);

  // At rest: the hash, never the key.
  const raw = new Database(db, { readonly: true });
  const rows = raw.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
  raw.close();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.key_hash, hashApiKey(key));
  assert.equal(readFileSync(db).includes(key), false, 'the key is nowhere in the database file');

  const list = await cli(['--db', db, 'keys', 'list']);
  assert.equal(list.code, 0);
  assert.equal(list.out[0], 'NAME    CREATED               LAST USED  STATUS');
  assert.match(list.out[1]!, /^portal {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}- {10}active$/);
  assert.equal(list.out.join('\n').includes(key), false);

  const dup = await cli(['--db', db, 'keys', 'create', '--name', 'portal']);
  assert.equal(dup.code, 1);
  assert.deepEqual(dup.err, ["heritage-api: A key named 'portal' exists already (revoked keys keep their name). Choose another name."]);

  const revoked = await cli(['--db', db, 'keys', 'revoke', 'portal']);
  assert.deepEqual([revoked.code, revoked.out], [0, ["Revoked key 'portal'."]]);
  const store = openSqliteStore({ path: db });
  assert.equal(await store.findActiveKey(hashApiKey(key)), undefined);
  await store.close();
  const again = await cli(['--db', db, 'keys', 'revoke', 'portal']);
  assert.deepEqual([again.code, again.err], [1, ["No active key named 'portal'. See: heritage-api keys list"]]);
  const list2 = await cli(['--db', db, 'keys', 'list']);
  assert.match(list2.out[1]!, /revoked \d{4}-/);
});

test('keys create refuses a name that is not a plain word', async () => {
  const run = await cli(['--db', await loadedDb(), 'keys', 'create', '--name', 'a b;drop']);
  assert.equal(run.code, 1);
  assert.deepEqual(run.err, ["The key name 'a b;drop' is not valid: use 1 to 64 letters, digits, '.', '_', '@', '-'."]);
});

test('items block / unblock mark an item as not available, with a reason', async () => {
  const db = freshDb();
  assert.equal((await cli(['--db', db, 'ingest', 'items', CORTEX_DIR])).code, 0);
  const blocked = await cli(['--db', db, 'items', 'block', CHAPTER_ID, '--reason', 'Copyright claim by the holder.']);
  assert.deepEqual([blocked.code, blocked.out], [0, [`Blocked item '${CHAPTER_ID}': Copyright claim by the holder.`]]);
  let store = openSqliteStore({ path: db });
  assert.equal((await store.getItemDocument(CHAPTER_ID, 'json'))!.blockedReason, 'Copyright claim by the holder.');
  await store.close();
  // A block survives a re-load of the item.
  assert.equal((await cli(['--db', db, 'ingest', 'items', CORTEX_DIR])).code, 0);
  store = openSqliteStore({ path: db });
  assert.equal((await store.getItemDocument(CHAPTER_ID, 'json'))!.blockedReason, 'Copyright claim by the holder.');
  await store.close();
  const unblocked = await cli(['--db', db, 'items', 'unblock', CHAPTER_ID]);
  assert.deepEqual([unblocked.code, unblocked.out], [0, [`Unblocked item '${CHAPTER_ID}'.`]]);
  const twice = await cli(['--db', db, 'items', 'unblock', CHAPTER_ID]);
  assert.deepEqual([twice.code, twice.err], [1, [`Item '${CHAPTER_ID}' is not blocked.`]]);
  const unknown = await cli(['--db', db, 'items', 'block', 'NOSUCHITEM', '--reason', 'x']);
  assert.deepEqual([unknown.code, unknown.err], [1, ["No item 'NOSUCHITEM' in the store. Load it first, or check the id."]]);
  const noReason = await cli(['--db', db, 'items', 'block', CHAPTER_ID]);
  assert.equal(noReason.code, 1);
  assert.match(noReason.err.join('\n'), /required option '--reason <text>' not specified/);
});

test('an unknown command or option is a usage error with exit code 1', async () => {
  const run = await cli(['frobnicate']);
  assert.equal(run.code, 1);
  assert.match(run.err.join('\n'), /unknown command 'frobnicate'/);
});
