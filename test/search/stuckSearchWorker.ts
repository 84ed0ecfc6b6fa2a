/**
 * The search worker of src/search/searchWorker.ts, except that a search for
 * the single term `stuck` blocks its thread for good after saying it has
 * started: a worker caught in one long statement, which no cooperative
 * deadline can end. Only the pool's watchdog can (test/search/searchPool.test.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { searchJobs, type SearchJob, type SearchWorkerSetup } from '../../src/search/searchJob.js';

const port = parentPort!;
const answer = searchJobs(workerData as SearchWorkerSetup);
port.on('message', (job: SearchJob) => {
  const q = job.search.query;
  if (q.kind === 'term' && q.text === 'stuck') {
    port.postMessage({ type: 'started', id: job.id });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  answer(job, (m) => port.postMessage(m));
});
