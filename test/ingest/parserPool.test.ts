/**
 * The parser pool (src/ingest/parserPool.ts): files parsed on worker threads
 * come back in the order asked, each file's records in order, and a worker
 * holds back no more than its credits while the main thread does not take
 * results, so that loads use every core without unbounded memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { ParserPool } from '../../src/ingest/parserPool.js';
import type { PreparedPerson } from '../../src/store/Store.js';
import type { ReadResult } from '../../src/ingest/runIngest.js';
import { tempDir } from '../helpers/tempDir.js';

const FILES = 12;
const PER_FILE = 10;

function writeFiles(): string[] {
  const dir = tempDir('pool');
  const paths: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const lines = [];
    for (let k = 0; k < PER_FILE; k++)
      lines.push(
        JSON.stringify({ id: `http://d-nb.info/gnd/${f * 100 + k}`, type: 'person', preferredName: `Probe ${f}-${k}`, variantName: [] }),
      );
    const path = join(dir, `${String(f).padStart(2, '0')}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    paths.push(path);
  }
  return paths;
}

/**
 * Waits until `condition` holds, however long the workers take to start on a busy
 * machine (polling, so as not to take a core from them); the test's timeout bounds the wait.
 */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await pause(10);
}

const ids = (results: Array<ReadResult<PreparedPerson>>) => results.map((r) => (r.kind === 'record' ? r.record.id : r.kind));

test(
  'two workers sharing few credits: every file in order, and no more held back than the credits allow',
  { timeout: 120_000 },
  async () => {
    const paths = writeFiles();
    const pool = new ParserPool('persons', { workers: 2, ahead: 4, records: 3 });
    try {
      // Every file asked for at once, as runIngest does, and nothing taken until the workers
      // have used their credits: 10 records a file in messages of 3 give 4 messages a file,
      // so without credits all 48 could come. The 4 credits are shared out, 2 a worker.
      const parses = paths.map((path) => pool.parse({ path }));
      await until(() => pool.held === 4);
      // No credit left: no worker can post another message until one is taken.
      assert.equal(pool.unusedCredits, 0);
      const got: string[] = [];
      for (const parse of parses) {
        const results: Array<ReadResult<PreparedPerson>> = [];
        for await (const r of parse) {
          results.push(r);
          assert.ok(pool.held <= 4, `held ${pool.held} messages, more than the 4 credits`);
        }
        got.push(...ids(results));
      }
      const expected = Array.from(
        { length: FILES * PER_FILE },
        (_, i) => `http://d-nb.info/gnd/${Math.floor(i / PER_FILE) * 100 + (i % PER_FILE)}`,
      );
      assert.deepEqual(got, expected);
      assert.equal(pool.held, 0);
    } finally {
      await pool.close();
    }
  },
);

test('without workers (one core) a file is parsed in its turn, with the same results', async () => {
  const [path] = writeFiles();
  const pool = new ParserPool('persons', { workers: 0, records: 3 });
  const results: Array<ReadResult<PreparedPerson>> = [];
  for await (const r of pool.parse({ path: path! })) results.push(r);
  assert.deepEqual(
    ids(results),
    Array.from({ length: PER_FILE }, (_, k) => `http://d-nb.info/gnd/${k}`),
  );
  await pool.close();
});

test('a file that is missing or not UTF-8 gives one error for the file, and the pool goes on', async () => {
  const [good] = writeFiles();
  const dir = tempDir('pool');
  const latin1 = join(dir, 'latin1.jsonl');
  writeFileSync(latin1, Buffer.from([0x7b, 0x22, 0xe4, 0x22, 0x7d, 0x0a]));
  const pool = new ParserPool('persons', { workers: 1 });
  try {
    const missing = pool.parse({ path: join(dir, 'gone.jsonl') });
    const bad = pool.parse({ path: latin1 });
    const fine = pool.parse({ path: good! });
    const all = async (parse: AsyncIterable<ReadResult<PreparedPerson>>) => {
      const out: Array<ReadResult<PreparedPerson>> = [];
      for await (const r of parse) out.push(r);
      return out;
    };
    const [gone] = await all(missing);
    assert.deepEqual(gone, {
      kind: 'error',
      position: 'file',
      reason: `cannot read the file: ENOENT: no such file or directory, open '${join(dir, 'gone.jsonl')}'`,
    });
    assert.deepEqual(await all(bad), [
      { kind: 'error', position: 'file', reason: 'not UTF-8: invalid byte 0xe4 at byte offset 2 (line 1); convert the file to UTF-8' },
    ]);
    assert.equal((await all(fine)).length, PER_FILE);
  } finally {
    await pool.close();
  }
});
