/**
 * The scale-out test, on one machine (docs/deployment.md "A primary, a replica and two API
 * nodes"): a PostgreSQL primary, one
 * streaming replica made with pg_basebackup (./replicaCluster.ts), and two API nodes
 * (`heritage-api serve` processes with store.url = the primary and store.replicaUrls = the
 * replica). Real fixtures are loaded with `heritage-api ingest items` while both nodes
 * answer requests in a loop; the replica is stopped and started; the primary is stopped.
 *
 * What must hold: 0 wrong answers (every answer is the item's final bytes, or, only until
 * its load is done plus the lag bound, the exact 404 of an item not yet there; the
 * hierarchy of every item equals a SQLite store's, loaded with the same files), 0 lost
 * records (every item answers on both nodes at the end, and the search counts them all),
 * and no 5xx: with the primary down, the only failures are the writes, refused with
 * PrimaryStoreUnreachableException and its message.
 *
 * Run by `npm run test:scaleout` (and by .ci/run after `npm test`), not by `npm test` (whose files end in .test.ts): it
 * needs Debian's PostgreSQL binaries, which a machine with nothing but Node lacks, and runs
 * four servers and several loads (a minute or two on two busy cores).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { MAIN, spawnCli } from '../helpers/cli.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';
import { migrate, postgresBin, startReplicaCluster } from './replicaCluster.js';

/** Loaded in this order: before the nodes start, while serving, while the replica is down, after the primary is back. */
const GROUPS = [
  [CORTEX_DIR],
  [join(FIXTURES, 'items/edm/mimo')],
  [join(FIXTURES, 'items/edm/hope-combat')],
  [join(FIXTURES, 'items/edm/misc')],
];
/** store.maxReplicaLagSeconds of the nodes. */
const MAX_LAG = 2;
/** How long after a load is done a node may still answer without it: the lag bound, plus a check's interval and a margin. */
const STALE_MS = (MAX_LAG + 3) * 1000;

const PRIMARY_DOWN =
  'The primary store is unreachable, so this write was not made: loads, keys and blocks are written to the primary. Reads go on from the replicas; writes resume when the primary is back: run this again then. (PrimaryStoreUnreachableException)';

async function until(what: string, condition: () => Promise<boolean> | boolean, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Node {
  child: ChildProcess;
  base: string;
  log: string;
}

function startNode(env: NodeJS.ProcessEnv): Promise<Node> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN, 'serve', '--port', '0'], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const node: Node = { child, base: '', log: '' };
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      node.log += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(node.log);
      if (m && node.base === '') {
        node.base = m[1]!;
        resolve(node);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${node.log}`)));
  });
}

async function metric(node: Node, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${node.base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

interface Answer {
  status: number;
  body: string;
}

test('a primary, a streaming replica and two API nodes: loads while serving, the replica and then the primary stopped, 0 wrong answers, 0 lost records, no 5xx', async (t) => {
  const found = postgresBin();
  if ('missing' in found) assert.fail(found.missing);

  // The reference: the same files in a SQLite store, for the hierarchy of every item.
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-scaleout-'));
  const reference = openSqliteStore({ path: join(dir, 'reference.db') });
  await ingestItems(reference, GROUPS.flat(), { batchSize: 500 });
  const referenceApp = await buildServer(
    loadConfig({ flags: { store: { backend: 'sqlite', path: join(dir, 'reference.db') }, auth: { anonymousRead: true } } }),
    reference,
    { logging: false },
  );
  const ids: string[] = await reference.listItemIds({ limit: 100_000 });
  const groupOf = new Map<string, number>();
  for (let g = 0; g < GROUPS.length; g++) {
    const only = openSqliteStore({ path: join(dir, `group${g}.db`) });
    await ingestItems(only, GROUPS[g]!, { batchSize: 500 });
    for (const id of await only.listItemIds({ limit: 100_000 })) if (!groupOf.has(id)) groupOf.set(id, g);
    await only.close();
  }
  const expectedParents = new Map<string, string>();
  for (const id of ids)
    expectedParents.set(id, (await referenceApp.inject({ url: `/items/${id}/parents`, headers: { accept: 'application/json' } })).body);

  const cluster = await startReplicaCluster(found.bin, migrate);
  const nodes: Node[] = [];
  try {
    const { primary, replica } = cluster;
    const env = {
      HERITAGE_API_STORE_BACKEND: 'postgres',
      HERITAGE_API_STORE_URL: primary.url,
      HERITAGE_API_STORE_REPLICA_URLS: replica.url,
      HERITAGE_API_STORE_MAX_REPLICA_LAG_SECONDS: String(MAX_LAG),
    };
    const cli = async (args: string[]) => spawnCli(args, { env });
    /** When each group's load was done (ms); a group not yet loaded is absent. */
    const loadedAt = new Map<number, number>();
    const load = async (g: number) => {
      const run = await cli(['ingest', 'items', ...GROUPS[g]!]);
      assert.equal(run.code, 0, run.stderr);
      loadedAt.set(g, Date.now());
    };
    await load(0);
    const created = await cli(['keys', 'create', '--name', 'loop']);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    const headers = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${key}"` };

    for (let i = 0; i < 2; i++) nodes.push(await startNode(env));
    for (const node of nodes) await until('the node to be ready', async () => (await fetch(`${node.base}/health/ready`)).status === 200);
    // Each node reads from the replica and shows its lag, labelled host:port/database.
    for (const node of nodes) {
      await until('the node to read from the replica', async () => (await metric(node, 'heritage_store_reads_from_primary')) === 0);
      const lag = await metric(node, `heritage_store_replica_lag_seconds{replica="127.0.0.1:${replica.port}/heritage"}`);
      assert.ok(lag !== undefined && lag <= MAX_LAG, `lag ${lag}`);
    }

    // Every answer is recorded, and judged at the end against the final bytes.
    const answers: Array<{ node: number; path: string; id: string; at: number; answer: Answer }> = [];
    let stop = false;
    const loop = async (n: number) => {
      for (let i = 0; !stop && i < 1_000_000; i++) {
        // Mostly items already loaded (their bytes are known), some not yet (a 404 until their load).
        const from = i % 4 === 3 ? ids : ids.filter((x) => loadedAt.has(groupOf.get(x)!));
        const id = from[(i * 7 + n * 13) % from.length]!;
        const path = i % 2 === 0 ? `/items/${id}/aip` : `/items/${id}/parents`;
        const at = Date.now();
        const res = await fetch(`${nodes[n]!.base}${path}`, { headers });
        answers.push({ node: n, path, id, at, answer: { status: res.status, body: await res.text() } });
      }
    };
    const loops = [loop(0), loop(1)];

    // A load while both nodes serve.
    await load(1);

    // The replica stops: both nodes read from the primary; a load meanwhile; the replica comes back.
    await replica.stop();
    for (const node of nodes)
      await until('the node to leave the replica out', async () => (await metric(node, 'heritage_store_replicas_in_use')) === 0);
    await load(2);
    await replica.start();
    for (const node of nodes)
      await until('the node to read from the replica again', async () => (await metric(node, 'heritage_store_reads_from_primary')) === 0);

    // The primary stops: reads go on from the replica; writes are refused with the 503's message.
    await primary.stop();
    for (const node of nodes)
      await until('the node to see the primary gone', async () => (await metric(node, 'heritage_store_primary_reachable')) === 0);
    const during = answers.length;
    await until('requests served while the primary is down', () => answers.length > during + 200);
    for (const node of nodes) assert.equal((await fetch(`${node.base}/health/ready`)).status, 200, 'ready while reads can be served');
    for (const write of [
      ['keys', 'create', '--name', 'during'],
      ['ingest', 'items', ...GROUPS[3]!],
    ]) {
      const refused = await cli(write);
      assert.equal(refused.code, 1, refused.stderr);
      assert.ok(refused.stderr.includes(`heritage-api: ${PRIMARY_DOWN}`), refused.stderr);
    }

    // The primary is back: writes resume.
    await primary.start();
    for (const node of nodes)
      await until('the node to see the primary again', async () => (await metric(node, 'heritage_store_primary_reachable')) === 1);
    await load(3);
    stop = true;
    await Promise.all(loops);

    // The final bytes of every item, from the primary itself.
    const onPrimary = await openPostgresStore({ url: primary.url });
    const primaryApp = await buildServer(loadConfig({ flags: { store: { backend: 'postgres', url: primary.url } } }), onPrimary, {
      logging: false,
    });
    const final = new Map<string, Answer>();
    try {
      for (const id of ids) {
        for (const path of [`/items/${id}/aip`, `/items/${id}/parents`]) {
          const res = await primaryApp.inject({ url: path, headers });
          final.set(path, { status: res.statusCode, body: res.body });
        }
      }
      assert.equal(await onPrimary.countItems(), ids.length, 'every record loaded is in the primary');
    } finally {
      await primaryApp.close();
      await onPrimary.close();
    }
    for (const id of ids) {
      assert.equal(final.get(`/items/${id}/aip`)!.status, 200, id);
      assert.equal(final.get(`/items/${id}/parents`)!.body, expectedParents.get(id), `the hierarchy of ${id} is SQLite's`);
    }

    // Judge every answer of the loop.
    const wrong: string[] = [];
    let notYet = 0;
    for (const a of answers) {
      if (a.answer.status >= 500) {
        wrong.push(`${a.path} on node ${a.node}: ${a.answer.status} ${a.answer.body}`);
        continue;
      }
      const done = loadedAt.get(groupOf.get(a.id)!);
      const settled = done !== undefined && a.at > done + STALE_MS;
      const expected = final.get(a.path)!;
      if (a.answer.status === expected.status && a.answer.body === expected.body) continue;
      if (!settled && a.answer.status === 404 && JSON.parse(a.answer.body).name === 'ItemNotFoundException') {
        notYet++;
        continue;
      }
      // A hierarchy answered while its group was still loading may lack an ancestor not yet loaded.
      if (!settled && a.path.endsWith('/parents') && a.answer.status === 200) continue;
      wrong.push(
        `${a.path} on node ${a.node} at ${a.at - (done ?? 0)} ms after its load: ${a.answer.status} ${a.answer.body.slice(0, 200)}`,
      );
    }
    // A 5xx's cause is in its node's log under the request id the body quotes: show it with the failure.
    const causes = wrong
      .slice(0, 3)
      .map((w) => /"requestId":"([^"]+)"/.exec(w)?.[1])
      .flatMap((rid) => (rid === undefined ? [] : nodes.flatMap((n) => n.log.split('\n').filter((l) => l.includes(rid)))));
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} wrong answers of ${answers.length}; logged: ${causes.join('\n')}`);
    assert.ok(answers.length > 1000, `${answers.length} answers, ${notYet} before their load`);
    t.diagnostic(`${answers.length} answers judged: ${answers.length - notYet} final bytes, ${notYet} 404 before their load was done`);

    // 0 lost records: every item answers on both nodes with its final bytes, and the search counts them all.
    for (const node of nodes) {
      for (const id of ids) {
        const path = `/items/${id}/aip`;
        const res = await fetch(`${node.base}${path}`, { headers });
        assert.deepEqual({ status: res.status, body: await res.text() }, final.get(path), `${path} at the end`);
      }
      await until('the search to count every item', async () => {
        const res = await fetch(`${node.base}/search?rows=0`, { headers });
        return (JSON.parse(await res.text()) as { numberOfResults: number }).numberOfResults === ids.length;
      });
    }
  } finally {
    for (const node of nodes) {
      node.child.kill('SIGTERM');
      await new Promise((resolve) => (node.child.exitCode === null ? node.child.once('exit', resolve) : resolve(undefined)));
    }
    await cluster.close();
    await referenceApp.close();
    await reference.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
