import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { untilAborted } from '../../src/ingest/untilAborted.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function* records(n: number, made: Array<WeakRef<object>>) {
  for (let i = 0; i < n; i++) {
    const record = { i, body: 'x'.repeat(1000) + i };
    made.push(new WeakRef(record));
    yield record;
  }
}

test('records a load has taken are not kept: memory stays bounded however long the load (the ingest of 100,000 packages ran out of heap)', async () => {
  const made: Array<WeakRef<object>> = [];
  const signal = new AbortController().signal;
  const next = untilAborted(signal);
  const it = records(200, made);
  let seen = 0;
  for (let r = await next(it); !r.done; r = await next(it)) seen++;
  assert.equal(seen, 200);
  // No listener is left behind per record either.
  assert.equal(getEventListeners(signal, 'abort').length, 0);
  // Settle pending reactions, then collect: every record taken is garbage.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const alive = made.filter((ref) => ref.deref() !== undefined).length;
  assert.equal(alive, 0, `${alive} of 200 taken records are still reachable`);
});

test('an abort ends a next that waits for input, and every next after it, as done', async () => {
  const controller = new AbortController();
  const next = untilAborted(controller.signal);
  let release: (() => void) | undefined;
  const quiet: AsyncIterator<number> = {
    next: () => new Promise<IteratorResult<number>>((resolve) => (release = () => resolve({ done: false, value: 1 }))),
  };
  const waiting = next(quiet);
  controller.abort();
  assert.deepEqual(await waiting, { done: true, value: undefined });
  assert.deepEqual(await next(quiet), { done: true, value: undefined });
  release?.();
});

test('without a signal, and before an abort, next passes values and failures through', async () => {
  const it = records(2, []);
  assert.deepEqual((await untilAborted(undefined)(it)).done, false);
  const next = untilAborted(new AbortController().signal);
  assert.equal((await next(it)).done, false);
  assert.equal((await next(it)).done, true);
  const failing: AsyncIterator<number> = { next: () => Promise.reject(new Error('bad file')) };
  await assert.rejects(next(failing), /bad file/);
});
