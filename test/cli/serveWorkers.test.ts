/**
 * `heritage-api serve --workers 2` as an operator runs it (docs/deployment.md "Workers"), on each
 * backend: the same bytes as one process for items, hierarchy, searches and their
 * errors, from both worker processes; the rate limits of the API and of the pages hold
 * for the node, whichever worker answers; /metrics counts the node; a killed worker is
 * replaced while the others answer; SIGTERM stops the node with exit code 0.
 *
 * Which worker answered is read from the request log (`--log-level info`), whose lines
 * carry the process id as pino's do: nothing of it reaches a client.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS, SQLITE, type TestBackend } from '../helpers/backends.js';
import { MAIN, spawnCli } from '../helpers/cli.js';
import { CHAPTER_ID, FIXTURES } from '../helpers/paths.js';

/** The API's and the pages' limits per window (an hour: no window ends during a test). */
const API_LIMIT = 40;
const PAGE_LIMIT = 5;

interface Answer {
  status: number;
  contentType: string | undefined;
  retryAfter: string | undefined;
  body: string;
}

/** A request on a connection of its own, so that the primary hands each to the next worker. */
function ask(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpGet(`${base}${path}`, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          contentType: res.headers['content-type'],
          retryAfter: res.headers['retry-after'],
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    }).on('error', reject);
  });
}

/** Polls `check` until it holds: waits for a condition, never for a time. */
async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Node {
  child: ChildProcess;
  base: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `serve` as its own process on `location`, once it says where it listens and /health/ready says ready. */
async function serve(backend: TestBackend, location: string, workers: number): Promise<Node> {
  const store = backend.config(location);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HERITAGE_API_STORE_BACKEND: store.backend,
    ...(store.backend === 'postgres' ? { HERITAGE_API_STORE_URL: store.url } : { HERITAGE_API_STORE_PATH: store.path }),
    HERITAGE_API_HTTP_RATE_LIMIT_MAX: String(API_LIMIT),
    HERITAGE_API_HTTP_RATE_LIMIT_WINDOW_SECONDS: '3600',
    HERITAGE_API_WEB_RATE_LIMIT_MAX: String(PAGE_LIMIT),
    HERITAGE_API_WEB_RATE_LIMIT_WINDOW_SECONDS: '3600',
    // A wildcard that stands for more than two words is refused by the index host: its 400 crosses the IPC.
    HERITAGE_API_SEARCH_MAX_EXPANSIONS_PER_TERM: '2',
  };
  const args = ['--import', import.meta.resolve('tsx'), MAIN, '--log-level', 'info', 'serve', '--port', '0', '--workers', String(workers)];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = await until('the server to listen', () => {
    if (child.exitCode !== null) throw new Error(`serve exited: ${stderr}`);
    return /listening on (http:\/\/[^ ]+)/.exec(stderr)?.[1];
  });
  await until('/health/ready', async () => (await ask(base, '/health/ready')).status === 200);
  return { child, base, stdout: () => stdout, stderr: () => stderr, exited };
}

/** The request log's lines (pino's JSON, one a line). */
function requestLines(node: Node): Array<{ pid: number; url: string; status: number }> {
  return node
    .stdout()
    .split('\n')
    .filter((l) => l.includes('"request completed"'))
    .map((l) => JSON.parse(l) as { pid: number; req: { url: string }; res: { statusCode: number } })
    .map((l) => ({ pid: l.pid, url: l.req.url, status: l.res.statusCode }));
}

/** The processes that said they listen (Fastify's line at log level info). */
function listeningPids(node: Node): number[] {
  return node
    .stdout()
    .split('\n')
    .filter((l) => l.includes('"Server listening at'))
    .map((l) => (JSON.parse(l) as { pid: number }).pid);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

for (const backend of BACKENDS) {
  test(`serve --workers 2 on ${backend.name}: one process's bytes from both workers, limits for the node, a killed worker replaced, SIGTERM exits 0`, async () => {
    const opened = await backend.open();
    const nodes: Node[] = [];
    try {
      await ingestItems(opened.store, [`${FIXTURES}items/cortex`], { batchSize: 100 });
      await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
      const [compared, limited, later] = [generateApiKey(), generateApiKey(), generateApiKey()];
      await opened.store.createKey('compared', hashApiKey(compared));
      await opened.store.createKey('limited', hashApiKey(limited));
      await opened.store.createKey('later', hashApiKey(later));
      const json = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${compared}"` };
      const xml = { ...json, accept: 'application/xml' };
      const routes: Array<[string, Record<string, string>]> = [
        [`/items/${CHAPTER_ID}/aip`, json],
        [`/items/${CHAPTER_ID}/aip`, xml],
        [`/items/${CHAPTER_ID}/parents`, json],
        ['/search?query=Goethe&rows=3', json],
        ['/entities?query=Goethe&rows=2', json],
        ['/search/suggest?query=GOE&rows=5', json],
        ['/search/person/suggest?query=goe', json],
        // The index host's own 400 (src/search/ipcSearch.ts carries it across).
        ['/entities?query=*e*', json],
      ];

      const single = await serve(backend, opened.location, 1);
      nodes.push(single);
      const expected: Answer[] = [];
      for (const [path, headers] of routes) expected.push(await ask(single.base, path, headers));
      single.child.kill('SIGTERM');
      assert.deepEqual(await single.exited, { code: 0, signal: null });
      assert.deepEqual(
        expected.map((a) => a.status),
        [200, 200, 200, 200, 200, 200, 200, 400],
      );
      assert.match(expected[7]!.body, /WildcardTooBroadException|too broad|stands for/i);

      const node = await serve(backend, opened.location, 2);
      nodes.push(node);
      // Each route four times, each on a new connection: the primary hands them to the workers in turn.
      for (const [i, [path, headers]] of routes.entries()) {
        for (let n = 0; n < 4; n++)
          assert.deepEqual(await ask(node.base, path, headers), expected[i], `${path} (${headers.accept}), ask ${n + 1}`);
      }
      const workers = new Set(requestLines(node).map((l) => l.pid));
      assert.equal(workers.size, 2, `two worker processes answered: ${[...workers].join(', ')}`);
      assert.equal(workers.has(node.child.pid!), false, 'the primary serves no HTTP');
      // /metrics counts the node's requests, whichever worker answered them.
      const metrics = (await ask(node.base, '/metrics')).body;
      assert.match(metrics, /^heritage_http_requests_total\{route="\/items\/:id\/aip",status="200"\} 8$/m);
      assert.match(metrics, /^heritage_search_index_built 1$/m);

      // The API's limit holds for the node: API_LIMIT answers, then 429s, from both workers.
      const children = `/items/${CHAPTER_ID}/children`;
      const limitedHeaders = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${limited}"` };
      for (let n = 0; n < API_LIMIT; n++) assert.equal((await ask(node.base, children, limitedHeaders)).status, 200, `request ${n + 1}`);
      for (let n = 0; n < 4; n++) {
        const refused = await ask(node.base, children, limitedHeaders);
        assert.equal(refused.status, 429);
        assert.match(refused.body, /"name":"TooManyRequestsException"/);
      }
      await until('the log of the limited requests', () => requestLines(node).filter((l) => l.url === children).length === API_LIMIT + 4);
      assert.deepEqual(
        new Set(
          requestLines(node)
            .filter((l) => l.url === children && l.status === 429)
            .map((l) => l.pid),
        ),
        workers,
        'both workers refused',
      );
      // The pages' limit per address too.
      const page = { accept: 'text/html' };
      for (let n = 0; n < PAGE_LIMIT; n++) assert.equal((await ask(node.base, '/', page)).status, 200, `page ${n + 1}`);
      assert.equal((await ask(node.base, '/', page)).status, 429);
      assert.equal((await ask(node.base, '/', page)).status, 429);

      // A killed worker is replaced, and the node answers all along.
      const [victim] = [...workers];
      process.kill(victim!, 'SIGKILL');
      await until('the replacement', () => node.stderr().includes(`worker process ${victim} exited on SIGKILL; starting another.`));
      assert.deepEqual(await ask(node.base, `/items/${CHAPTER_ID}/parents`, json), expected[2], 'the node answers meanwhile');
      // Its start takes a while on a busy machine: asked only once it listens, so the key's limit is not used up meanwhile.
      const fresh = await until('the new worker to listen', () => listeningPids(node).find((pid) => !workers.has(pid)));
      await until('a request answered by the new worker', async () => {
        const answer = await ask(node.base, `/items/${CHAPTER_ID}/parents`, {
          ...json,
          authorization: `OAuth oauth_consumer_key="${later}"`,
        });
        assert.deepEqual(answer, expected[2]);
        return requestLines(node).some((l) => l.pid === fresh) || undefined;
      });
      assert.equal(alive(fresh), true);

      const pids = new Set(requestLines(node).map((l) => l.pid));
      node.child.kill('SIGTERM');
      assert.deepEqual(await node.exited, { code: 0, signal: null }, node.stderr());
      for (const pid of pids) assert.equal(alive(pid), false, `worker ${pid} stopped`);
    } finally {
      for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
      await opened.dispose();
    }
  });
}

test('serve --workers 2 on a port in use says so in the one sentence of one process, exit code 1, and leaves no process behind', async () => {
  const opened = await SQLITE.open();
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    await ingestItems(opened.store, [`${FIXTURES}items/cortex`], { batchSize: 100 });
    // spawnCli returns once every process holding its output has ended: the workers too.
    const run = await spawnCli(['--db', opened.location, 'serve', '--port', String(port), '--workers', '2']);
    assert.deepEqual(run, {
      code: 1,
      signal: null,
      stdout: '',
      stderr: `heritage-api: Port ${port} on 127.0.0.1 is in use by another program: stop that program, or choose another port with --port PORT (0 picks a free one).\n`,
    });
  } finally {
    taken.close();
    await opened.dispose();
  }
});
