/**
 * The search worker of src/search/searchWorker.ts, except that a search for
 * the single term `stuck` blocks its thread for good after saying it has
 * started (a worker caught in one long statement, waiting), and one for `spin`
 * keeps it on a core for good (caught in a loop), which no cooperative
 * deadline can end. Only the pool's watchdog can (test/search/searchPool.test.ts).
 * A batch of the feed with a body naming `Langsam` takes SLOW_BATCH_MS to apply (index
 * work on a busy machine), so that the search sent after it starts that much later.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { searchJobs, type SearchWorkerSetup, type ToWorker, type WorkerAnswer } from '../../src/search/searchJob.js';

const port = parentPort!;
const post = (m: WorkerAnswer) => port.postMessage(m);
const handle = searchJobs(workerData as SearchWorkerSetup, post);
/** Well past the budgets of the tests that use it. */
const SLOW_BATCH_MS = 1500;

port.on('message', (m: ToWorker) => {
  if (m.type === 'batch' && m.changes.some((c) => c.body?.includes('Langsam') === true))
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SLOW_BATCH_MS);
  const q = m.type === 'job' && m.op.op === 'engine' ? m.op.search.request.query : undefined;
  if (m.type === 'job' && q?.kind === 'term' && q.text === 'stuck') {
    post({ type: 'started', id: m.id });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  if (m.type === 'job' && q?.kind === 'term' && q.text === 'spin') {
    post({ type: 'started', id: m.id });
    // On a core for good, never looking at its deadline.
    for (;;);
  }
  handle(m);
});
