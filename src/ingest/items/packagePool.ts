/**
 * Parses package documents on worker threads, one fewer than the cores (the
 * main thread writes to the store). Parsing a package costs about twice what
 * writing it does, so this is what lets a load use the whole machine. With a
 * single core it parses on the main thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ItemChange } from '../../store/Store.js';
import type { ReadResult } from '../runIngest.js';
import { readPackageChanges } from './readItemRecords.js';

type Results = ReadResult<ItemChange>[];

function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./packageWorker.js', here));
  // Run from TypeScript sources (tests, tsx): the worker registers tsx before loading its module.
  const script = new URL('./packageWorker.ts', here).href;
  return new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script)}); })`, { eval: true });
}

/** Close it when the load is done: its workers keep the process alive until then. */
export class PackageParserPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, { resolve: (r: Results) => void; reject: (e: unknown) => void }>();
  private nextId = 0;

  /** Workers start with the first package to parse: a load of EDM files only never needs them. */
  constructor(private readonly size = Math.max(0, availableParallelism() - 1)) {}

  private start(): void {
    for (let i = 0; i < this.size; i++) {
      const worker = startWorker();
      worker.on('message', (m: { id: number; results: Results }) => {
        this.pending.get(m.id)?.resolve(m.results);
        this.pending.delete(m.id);
      });
      worker.on('error', (e) => {
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
      });
      this.workers.push(worker);
    }
  }

  parse(text: string): Promise<Results> {
    if (this.workers.length === 0 && this.size > 0) this.start();
    if (this.workers.length === 0) return Promise.resolve(readPackageChanges(text));
    const id = this.nextId++;
    const worker = this.workers[id % this.workers.length]!;
    return new Promise<Results>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
