/**
 * /health/live, /health/ready and /metrics (docs/api.md "Health and metrics"), on the real
 * server over a real socket (so that the fast path in front of Fastify is
 * counted too), with whole bodies for health and /metrics parsed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { notFoundMessage } from '../helpers/operations.js';
import { rawRequest } from '../helpers/raw.js';

/** Samples of a Prometheus text exposition: "name{labels}" -> value. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const requests = (m: Map<string, number>, route: string, status: number) =>
  m.get(`heritage_http_requests_total{route="${route}",status="${status}"}`) ?? 0;

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

/** Polls until the condition holds (no fixed wait: a busy machine only takes longer). */
async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function metrics(base: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} /health/ready is a 503 with the catalog's body until the search index is built, then ready; /health/live always`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      // Not listening: the search workers have not been started, so the index cannot be built.
      const early = await t.app.inject({ url: '/health/ready' });
      assert.equal(early.statusCode, 503);
      assert.equal(early.headers['retry-after'], '5');
      assert.equal(early.headers['cache-control'], 'no-store');
      assert.deepEqual(early.json(), {
        status: 503,
        name: 'NotReadyException',
        message:
          'This server is not ready to answer: the search index is still being built. Retry after 5 seconds (see the Retry-After header); /health/live tells whether the process runs at all.',
      });
      // Live needs neither a key nor an Accept, and answers at once.
      const live = await t.app.inject({ url: '/health/live' });
      assert.equal(live.statusCode, 200);
      assert.equal(live.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(live.body, '{"status":"live"}');

      const base = await listen(t);
      await until('/health/ready to say ready', async () => (await fetch(`${base}/health/ready`)).status === 200);
      const ready = await fetch(`${base}/health/ready`);
      assert.equal(ready.headers.get('cache-control'), 'no-store');
      assert.equal(await ready.text(), '{"status":"ready"}');
      // HEAD, as some balancers probe.
      assert.equal((await fetch(`${base}/health/ready`, { method: 'HEAD' })).status, 200);
    } finally {
      await t.close();
    }
  });

  test(`${b} /health/ready is a 503 when the store does not answer, and the failure is counted`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const base = await listen(t);
      await until('/health/ready to say ready', async () => (await fetch(`${base}/health/ready`)).status === 200);
      await t.store.close();
      const res = await fetch(`${base}/health/ready`);
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), {
        status: 503,
        name: 'NotReadyException',
        message:
          'This server is not ready to answer: the store does not answer. Retry after 5 seconds (see the Retry-After header); /health/live tells whether the process runs at all.',
      });
      assert.equal((await fetch(`${base}/health/live`)).status, 200);
      const m = parse((await metrics(base)).text);
      assert.ok((m.get('heritage_store_errors_total{operation="dataVersion"}') ?? 0) >= 1, 'the failing dataVersion() is counted');
    } finally {
      await t.app.close();
    }
  });

  test(`${b} /metrics counts requests by route pattern and status, fast path included, with latencies`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const base = await listen(t);
      const before = parse((await metrics(base)).text);
      const auth = { authorization: t.json.authorization!, accept: 'application/json' };
      // Three answered by the fast path (no query, key in the header), two by Fastify (a query string).
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${base}/items/${CHAPTER_ID}/parents`, { headers: auth })).status, 200);
      for (let i = 0; i < 2; i++)
        assert.equal((await fetch(`${base}/items/${CHAPTER_ID}/parents?oauth_nonce=1`, { headers: auth })).status, 200);
      assert.equal((await fetch(`${base}/items/${CHAPTER_ID}/aip`, { headers: auth })).status, 200);
      assert.equal((await fetch(`${base}/items/NOSUCHITEM/parents`, { headers: auth })).status, 404);
      assert.equal((await fetch(`${base}/items/${CHAPTER_ID}/parents`, { headers: { accept: 'application/json' } })).status, 401);
      assert.equal((await fetch(`${base}/nowhere`, { headers: auth })).status, 404);

      const res = await metrics(base);
      assert.equal(res.status, 200);
      assert.equal(res.type, 'text/plain; version=0.0.4; charset=utf-8');
      const after = parse(res.text);
      const delta = (route: string, status: number) => requests(after, route, status) - requests(before, route, status);
      assert.equal(delta('/items/:id/parents', 200), 5);
      assert.equal(delta('/items/:id/aip', 200), 1);
      assert.equal(delta('/items/:id/parents', 404), 1);
      assert.equal(delta('/items/:id/parents', 401), 1);
      assert.equal(delta('(unmatched)', 404), 1);
      // The first scrape is counted by the time of the second.
      assert.equal(requests(after, '/metrics', 200), 1);
      const count = after.get('heritage_http_request_duration_seconds_count{route="/items/:id/parents"}');
      assert.equal(count, 7);
      assert.equal(after.get('heritage_http_request_duration_seconds_bucket{le="+Inf",route="/items/:id/parents"}'), 7);
      assert.ok(after.get('heritage_http_request_duration_seconds_sum{route="/items/:id/parents"}')! > 0);
      // The search, the index and the process.
      assert.equal(after.get('heritage_search_workers'), 1);
      assert.equal(after.get('heritage_search_queued'), 0);
      assert.equal(after.get('heritage_search_timeouts_total'), 0);
      assert.ok(after.has('process_cpu_user_seconds_total'));
      assert.ok(after.has('nodejs_eventloop_lag_seconds'));
      await until('the index to be built', async () => parse((await metrics(base)).text).get('heritage_search_index_built') === 1);
      assert.equal(parse((await metrics(base)).text).get('heritage_search_index_age_seconds'), 0);
      // The worker's heap, which holds the indexes and which the process's own heap metrics do not count.
      const heapOf = async () => parse((await metrics(base)).text).get('heritage_search_heap_bytes') ?? 0;
      await until('the search worker to report its heap', async () => (await heapOf()) > 1_000_000);
      assert.ok((await heapOf()) < 2 ** 32, 'a heap of a test index, not a sum gone wrong');
    } finally {
      await t.close();
    }
  });

  test(`${b} no key, query text or item id reaches /metrics, however the request is written`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const base = await listen(t);
      const port = Number(new URL(base).port);
      const key = t.key;
      const item = `/items/${CHAPTER_ID}`;
      const percentAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
      const targets = [
        `${item}/parents?oauth_consumer_key=${key}`,
        `${item}/aip?OAUTH_CONSUMER_KEY=${key}`,
        `${item}/parents?oauth%5Fconsumer%5Fkey=${key}`,
        `${item}/parents?${percentAll('oauth_consumer_key')}=${percentAll(key)}`,
        `/entities?query=secretquerytext&oauth_consumer_key=${key}`,
        `/entities?query=%zz&oauth_consumer_key=${key}`,
        `${item}/parents;oauth_consumer_key=${key}`,
        `${item}/parents/oauth_consumer_key/${key}`,
        `/items/oauth_consumer_key=${key}/parents`,
        `/items/${key}`,
        `/${key}`,
        `/nowhere?oauth_consumer_key=${key}`,
      ];
      for (const target of targets) {
        await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
      }
      await rawRequest(
        port,
        `GET ${item}/parents HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nAuthorization: OAuth oauth_consumer_key="${key}"\r\nConnection: close\r\n\r\n`,
      );
      const text = (await metrics(base)).text;
      for (const secret of [key, percentAll(key), key.toLowerCase(), 'secretquerytext', CHAPTER_ID, 'oauth']) {
        assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), `${secret} appears in /metrics`);
      }
      // Every request was counted, under a route pattern.
      const total = [...parse(text)]
        .filter(([k]) => k.startsWith('heritage_http_requests_total{') && !k.includes('route="/metrics"'))
        .reduce((n, [, v]) => n + v, 0);
      assert.equal(total, targets.length + 1);
    } finally {
      await t.close();
    }
  });

  test(`${b} metrics.requireKey asks /metrics for a key; metrics.enabled false removes it; neither is in /openapi.json`, async () => {
    const keyed = await startTestApp(backend, { flags: { metrics: { requireKey: true } } });
    try {
      const res = await keyed.app.inject({ url: '/metrics' });
      assert.equal(res.statusCode, 401);
      const ok = await keyed.app.inject({ url: '/metrics', headers: { authorization: keyed.json.authorization! } });
      assert.equal(ok.statusCode, 200);
      assert.match(ok.body, /^# HELP /m);
      const paths = Object.keys((await keyed.app.inject({ url: '/openapi.json', headers: { accept: 'application/json' } })).json().paths);
      assert.ok(paths.length > 0);
      assert.deepEqual(
        paths.filter((p) => p.startsWith('/health') || p === '/metrics'),
        [],
      );
    } finally {
      await keyed.close();
    }
    const off = await startTestApp(backend, { flags: { metrics: { enabled: false } } });
    try {
      const res = await off.app.inject({ url: '/metrics', headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), {
        status: 404,
        name: 'NotFoundException',
        message: await notFoundMessage(off.app, 'GET', '/metrics'),
      });
    } finally {
      await off.close();
    }
  });
}
