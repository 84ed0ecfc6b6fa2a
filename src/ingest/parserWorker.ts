/**
 * Worker thread of ParserPool: parses the files it is sent and posts their
 * results chunk by chunk, then `done`, waiting for credits whenever it is as
 * far ahead of the main thread as it may be, so that loading neither stalls nor runs out of
 * memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseInput, type ParseInput } from './parsers.js';
import type { WorkerSetup } from './parserPool.js';

const port = parentPort;
if (port === null) throw new Error('parserWorker runs as a worker thread of ParserPool');
const { parser, records, limits, credits: shared } = workerData as WorkerSetup;
const credits = new Int32Array(shared);

function waitForCredit(): void {
  for (let c = Atomics.load(credits, 0); c <= 0; c = Atomics.load(credits, 0)) Atomics.wait(credits, 0, c);
  Atomics.sub(credits, 0, 1);
}

port.on('message', (job: { id: number; input: ParseInput }) => {
  for (const results of parseInput(parser, job.input, records, limits)) {
    waitForCredit();
    port.postMessage({ id: job.id, results });
  }
  port.postMessage({ id: job.id, done: true });
});
