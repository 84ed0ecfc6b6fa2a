/**
 * The search threads' priority and what the watchdog reads of them (src/search/threadPriority.ts):
 * on Linux a thread lowers itself alone, and its state and CPU time are read from /proc.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { sampleThread, stuck, thisThreadId, type ThreadSample } from '../../src/search/threadPriority.js';

const linux = process.platform === 'linux' ? {} : { skip: 'the nice value is per thread on Linux only' };

test('stuck: asleep or blocked past the deadline is stuck; runnable is stuck only after the grace on a core', () => {
  const at = (cpuMs: number, runnable: boolean): ThreadSample => ({ cpuMs, runnable, niceness: 10 });
  const cases: Array<[ThreadSample | undefined, ThreadSample | undefined, boolean, string]> = [
    [at(100, true), at(100, false), true, 'asleep (one long statement waiting, a lock)'],
    [at(100, true), at(150, false), true, 'asleep after some work'],
    [at(100, true), at(100, true), false, 'runnable without a core since the deadline: starved'],
    [at(100, true), at(1099, true), false, 'runnable, less than the grace on a core'],
    [at(100, true), at(1100, true), true, 'runnable, the whole grace on a core without stopping'],
    [undefined, at(100, true), true, 'no sample at the deadline: wall time alone'],
    [at(100, true), undefined, true, 'gone, or no /proc: wall time alone'],
  ];
  for (const [atDeadline, now, expected, why] of cases) assert.equal(stuck(atDeadline, now, 1000), expected, why);
});

test('a thread reads its own id, state and CPU time; the CPU time grows as it runs', linux, () => {
  const tid = thisThreadId();
  assert.ok(tid !== undefined && tid > 0);
  const before = sampleThread(tid)!;
  assert.equal(before.runnable, true, 'a thread reading its own state is running');
  let now = before;
  // Runs until the kernel has counted 20 ms more on a core: a condition, not a sleep.
  while (now.cpuMs - before.cpuMs < 20) now = sampleThread(tid)!;
  assert.ok(now.cpuMs > before.cpuMs);
  assert.equal(sampleThread(2 ** 30), undefined, 'no such thread');
});

test('a worker thread lowers its own priority; the main thread and the process keep theirs', linux, async () => {
  const code = `
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL('../../src/search/threadPriority.ts', import.meta.url).href)}); })
      .then((p) => { const lowered = p.lowerThisThread(19); parentPort.postMessage({ lowered, tid: p.thisThreadId() }); });`;
  const main = sampleThread(thisThreadId())!.niceness;
  const worker = new Worker(code, { eval: true });
  try {
    const said = await new Promise<{ lowered: boolean; tid: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    assert.equal(said.lowered, true);
    assert.equal(sampleThread(said.tid)?.niceness, 19, 'the worker');
    assert.equal(sampleThread(thisThreadId())?.niceness, main, 'the main thread, as before');
  } finally {
    await worker.terminate();
  }
});
