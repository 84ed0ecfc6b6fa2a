/**
 * Replicas (docs/deployment.md "Replicas") on a real primary and a real streaming replica
 * (./replicaCluster.ts):
 * reads go to the replica and writes to the primary; a replica that lags more than
 * store.maxReplicaLagSeconds (its replay paused) or stops is left out and the primary serves,
 * and it is taken back once it has caught up; the data version says which server the reads
 * come from; with the primary stopped, reads go on and every write fails with
 * PrimaryStoreUnreachableException (503), until the primary is back.
 *
 * Run by `npm run test:scaleout` (README "Development"), not by `npm test`: it needs
 * Debian's PostgreSQL binaries, which a machine with nothing but Node lacks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import pg from 'pg';
import { hashApiKey } from '../../src/apiKeys.js';
import { ApiError } from '../../src/errors.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import type { Store } from '../../src/store/Store.js';
import { CHAPTER_ID, CORTEX_DIR, OTHER_CORTEX_ID } from '../helpers/paths.js';
import { migrate, postgresBin, startReplicaCluster } from './replicaCluster.js';

async function until(what: string, condition: () => Promise<boolean> | boolean, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const PRIMARY_DOWN =
  'The primary store is unreachable, so this write was not made: loads, keys and blocks are written to the primary. Reads go on from the replicas; writes resume when the primary is back: run this again then.';

test('reads follow the replica while it keeps up, the primary serves when it lags or stops, and writes fail with a 503 while the primary is down', async () => {
  const found = postgresBin();
  if ('missing' in found) assert.fail(found.missing);
  const cluster = await startReplicaCluster(found.bin, migrate);
  let store: Store | undefined;
  try {
    const { primary, replica } = cluster;
    store = await openPostgresStore({ url: primary.url, replicaUrls: [replica.url], maxReplicaLagSeconds: 1 });
    const s = store;
    const state = () => s.replication!()!;
    const replicaName = `127.0.0.1:${replica.port}/heritage`;
    // The first check ran before the store was handed out: a replica that keeps up is read from at once.
    const {
      replicas: [first],
      ...reading
    } = state();
    assert.deepEqual(reading, { primaryReachable: true, readingFrom: replicaName, readsFromPrimary: false });
    assert.deepEqual({ ...first, lagSeconds: undefined }, { name: replicaName, lagSeconds: undefined, inUse: true, reason: undefined });
    // What the primary wrote in the last instant may still be on its way.
    assert.ok(first!.lagSeconds! < 1, `lag ${first!.lagSeconds}`);

    // A load goes to the primary, and reaches the reads through the replica.
    await ingestItems(s, [join(CORTEX_DIR, `${CHAPTER_ID}.xml`)], { batchSize: 100 });
    await until('the replica to replay the load', async () => (await s.getItemHead(CHAPTER_ID)) !== undefined);
    const onReplica = await s.dataVersion();
    assert.match(onReplica, /^r\d+:\d+\.\d+\/p\d+:\d+$/);

    // The replica stops replaying: once it is more than a second behind, the primary serves.
    await sql(replica.url, 'SELECT pg_wal_replay_pause()');
    await ingestItems(s, [join(CORTEX_DIR, `${OTHER_CORTEX_ID}.xml`)], { batchSize: 100 });
    await until('the lagging replica to be left out', () => state().readsFromPrimary);
    const lagging = state().replicas[0]!;
    assert.equal(lagging.inUse, false);
    assert.ok(lagging.lagSeconds! > 1, `lag ${lagging.lagSeconds}`);
    assert.match(lagging.reason!, /^lags \d+\.\d s, more than store\.maxReplicaLagSeconds \(1\)$/);
    assert.notEqual(await s.getItemHead(OTHER_CORTEX_ID), undefined, 'the primary has what the replica lacks');
    // Another server, another version: nothing cached from the replica counts as current.
    const onPrimary = await s.dataVersion();
    assert.notEqual(onPrimary.split(':')[0], onReplica.split(':')[0]);

    // Replaying again, it catches up and is read from again.
    await sql(replica.url, 'SELECT pg_wal_replay_resume()');
    await until('the replica to be taken back', () => !state().readsFromPrimary);
    assert.equal(state().replicas[0]!.inUse, true);
    assert.ok(state().replicas[0]!.lagSeconds! <= 1);
    assert.notEqual(await s.getItemHead(OTHER_CORTEX_ID), undefined);

    // The replica stops: reads never fail, they move to the primary at once.
    await replica.stop();
    for (let i = 0; i < 20; i++) assert.notEqual(await s.getItemHead(CHAPTER_ID), undefined);
    assert.equal(state().readsFromPrimary, true);
    assert.equal(state().replicas[0]!.inUse, false);
    await replica.start();
    await until('the restarted replica to be read from', () => !state().readsFromPrimary);

    // The primary stops: reads go on from the replica, writes fail with the catalog's 503.
    await s.createKey('before', hashApiKey('key-before'));
    await until('the replica to have the key', async () => {
      const c = new pg.Client({ connectionString: replica.url });
      await c.connect();
      try {
        return (await c.query("SELECT 1 FROM api_keys WHERE name = 'before'")).rowCount === 1;
      } finally {
        await c.end();
      }
    });
    await primary.stop();
    const item = await s.getItemDocument(CHAPTER_ID, 'json');
    assert.ok(item !== undefined && item.body.length > 0);
    assert.equal((await s.findActiveKey(hashApiKey('key-before')))?.name, 'before');
    await s.markKeyUsed('before', new Date());
    await assert.rejects(s.createKey('during', hashApiKey('key-during')), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.deepEqual([e.status, e.errorName, e.message], [503, 'PrimaryStoreUnreachableException', PRIMARY_DOWN]);
      return true;
    });
    await assert.rejects(s.blockItem(CHAPTER_ID, 'no'), { errorName: 'PrimaryStoreUnreachableException' });
    await assert.rejects(ingestItems(s, [join(CORTEX_DIR, 'goethe.json')], { batchSize: 100 }), {
      errorName: 'PrimaryStoreUnreachableException',
    });
    assert.equal(state().primaryReachable, false);
    assert.equal(state().readsFromPrimary, false);
    assert.match(await s.dataVersion(), /\/p\d+:down$/);
    // A node started meanwhile opens the store through the replica, and reads.
    const late = await openPostgresStore({ url: primary.url, replicaUrls: [replica.url], maxReplicaLagSeconds: 1 });
    try {
      assert.equal(late.replication!()!.primaryReachable, false);
      assert.notEqual(await late.getItemHead(OTHER_CORTEX_ID), undefined);
      await assert.rejects(late.revokeKey('before'), { errorName: 'PrimaryStoreUnreachableException' });
    } finally {
      await late.close();
    }

    // Back: writes resume.
    await primary.start();
    await until('the primary to be seen again', () => state().primaryReachable);
    await s.createKey('after', hashApiKey('key-after'));
    assert.deepEqual(
      (await s.listKeys()).map((k) => k.name),
      ['before', 'after'],
    );
  } finally {
    await store?.close();
    await cluster.close();
  }
});
