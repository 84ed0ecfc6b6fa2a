/**
 * A request never waits for an ingest's write lock: recording a key's last
 * use is skipped while another process holds the lock (a batch of persons can
 * hold it for seconds), and done on a later use.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { SQLITE } from '../helpers/backends.js';

test('[sqlite] marking a key used gives way to another writer, then works once the lock is free', async () => {
  const { store, location: path, dispose } = await SQLITE.open();
  const ingest = new Database(path);
  try {
    await store.createKey('portal', 'hash-of-the-portal-key');
    ingest.exec('BEGIN IMMEDIATE');
    await store.markKeyUsed('portal', new Date(1_800_000_000_000));
    assert.equal((await store.listKeys())[0]!.lastUsedAt, null, 'skipped while the lock is held');
    ingest.exec('COMMIT');
    await store.markKeyUsed('portal', new Date(1_800_000_060_000));
    assert.deepEqual((await store.listKeys())[0]!.lastUsedAt, new Date(1_800_000_060_000));
  } finally {
    ingest.close();
    await dispose();
  }
});
