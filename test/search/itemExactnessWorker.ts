/**
 * Makes the exactness test's item packages in a worker thread (itemExactnessData.ts
 * `loadGeneratedItems`), so that the main thread writes one batch to the store and the
 * reference while the next is made: a batch of items [from, to) per request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PreparedItem } from '../../src/store/Store.js';
import { generatedItems } from './itemExactnessData.js';

const { total, seed } = workerData as { total: number; seed: number };
const gen = generatedItems(total, seed);
parentPort!.on('message', (m: { from: number; to: number } | null) => {
  if (m === null) {
    parentPort!.close();
    return;
  }
  const items: PreparedItem[] = [];
  for (let i = m.from; i < m.to; i++) items.push(gen.item(i));
  parentPort!.postMessage(items);
});
