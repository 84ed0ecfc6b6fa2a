/**
 * The request log (src/http/requestLog.ts; docs/configuration.md "The request log"): at the
 * default log level the fast path answers, and it writes the very line
 * the routes write for the same request, fields and their order; neither path
 * ever logs a key. The batching sink of standard output (src/http/logSink.ts)
 * loses no line and keeps their order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DEFAULTS } from '../../src/config.js';
import { createBatchedSink } from '../../src/http/logSink.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';

const TREE = [
  { id: 'ROOTITEM', title: 'Root', htype: 'htype_020', aggregationEntity: true },
  { id: 'VOLITEM', title: 'Volume 1', htype: 'htype_007', position: '1', parent: 'ROOTITEM' },
];

/** Marks the requests made over the socket, so that those of inject are not counted. */
const SOCKET_MARK = 'x-test-socket';

interface Logged {
  lines: () => Array<Record<string, unknown>>;
  text: () => string;
  stream: PassThrough;
}

function capture(): Logged {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** Waits until `check` holds (the log is written once the answer is: its lines may follow the response). */
async function until(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 10_000) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function get(port: number, path: string, headers: OutgoingHttpHeaders): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { host: 'localhost', ...headers, [SOCKET_MARK]: '1' }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function listening(t: TestApp): Promise<{ port: number; reachedFastify: () => number }> {
  let reached = 0;
  t.app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers[SOCKET_MARK]) reached++;
    done();
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (t.app.server.address() as { port: number }).port, reachedFastify: () => reached };
}

/** A request's line with the values that differ between two answers (time, id, duration) replaced. */
function shape(lines: Array<Record<string, unknown>>): string {
  assert.equal(lines.length, 1, 'one line per request');
  const [line] = lines as [Record<string, unknown>];
  assert.match(String(line.reqId), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(typeof line.time, 'number');
  assert.ok(typeof line.responseTime === 'number' && line.responseTime >= 0, 'responseTime in ms');
  return JSON.stringify({ ...line, time: 'T', reqId: 'ID', responseTime: 'MS' });
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} at log level info the fast path answers and logs each request as the routes do, in one line`, async () => {
    // The default is warn (docs/configuration.md "The request log"): request lines are asked for.
    assert.equal(DEFAULTS.server.logLevel, 'warn');
    const log = capture();
    const t = await startTestApp(backend, {
      load: [writePackages(TREE)],
      flags: { server: { logLevel: 'info' } },
      server: { logging: true, logStream: log.stream },
    });
    try {
      const { port, reachedFastify } = await listening(t);
      await until(() => log.text().includes('Server listening'), 'the listening line');
      const requestLines = () => log.lines().filter((l) => l.reqId !== undefined);
      const cases = [
        { path: '/items/VOLITEM/parents', headers: t.json },
        { path: '/items/VOLITEM/parents', headers: t.xml },
        { path: '/items/VOLITEM/aip', headers: t.json },
        { path: '/items/VOLITEM', headers: { ...t.xml, 'accept-encoding': 'gzip' } },
      ];
      for (const [n, c] of cases.entries()) {
        const before = requestLines().length;
        assert.equal(await get(port, c.path, c.headers), 200, c.path);
        assert.equal(reachedFastify(), 0, `${c.path}: answered by the fast path`);
        await until(() => requestLines().length === before + 1, 'the fast path line');
        const fast = requestLines().slice(before);
        await t.app.inject({ url: c.path, headers: c.headers });
        await until(() => requestLines().length === before + 2, 'the route line');
        const route = requestLines().slice(before + 1);
        assert.equal(shape(fast), shape(route), `${c.path}: the same lines`);
        assert.notEqual(fast[0]!.reqId, route[0]!.reqId, 'each request its own id');
        if (n === 0) {
          // The fields themselves, once, so that a change in both paths is seen too.
          assert.equal(
            shape(fast),
            JSON.stringify({
              level: 30,
              time: 'T',
              pid: process.pid,
              hostname: fast[0]!.hostname,
              reqId: 'ID',
              req: { method: 'GET', url: '/items/VOLITEM/parents', remoteAddress: '127.0.0.1' },
              res: { statusCode: 200 },
              responseTime: 'MS',
              msg: 'request completed',
            }),
          );
        }
      }
      // A parents request with Accept-Encoding goes to Fastify over the socket: its lines too are the same.
      const before = requestLines().length;
      assert.equal(await get(port, '/items/VOLITEM/parents', { ...t.json, 'accept-encoding': 'gzip' }), 200);
      assert.equal(reachedFastify(), 1);
      await until(() => requestLines().length === before + 1, 'the route line');
      await get(port, '/items/VOLITEM/parents', t.json);
      await until(() => requestLines().length === before + 2, 'the fast path line');
      assert.equal(reachedFastify(), 1);
      assert.equal(shape(requestLines().slice(before, before + 1)), shape(requestLines().slice(before + 1)));
    } finally {
      await t.close();
    }
  });

  test(`${b} no key in the request log of either path, however it is sent`, async () => {
    const log = capture();
    const t = await startTestApp(backend, {
      load: [writePackages(TREE)],
      flags: { server: { logLevel: 'info' } },
      server: { logging: true, logStream: log.stream },
    });
    try {
      const { port, reachedFastify } = await listening(t);
      // Fast path: the key in the Authorization header.
      await get(port, '/items/VOLITEM/parents', t.json);
      await get(port, '/items/VOLITEM/aip', t.xml);
      assert.equal(reachedFastify(), 0);
      // Fastify: the key in the query string, plain and encoded, and a wrong one.
      const key = encodeURIComponent(t.key);
      for (const query of [`oauth_consumer_key=${key}`, `a=1&oauth_consumer_key=${key}`, 'oauth_consumer_key=wrong-key-123']) {
        await get(port, `/items/VOLITEM/parents?${query}`, { accept: 'application/json' });
      }
      assert.equal(reachedFastify(), 3);
      await until(() => log.lines().filter((l) => l.msg === 'request completed').length === 5, 'five requests logged');
      assert.ok(log.text().includes('oauth_consumer_key=[redacted]'), 'the query parameter is shown redacted');
      assert.equal(log.text().includes(t.key), false, 'the key');
      assert.equal(log.text().includes(key), false, 'the key, encoded');
      assert.equal(log.text().includes('wrong-key-123'), false, 'a wrong key');
      assert.equal(/authorization/i.test(log.text()), false, 'the Authorization header');
    } finally {
      await t.close();
    }
  });

  test(`${b} behind a trusted proxy the fast path leaves X-Forwarded-For to Fastify; at warn nothing is logged per request`, async () => {
    const log = capture();
    const t = await startTestApp(backend, {
      load: [writePackages(TREE)],
      flags: { server: { trustProxy: true, logLevel: 'info' } },
      server: { logging: true, logStream: log.stream },
    });
    try {
      const { port, reachedFastify } = await listening(t);
      await get(port, '/items/VOLITEM/parents', t.json);
      assert.equal(reachedFastify(), 0, 'no X-Forwarded-For: the fast path');
      await get(port, '/items/VOLITEM/parents', { ...t.json, 'x-forwarded-for': '203.0.113.7, 10.0.0.1' });
      assert.equal(reachedFastify(), 1, 'X-Forwarded-For: Fastify');
      await until(() => log.lines().filter((l) => l.msg === 'request completed').length === 2, 'two requests logged');
      const addresses = log
        .lines()
        .filter((l) => l.msg === 'request completed')
        .map((l) => (l.req as { remoteAddress: string }).remoteAddress);
      assert.deepEqual(addresses, ['127.0.0.1', '203.0.113.7']);
    } finally {
      await t.close();
    }

    const quiet = capture();
    const w = await startTestApp(backend, {
      load: [writePackages(TREE)],
      flags: { server: { logLevel: 'warn' } },
      server: { logging: true, logStream: quiet.stream },
    });
    try {
      const { port, reachedFastify } = await listening(w);
      assert.equal(await get(port, '/items/VOLITEM/parents', w.json), 200);
      assert.equal(await get(port, '/items/VOLITEM/parents', { ...w.json, 'accept-encoding': 'gzip' }), 200);
      assert.equal(reachedFastify(), 1);
      await w.app.inject({ url: '/items/VOLITEM/parents', headers: w.json });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(quiet.text(), '');
    } finally {
      await w.close();
    }
  });
}

test('the batched sink writes a turn’s lines at once, in order, and the rest on close', async () => {
  const target = new PassThrough();
  const writes: string[] = [];
  target.on('data', (d: Buffer) => writes.push(d.toString()));
  const sink = createBatchedSink(target);
  try {
    sink.write('a\n');
    sink.write('b\n');
    sink.write('c\n');
    assert.deepEqual(writes, [], 'nothing before the turn ends');
    await until(() => writes.length > 0, 'the first write');
    assert.deepEqual(writes, ['a\nb\nc\n']);
    sink.write('d\n');
    let flushed = false;
    sink.flush(() => (flushed = true));
    assert.ok(flushed);
    await until(() => writes.length === 2, 'the flushed line');
    assert.deepEqual(writes, ['a\nb\nc\n', 'd\n']);
    sink.write('e\n');
  } finally {
    sink.close();
  }
  await until(() => writes.length === 3, 'the line written on close');
  assert.deepEqual(writes.join(''), 'a\nb\nc\nd\ne\n');
});

test('lines of the last turn reach standard output when the process exits at once', () => {
  const sinkModule = fileURLToPath(new URL('../../src/http/logSink.ts', import.meta.url));
  const script = `
    const { createLogSink } = await import(${JSON.stringify(sinkModule)});
    const sink = createLogSink();
    for (let i = 0; i < 1000; i++) sink.write('line ' + i + '\\n');
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(out, Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join(''));
});
