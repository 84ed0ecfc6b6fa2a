/**
 * How fresh the item index stays while another process loads items (docs/search-engine.md
 * "The store's change feed"),
 * without the rest of `npm run bench`:
 *
 *   node --import tsx bench/freshness.ts --db FILE --items DIR [--items DIR …] [--query WORD]
 *
 * Starts `heritage-api --db FILE serve` (dist/, so `npm run build` first), waits for
 * /health/ready, then runs `heritage-api ingest items DIR …` into the same store. Meanwhile
 * it asks one search after another (the query WORD + a facet, rows 20: what a reader does)
 * and, every 200 ms, compares the items committed (a read-only connection to the store)
 * with the items the index finds (`*:*`, rows 0). It prints, as one JSON line: the load's
 * rate, the searches' p50 / p99 / max latency during the load, the largest lag seen
 * (documents and seconds: how long ago the store held as many items as the index holds
 * now), how long after the load ended the index held every item, and the server's peak
 * RSS (VmHWM). The store is written to: run it on a copy.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    items: { type: 'string', multiple: true },
    query: { type: 'string', default: 'stadt' },
    /** A flag for the server's node (e.g. --cpu-prof), repeatable. */
    node: { type: 'string', multiple: true, default: [] },
    /** Another build to serve and load with (its dist/cli/main.js), e.g. the commit before a change. */
    cli: { type: 'string' },
    /** No searches during the load: the lag polls alone ask the index (as the bench's `parents` row leaves it). */
    'lag-only': { type: 'boolean', default: false },
  },
});
if (values.db === undefined || values.items === undefined)
  throw new Error('usage: bench/freshness.ts --db FILE --items DIR [--items DIR …] [--query WORD]');
const db = values.db;
const CLI = values.cli ?? join(ROOT, 'dist/cli/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const key = execFileSync(process.execPath, [CLI, '--db', db, 'keys', 'create', '--name', `freshness-${process.pid}`], {
  encoding: 'utf8',
}).trim();
const headers = { authorization: `OAuth oauth_consumer_key="${key}"`, accept: 'application/json' };
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [...values.node, CLI, '--db', db, 'serve', '--port', String(port)], {
  stdio: ['ignore', 'ignore', 'pipe'],
  env: { ...process.env, HERITAGE_API_WEB_RATE_LIMIT_MAX: '0' },
});
await new Promise<void>((resolve, reject) => {
  let err = '';
  server.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.includes('listening on')) resolve();
  });
  server.once('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = performance.now();
// Not ready after 3 minutes: searches wake the workers (a build that waited for one, before
// commit "Schedule the index passes on timers"), and the ready time is reported as null.
let woken = false;
// Each body read to its end: an unread one keeps its connection, and after a long build the
// next request waited for undici's 300 s headers timeout.
const ready = async () => {
  const r = await fetch(`${base}/health/ready`);
  await r.arrayBuffer();
  return r.status === 200;
};
while (!(await ready())) {
  woken ||= performance.now() - started > 180_000;
  if (woken) await fetch(`${base}/search?query=*:*&rows=0`, { headers }).then((r) => r.arrayBuffer());
  else await sleep(500);
}
const readySeconds = woken ? null : +((performance.now() - started) / 1000).toFixed(1);

async function indexed(): Promise<number> {
  const r = await fetch(`${base}/search?query=*:*&rows=0`, { headers });
  if (r.status !== 200) throw new Error(`*:* answered ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { numberOfResults: number }).numberOfResults;
}

const store = new Database(db, { readonly: true, fileMustExist: true });
const committedNow = store
  .prepare<[], number>('SELECT count(*) FROM items i WHERE NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)')
  .pluck();
const before = committedNow.get()!;
if ((await indexed()) !== before) throw new Error('the index does not hold every item before the load');

const ingestStarted = performance.now();
const ingest = spawn(process.execPath, [CLI, '--db', db, 'ingest', 'items', ...values.items], { stdio: ['ignore', 'ignore', 'inherit'] });
let loading = true;
const exited = new Promise<number | null>((resolve) => ingest.once('exit', (code) => resolve(code)));
void exited.then(() => (loading = false));

// One search after another while the load runs.
const latencies: number[] = [];
const probe = (async () => {
  const path = `/search?query=${encodeURIComponent(values.query)}&facet=place_fct&facet=type_fct&rows=20`;
  while (loading && !values['lag-only']) {
    const t = performance.now();
    const r = await fetch(`${base}${path}`, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    latencies.push(performance.now() - t);
  }
})();

// When the store first held at least n items (ms), to turn an index count into a lag.
const committedAt: Array<{ n: number; at: number }> = [];
let maxLagDocs = 0;
let maxLagMs = 0;
const lagOf = (n: number, now: number): number => {
  // The first time the store held more than n items: the index lags since then.
  const first = committedAt.find((c) => c.n > n);
  return first === undefined ? 0 : now - first.at;
};
for (;;) {
  const committed = committedNow.get()!;
  const now = performance.now();
  if (committedAt.length === 0 || committed > committedAt[committedAt.length - 1]!.n) committedAt.push({ n: committed, at: now });
  const n = await indexed();
  maxLagDocs = Math.max(maxLagDocs, committed - n);
  maxLagMs = Math.max(maxLagMs, lagOf(n, now));
  if (!loading) break;
  await sleep(200);
}
const code = await exited;
await probe;
if (code !== 0) throw new Error(`ingest exited with ${code}`);
const loadEnded = performance.now();
const total = committedNow.get()!;
for (;;) {
  const n = await indexed();
  if (n === total) break;
  if (performance.now() - loadEnded > 300_000) throw new Error(`the index held ${n} of ${total} items 300 s after the load`);
  await sleep(50);
}
const searchableAfter = (performance.now() - loadEnded) / 1000;
const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
server.kill('SIGINT');
await new Promise((resolve) => server.once('exit', resolve));
store.close();

latencies.sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
const loadSeconds = (loadEnded - ingestStarted) / 1000;
console.log(
  JSON.stringify({
    readySeconds,
    itemsBefore: before,
    loaded: total - before,
    loadSeconds: +loadSeconds.toFixed(1),
    packagesPerSecond: Math.round((total - before) / loadSeconds),
    searches: latencies.length,
    searchP50: +q(0.5).toFixed(1),
    searchP99: +q(0.99).toFixed(1),
    searchMax: +q(1).toFixed(1),
    maxLagDocs,
    maxLagSeconds: +(maxLagMs / 1000).toFixed(2),
    searchableAfterSeconds: +searchableAfter.toFixed(2),
    serverPeakRssMb: Math.round(hwm),
  }),
);
