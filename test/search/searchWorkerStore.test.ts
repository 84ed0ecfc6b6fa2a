/**
 * A search worker whose PostgreSQL store is unreachable when it starts (a worker replaced
 * during an outage) or goes away while it runs (docs/deployment.md "When the store goes
 * away"): its searches fail with the store's own error, which the HTTP layer answers with
 * the 503 StoreUnavailableException (never as an internal error), it says that its index
 * does not follow the store (for /health/ready), and once the store is back it opens it,
 * builds its indexes and answers, by itself. The worker's code (src/search/searchJob.ts)
 * runs here on the test's thread, against a real PostgreSQL behind a relay the test cuts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { searchJobs, type SearchWorkerSetup, type WorkerAnswer } from '../../src/search/searchJob.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { migratedDatabase } from '../helpers/backends.js';
import { CORTEX_DIR } from '../helpers/paths.js';
import { Relay } from '../helpers/relay.js';

/** An answer without its time in the worker (`ms`, searchJob.ts), which is a non-negative number. */
function timeless(a: WorkerAnswer): unknown {
  if (a.type !== 'done') return a;
  const { ms, ...rest } = a;
  assert.ok(Number.isFinite(ms) && ms >= 0, `ms: ${ms}`);
  return rest;
}

const SUGGEST = { op: 'suggest', kind: 'item', prefix: 'goe', limit: 5 } as const;

/** Waits until `answers` holds one that `matches`, for a condition, not a time. */
async function answer(answers: WorkerAnswer[], matches: (a: WorkerAnswer) => boolean, what: string): Promise<WorkerAnswer> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = answers.find(matches);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} among ${JSON.stringify(answers)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a search worker whose store is down at its start and goes away later: store errors (not internal ones), not following, then answers by itself once the store is back', async () => {
  const db = await migratedDatabase();
  const loaded = await openPostgresStore({ url: db.url });
  try {
    await ingestItems(loaded, [CORTEX_DIR], { batchSize: 100 });
  } finally {
    await loaded.close();
  }
  const relay = new Relay(new URL(db.url));
  await relay.start();
  // The spec a server hands its search workers, for the store through the relay.
  const through = await openPostgresStore({ url: relay.url() });
  const spec = through.reopenSpec();
  await through.close();
  assert.ok(spec !== undefined, 'a PostgreSQL store can be reopened');
  const setup: SearchWorkerSetup = {
    spec,
    limits: { maxClauses: 128, maxExpansionsPerTerm: 1000, maxExpansionsPerQuery: 10_000 },
    indexSliceMs: 50,
    indexPollMs: 20,
    // 0 leaves this thread's priority alone: the worker's code runs on the test's own thread here.
    niceness: 0,
  };
  await relay.cut();
  const answers: WorkerAnswer[] = [];
  const send = searchJobs(setup, (a) => answers.push(a));
  try {
    // Down at the start: the job fails with the store's error; the worker says it does not follow.
    send({ type: 'job', id: 1, op: SUGGEST, budgetMs: 10_000, armed: false, sentAt: Date.now() });
    const failed = await answer(answers, (a) => a.type === 'failed' && a.id === 1, 'failure of job 1');
    assert.equal(failed.type === 'failed' && failed.failure.kind, 'store', JSON.stringify(failed));
    assert.match(failed.type === 'failed' && failed.failure.kind === 'store' ? failed.failure.store.kind : '', /^unreachable$/);
    await answer(answers, (a) => a.type === 'following' && !a.following, 'following: false');

    // Back: the worker opens the store by itself (no search needed), builds, and answers.
    answers.length = 0;
    await relay.start();
    await answer(answers, (a) => a.type === 'built', 'built');
    send({ type: 'job', id: 2, op: SUGGEST, budgetMs: 10_000, armed: true, sentAt: Date.now() });
    assert.deepEqual(timeless(await answer(answers, (a) => (a.type === 'done' || a.type === 'failed') && a.id === 2, 'answer to job 2')), {
      type: 'done',
      id: 2,
      result: ['Goethe'],
    });

    // Gone while it runs: a store error again, not following; back: following and answering.
    answers.length = 0;
    await relay.cut();
    await answer(answers, (a) => a.type === 'following' && !a.following, 'following: false');
    send({ type: 'job', id: 3, op: SUGGEST, budgetMs: 10_000, armed: true, sentAt: Date.now() });
    const again = await answer(answers, (a) => (a.type === 'done' || a.type === 'failed') && a.id === 3, 'answer to job 3');
    assert.equal(again.type === 'failed' && again.failure.kind, 'store', JSON.stringify(again));
    answers.length = 0;
    await relay.start();
    await answer(answers, (a) => a.type === 'following' && a.following, 'following: true');
    send({ type: 'job', id: 4, op: SUGGEST, budgetMs: 10_000, armed: true, sentAt: Date.now() });
    assert.deepEqual(timeless(await answer(answers, (a) => (a.type === 'done' || a.type === 'failed') && a.id === 4, 'answer to job 4')), {
      type: 'done',
      id: 4,
      result: ['Goethe'],
    });
  } finally {
    await relay.cut();
    await db.drop();
  }
});
