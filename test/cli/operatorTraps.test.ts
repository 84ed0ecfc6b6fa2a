/**
 * What a careless operator runs into (docs/cli.md "The store is created by loads only",
 * "demo"): a second demo while one runs, a load of files that are not there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { cli, collect, MAIN, type ProcessRun } from '../helpers/cli.js';
import { CORTEX_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

interface Demo {
  child: ChildProcess;
  base: string;
  key: string;
  stderr(): string;
}

const demoArgs = (db: string, port: number) => ['--import', 'tsx', MAIN, '--db', db, '--log-level', 'warn', 'demo', '--port', String(port)];

/** A demo, running: once it has printed its curl commands. */
async function startDemo(db: string, port: number): Promise<Demo> {
  const child = spawn(process.execPath, demoArgs(db, port), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Stop with Ctrl-C.')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`demo exited with ${code}: ${err}`)));
  });
  const base = /Open the collection in a browser: (http:\/\/[^/\s]+)\//.exec(out)?.[1];
  const key = /oauth_consumer_key=([A-Za-z0-9_-]+)/.exec(out)?.[1];
  assert.ok(base !== undefined && key !== undefined, out);
  return { child, base, key, stderr: () => err };
}

/** The status of the demo's own aip curl, sent to `base` with `key`. */
async function aipStatus(base: string, key: string): Promise<number> {
  const res = await fetch(`${base}/items/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR/aip?oauth_consumer_key=${key}`, {
    headers: { accept: 'application/xml' },
  });
  await res.arrayBuffer();
  return res.status;
}

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function stop(child: ChildProcess): Promise<ProcessRun> {
  const done = collect(child);
  child.kill('SIGINT');
  return done;
}

test(
  "a second demo on the port of a running one stops before changing anything; one on another port leaves the first one's key alone",
  { timeout: 180_000 },
  async () => {
    const db = join(tempDir('demo-twice'), 'demo.db');
    const port = await freePort();
    const first = await startDemo(db, port);
    try {
      assert.equal(await aipStatus(first.base, first.key), 200);

      // The same command again: refused at once, with what to do, and nothing loaded or revoked.
      const again = await collect(spawn(process.execPath, demoArgs(db, port), { stdio: ['ignore', 'pipe', 'pipe'] }));
      assert.equal(again.code, 1, again.stderr);
      assert.equal(again.stdout, '');
      assert.equal(
        again.stderr,
        `heritage-api: Port ${port} on 127.0.0.1 is in use by another program: stop that program, or choose another port with --port PORT (0 picks a free one).\n`,
      );
      assert.equal(await aipStatus(first.base, first.key), 200);

      // A second demo on another port of the same store: both keys work; stopping it revokes its own key only.
      const second = await startDemo(db, 0);
      let stopped: ProcessRun;
      try {
        assert.equal(await aipStatus(second.base, second.key), 200);
        assert.equal(await aipStatus(first.base, first.key), 200);
        assert.equal(await aipStatus(first.base, second.key), 200);
      } finally {
        stopped = await stop(second.child);
      }
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.equal(await aipStatus(first.base, second.key), 403);
      assert.equal(await aipStatus(first.base, first.key), 200);
    } finally {
      await stop(first.child);
    }
  },
);

test('a load whose inputs cannot be read leaves no store behind for serve to open; a store that was there stays', async () => {
  const dir = tempDir('no-store');
  const db = join(dir, 'new', 'h.db');
  const items = await cli(['--db', db, 'ingest', 'items', join(dir, 'missing.xml')]);
  assert.equal(items.code, 1);
  assert.deepEqual(items.err, [`heritage-api: Cannot read '${join(dir, 'missing.xml')}': no such file or directory.`]);
  const entities = await cli(['--db', db, 'ingest', 'entities', join(dir, 'missing.jsonl')]);
  assert.equal(entities.code, 1);
  // Neither the file nor the directory made for it.
  assert.equal(existsSync(db), false);
  assert.equal(existsSync(join(dir, 'new')), false);
  const serve = await cli(['--db', db, 'serve', '--port', '0']);
  assert.equal(serve.code, 1);
  assert.match(serve.err[0]!, /^heritage-api: There is no store at /);

  // A store with data keeps it, whatever fails after.
  const kept = join(dir, 'kept.db');
  assert.equal((await cli(['--db', kept, 'ingest', 'items', CORTEX_DIR])).code, 0);
  assert.equal((await cli(['--db', kept, 'ingest', 'items', join(dir, 'missing.xml')])).code, 1);
  const list = await cli(['--db', kept, 'items', 'list']);
  assert.equal(list.code, 0);
  assert.ok(list.out.length > 0);
});
