/**
 * Worker thread of ParserPool: runs one of PARSERS on a document and
 * posts its results chunk by chunk, then `done` (issue #5: loading speed).
 */
import { parentPort } from 'node:worker_threads';
import { parseInput, type ParseInput, type ParserName } from './parsers.js';

const port = parentPort;
if (port === null) throw new Error('parserWorker runs as a worker thread of ParserPool');
port.on('message', (job: { id: number; parser: ParserName; input: ParseInput }) => {
  for (const results of parseInput(job.parser, job.input)) port.postMessage({ id: job.id, results });
  port.postMessage({ id: job.id, done: true });
});
