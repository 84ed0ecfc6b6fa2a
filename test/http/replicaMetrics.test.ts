/**
 * Replicas and their metrics (docs/deployment.md "Replicas") with what `npm test` has (one
 * PostgreSQL, no streaming replica;
 * the real replica is in test/scaleout): replicas that cannot serve are left out, the
 * primary serves every read, /health/ready stays ready, and /metrics says so per replica,
 * labelled host:port/database without user or password. Lag, failover and the primary
 * stopped are tested on a real replica by `npm run test:scaleout`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { migratedDatabase } from '../helpers/backends.js';
import { CORTEX_DIR, CHAPTER_ID } from '../helpers/paths.js';

test('replicas that do not answer or are no standby are left out: the primary serves, ready, and /metrics tells each replica apart without its password', async () => {
  const db = await migratedDatabase();
  // Another database of the same cluster: it answers and has the schema, but it is no standby.
  const notStandby = await migratedDatabase();
  const down = 'postgres://reader:secret-word@127.0.0.1:1/heritage';
  const replicaUrls = [down, notStandby.url];
  const store = await openPostgresStore({ url: db.url, replicaUrls });
  const config = loadConfig({ flags: { store: { backend: 'postgres', url: db.url, replicaUrls }, auth: { anonymousRead: true } } });
  const app = await buildServer(config, store, { logging: false });
  try {
    await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
    const item = await app.inject({ url: `/items/${CHAPTER_ID}/parents`, headers: { accept: 'application/json' } });
    assert.equal(item.statusCode, 200);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const deadline = Date.now() + 60_000;
    while ((await fetch(`${base}/health/ready`)).status !== 200) {
      if (Date.now() > deadline) assert.fail('never ready');
      await new Promise((r) => setTimeout(r, 20));
    }

    const text = await (await fetch(`${base}/metrics`)).text();
    const lines = text.split('\n').filter((l) => /^heritage_store_(replica|reads|primary)/.test(l));
    const other = new URL(notStandby.url);
    const otherName = `${other.hostname}:${other.port}${other.pathname}`;
    assert.deepEqual(lines.sort(), [
      'heritage_store_primary_reachable 1',
      `heritage_store_reads_from_primary 1`,
      'heritage_store_replica_in_use{replica="127.0.0.1:1/heritage"} 0',
      `heritage_store_replica_in_use{replica="${otherName}"} 0`,
      'heritage_store_replicas_in_use 0',
    ]);
    assert.ok(!text.includes('secret-word') && !text.includes('reader'), 'no user or password in /metrics');

    const state = store.replication!()!;
    assert.equal(state.readingFrom, `${new URL(db.url).hostname}:${new URL(db.url).port}${new URL(db.url).pathname}`);
    assert.match(state.replicas[0]!.reason!, /^does not answer \(.*ECONNREFUSED/);
    assert.equal(
      state.replicas[1]!.reason,
      'is not a standby (promoted, or not a replica): point store.url at it if it is the primary now',
    );
    // Writes go to the primary as ever.
    assert.equal(await store.blockItem(CHAPTER_ID, 'test'), true);
    assert.equal((await app.inject({ url: `/items/${CHAPTER_ID}/aip`, headers: { accept: 'application/json' } })).statusCode, 403);
  } finally {
    await app.close();
    await store.close();
    await db.drop();
    await notStandby.drop();
  }
});
