/**
 * Worker thread of PackageParserPool: parses package documents (cortex XML,
 * package JSON) into item changes off the main thread, which meanwhile
 * writes the ones before (issue #5: loading speed).
 */
import { parentPort } from 'node:worker_threads';
import { readPackageChanges } from './readItemRecords.js';

const port = parentPort;
if (port === null) throw new Error('packageWorker runs as a worker thread of PackageParserPool');
port.on('message', (job: { id: number; text: string }) => {
  port.postMessage({ id: job.id, results: readPackageChanges(job.text) });
});
