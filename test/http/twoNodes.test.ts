/**
 * Many nodes, one truth (docs/deployment.md "Several API nodes"): two API nodes (two servers, each
 * with its own
 * connections, as two processes have) on one PostgreSQL store. What one node's store writes
 * (an item, a key created or revoked, a block) the other serves on its very next request:
 * every cache of a node is keyed on the store's data_version, read once per round trip
 * (src/store/postgres/PostgresStore.ts), and every search first brings its index up to the
 * store's change feed. So no LISTEN/NOTIFY is needed; this test is the proof, over real
 * sockets and keep-alive connections (whose key memo is the last cache a revoke must reach).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'node:http';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import type { Store } from '../../src/store/Store.js';
import { migratedDatabase } from '../helpers/backends.js';
import { CHAPTER_ID, CORTEX_DIR, OTHER_CORTEX_ID } from '../helpers/paths.js';

interface Node {
  app: FastifyInstance;
  store: Store;
  base: string;
}

async function startNode(url: string): Promise<Node> {
  const store = await openPostgresStore({ url, maxConnections: 4 });
  const app = await buildServer(loadConfig({ flags: { store: { backend: 'postgres', url } } }), store, { logging: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, store, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

/** Polls until the condition holds (no fixed wait: a busy machine only takes longer). */
async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('two API nodes on one PostgreSQL: an item, a key, a revoke and a block written through one are served by the other at once', async () => {
  const db = await migratedDatabase();
  // One keep-alive connection per node, so that the per-connection key memo is exercised.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const nodes: Node[] = [];
  try {
    const a = await startNode(db.url);
    nodes.push(a);
    const b = await startNode(db.url);
    nodes.push(b);
    await ingestItems(a.store, [join(CORTEX_DIR, `${CHAPTER_ID}.xml`)], { batchSize: 100 });
    const key = generateApiKey();
    await a.store.createKey('first', hashApiKey(key));
    const get = (node: Node, path: string, k = key) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${k}"` };
        request(`${node.base}${path}`, { agent, headers }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        })
          .on('error', reject)
          .end();
      });
    const total = async (node: Node) =>
      (JSON.parse((await get(node, '/search?rows=0')).body) as { numberOfResults: number }).numberOfResults;
    for (const node of nodes) await until('the node to be ready', async () => (await get(node, '/health/ready')).status === 200);

    // An item loaded through A's store: B serves it, the same bytes as A, and finds it, on its next request.
    assert.equal((await get(b, `/items/${OTHER_CORTEX_ID}/aip`)).status, 404);
    const before = await total(b);
    await ingestItems(a.store, [join(CORTEX_DIR, `${OTHER_CORTEX_ID}.xml`)], { batchSize: 100 });
    const onB = await get(b, `/items/${OTHER_CORTEX_ID}/aip`);
    assert.equal(onB.status, 200);
    assert.deepEqual(onB, await get(a, `/items/${OTHER_CORTEX_ID}/aip`));
    assert.equal(await total(b), before + 1);

    // A key created on A works on B; revoked on A, B refuses it, on the same keep-alive connection.
    const second = generateApiKey();
    assert.equal((await get(b, '/items/' + CHAPTER_ID + '/parents', second)).status, 403);
    await a.store.createKey('second', hashApiKey(second));
    assert.equal((await get(b, `/items/${CHAPTER_ID}/parents`, second)).status, 200);
    assert.equal((await get(b, `/items/${CHAPTER_ID}/parents`, second)).status, 200);
    assert.equal(await a.store.revokeKey('second'), true);
    const refused = await get(b, `/items/${CHAPTER_ID}/parents`, second);
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.body).name, 'NotAuthorizedException');
    // The first key is untouched.
    assert.equal((await get(b, `/items/${CHAPTER_ID}/parents`)).status, 200);

    // A block on A: B refuses the package and leaves the item out of its search.
    assert.equal(await a.store.blockItem(OTHER_CORTEX_ID, 'withdrawn by the provider'), true);
    const blocked = await get(b, `/items/${OTHER_CORTEX_ID}/aip`);
    assert.equal(blocked.status, 403);
    assert.equal(JSON.parse(blocked.body).name, 'ItemBlockedException');
    assert.equal(await total(b), before);
    // And back.
    assert.equal(await a.store.unblockItem(OTHER_CORTEX_ID), true);
    assert.equal((await get(b, `/items/${OTHER_CORTEX_ID}/aip`)).status, 200);
    assert.equal(await total(b), before + 1);
  } finally {
    agent.destroy();
    for (const node of nodes) {
      await node.app.close();
      await node.store.close();
    }
    await db.drop();
  }
});
