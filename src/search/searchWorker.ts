/**
 * Entry of a search worker thread (src/search/searchPool.ts); the work is
 * in ./searchJob.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { searchJobs, type SearchJob, type SearchWorkerSetup } from './searchJob.js';

const port = parentPort!;
const answer = searchJobs(workerData as SearchWorkerSetup);
port.on('message', (job: SearchJob) => answer(job, (m) => port.postMessage(m)));
