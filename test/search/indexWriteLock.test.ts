/**
 * Writers of one index directory take turns (src/search/indexWriteLock.ts): two processes
 * writing generations at once both succeed, each under its own number, and leave a
 * directory a start reads; a lock left by a killed writer is taken over; a writer waits for
 * a live holder and writes only after it lets go.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { itemDoc, personDoc } from '../../bench/engineDocs.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { readIndexes, writeIndexes } from '../../src/search/indexFiles.js';
import { LOCK_FILE, startOf } from '../../src/search/indexWriteLock.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';

const WRITERS = fileURLToPath(new URL('./indexWriters.ts', import.meta.url));
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'heritage-api-lock-'));
  dirs.push(d);
  return d;
}

function writer(
  dir: string,
  ...args: string[]
): { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string>; done: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITERS, dir, ...args], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<number>((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0) process.stderr.write(stderr);
      resolve(code ?? -1);
    }),
  );
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), done };
}

async function all(lines: AsyncIterator<string>): Promise<string[]> {
  const out: string[] = [];
  for (let next = await lines.next(); !next.done; next = await lines.next()) out.push(next.value);
  return out;
}

function smallImages(extra: number) {
  const items = new SearchIndex(itemSchema);
  const persons = new SearchIndex(personSchema);
  for (let i = 0; i < 100 + extra; i++) items.upsert(itemDoc(i));
  for (let i = 0; i < 10; i++) persons.upsert(personDoc(i));
  const image = (index: SearchIndex, kind: string) => ({ image: index.image(), position: `${kind}:log:${extra}`, documents: index.size });
  return { item: image(items, 'item'), person: image(persons, 'person') };
}

test('two processes writing one directory at once each write every generation under its own number', async () => {
  const dir = tempDir();
  const a = writer(dir, 'write', '12');
  const b = writer(dir, 'write', '12');
  const [linesA, linesB] = await Promise.all([all(a.lines), all(b.lines)]);
  assert.deepEqual(await Promise.all([a.done, b.done]), [0, 0]);
  const generations = [...linesA, ...linesB].map((l) => Number(/^written (\d+)$/.exec(l)![1]));
  assert.equal(generations.length, 24);
  assert.deepEqual(
    [...generations].sort((x, y) => x - y),
    Array.from({ length: 24 }, (_v, i) => i + 1),
    'no number taken twice',
  );
  const read = await readIndexes(dir, 'store-a');
  assert.deepEqual(read.problems, []);
  assert.equal(read.manifest.generation, 24);
  // The two newest generations are kept, and nothing else but the lock's absence.
  assert.deepEqual(
    readdirSync(dir)
      .filter((f) => f.startsWith('manifest-'))
      .sort(),
    ['manifest-000023.json', 'manifest-000024.json'],
  );
  assert.equal(existsSync(join(dir, LOCK_FILE)), false);
});

test('a lock left by a killed writer is taken over; a live holder is waited for', async () => {
  const dir = tempDir();
  // A writer killed while it held the lock.
  const killed = writer(dir, 'hold');
  assert.equal((await killed.lines.next()).value, 'held');
  killed.child.kill('SIGKILL');
  await killed.done;
  assert.ok(existsSync(join(dir, LOCK_FILE)), 'the killed writer left its lock');
  assert.equal((await writeIndexes(dir, 'store-a', smallImages(1))).generation, 1);
  assert.equal(existsSync(join(dir, LOCK_FILE)), false);

  // A live holder: the write waits for it.
  const holder = writer(dir, 'hold');
  assert.equal((await holder.lines.next()).value, 'held');
  const writing = writeIndexes(dir, 'store-a', smallImages(2));
  holder.child.stdin.end();
  const released = Number(/^released (\d+)$/.exec((await holder.lines.next()).value as string)![1]);
  const manifest = await writing;
  assert.equal(manifest.generation, 2);
  assert.ok(Date.parse(manifest.writtenAt) >= Math.floor(released / 1000) * 1000 - 1000, 'written after the holder let go');
  assert.equal(await holder.done, 0);
});

test('a lock that names this process (an earlier run under the same id) or a dead process of this host is stale', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, LOCK_FILE), `${process.pid} ${hostname()}\n`);
  assert.equal((await writeIndexes(dir, 'store-a', smallImages(1))).generation, 1);
  // In one process, writers queue: both written, numbered in turn.
  const [x, y] = await Promise.all([writeIndexes(dir, 'store-a', smallImages(2)), writeIndexes(dir, 'store-a', smallImages(3))]);
  assert.deepEqual([x.generation, y.generation].sort(), [2, 3]);
});

test(
  "a lock whose process id another process has taken since (it started otherwise) is stale; the lock's own start is its process's",
  { timeout: 120_000 },
  async () => {
    const dir = tempDir();
    // A process that lives on, under an id a killed writer's lock could name once the ids wrap around.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const started = startOf(other.pid!);
      assert.match(started ?? '', /^\d+$/, 'its start is read from /proc');
      writeFileSync(join(dir, LOCK_FILE), `${other.pid} ${hostname()}\n${Number(started) + 1}\n`);
      const t = Date.now();
      assert.equal((await writeIndexes(dir, 'store-a', smallImages(1))).generation, 1);
      assert.ok(Date.now() - t < 60_000, 'taken over, not waited for');
    } finally {
      other.kill('SIGKILL');
    }
    // A writer names its own start: a holder that lives is waited for (above), one whose id was taken is not.
    const holder = writer(dir, 'hold');
    assert.equal((await holder.lines.next()).value, 'held');
    const [first, second] = readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n');
    assert.equal(first, `${holder.child.pid} ${hostname()}`);
    assert.equal(second, startOf(holder.child.pid!));
    holder.child.stdin.end();
    await holder.lines.next();
    assert.equal(await holder.done, 0);
  },
);
