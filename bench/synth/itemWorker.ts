/** Worker thread of bench/data.ts: writes one range of trees, reports progress and totals. */
import { parentPort, workerData } from 'node:worker_threads';
import { writeItems, type ItemJob } from './writeItems.js';

const port = parentPort;
if (port === null) throw new Error('itemWorker.ts runs as a worker thread of bench/data.ts');
const result = writeItems(workerData as ItemJob, (done) => port.postMessage({ type: 'progress', done }));
port.postMessage({ type: 'done', result }, [result.sizes.buffer as ArrayBuffer, result.perPerson.buffer as ArrayBuffer]);
