/**
 * Entry of a search worker thread (src/search/searchPool.ts); the work is
 * in ./searchJob.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { searchJobs, type SearchWorkerSetup, type ToWorker } from './searchJob.js';

const port = parentPort!;
const handle = searchJobs(workerData as SearchWorkerSetup, (m) => port.postMessage(m));
port.on('message', (m: ToWorker) => handle(m));
