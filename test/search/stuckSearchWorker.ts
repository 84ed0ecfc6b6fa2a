/**
 * The search worker of src/search/searchWorker.ts, except that a search for
 * the single term `stuck` blocks its thread for good after saying it has
 * started (a worker caught in one long statement, waiting), and one for `spin`
 * keeps it on a core for good (caught in a loop), which no cooperative
 * deadline can end. Only the pool's watchdog can (test/search/searchPool.test.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { searchJobs, type SearchWorkerSetup, type ToWorker, type WorkerAnswer } from '../../src/search/searchJob.js';

const port = parentPort!;
const post = (m: WorkerAnswer) => port.postMessage(m);
const handle = searchJobs(workerData as SearchWorkerSetup, post);
port.on('message', (m: ToWorker) => {
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
