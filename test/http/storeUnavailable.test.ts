/**
 * A PostgreSQL store that stops answering while the server runs (docs/decisions.md "Faults";
 * the CI run of 2026-11-25 saw 500s for it): every request that needs the store gets the catalog's
 * 503 StoreUnavailableException with Retry-After, never a 500, and the server answers again
 * by itself once the store is back. The store is a real PostgreSQL behind a TCP relay that
 * the test cuts and restores, as a network or a restarting server would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { migratedDatabase } from '../helpers/backends.js';
import { Relay } from '../helpers/relay.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';

test('a PostgreSQL store that stops answering: 503 StoreUnavailableException with Retry-After on every route that needs it, no 500; answers again once it is back', async () => {
  const db = await migratedDatabase();
  const relay = new Relay(new URL(db.url));
  await relay.start();
  const url = new URL(relay.url());
  const store = await openPostgresStore({ url: url.toString() });
  const config = loadConfig({ flags: { store: { backend: 'postgres', url: url.toString() }, auth: { anonymousRead: true } } });
  const app = await buildServer(config, store, { logging: false });
  try {
    await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
    const path = `/items/${CHAPTER_ID}/parents`;
    const before = await app.inject({ url: path, headers: { accept: 'application/json' } });
    assert.equal(before.statusCode, 200);

    await relay.cut();
    const expected = {
      status: 503,
      name: 'StoreUnavailableException',
      message:
        'The store behind this server cannot answer now (unreachable or busy), so this request was not answered. Retry after 1 seconds (see the Retry-After header); /health/ready says when this server can answer again.',
    };
    for (const [route, accept] of [
      [path, 'application/json'],
      [`/items/${CHAPTER_ID}/aip`, 'application/json'],
      [`/items/${CHAPTER_ID}/children`, 'application/json'],
      // The reconciliation service reads the institutions from the store (docs/reconciliation.md).
      [`/reconcile?queries=${encodeURIComponent('{"q":{"query":"Deutsche Fotothek","type":"institution"}}')}`, 'application/json'],
    ] as const) {
      const res = await app.inject({ url: route, headers: { accept } });
      assert.deepEqual(
        { status: res.statusCode, retryAfter: res.headers['retry-after'], body: JSON.parse(res.body) },
        { status: 503, retryAfter: '1', body: expected },
        route,
      );
    }
    const xml = await app.inject({ url: path, headers: { accept: 'application/xml' } });
    assert.equal(xml.statusCode, 503);
    assert.match(xml.body, /<name>StoreUnavailableException<\/name>/);

    // The store is back on the same address: the pool's new connections reach it, with no restart.
    await relay.start();
    const after = await app.inject({ url: path, headers: { accept: 'application/json' } });
    assert.deepEqual({ status: after.statusCode, body: after.body }, { status: 200, body: before.body });
  } finally {
    await app.close();
    await store.close();
    await relay.cut();
  }
});
