/**
 * Parses documents on worker threads, one fewer than the cores (the main
 * thread writes to the store). Parsing costs more than writing, for packages
 * and for persons alike, so this is what lets a load use the whole machine
 * (issue #5). With a single core it parses on the main thread.
 *
 * A parse starts when it is asked for, not when its results are read: the
 * worker goes on with the next file while the main thread writes this one.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { parseInput, type ParseInput, type ParsedRecords, type ParserName } from './parsers.js';

function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./parserWorker.js', here));
  // Run from TypeScript sources (tests, tsx): the worker registers tsx before loading its module.
  const script = new URL('./parserWorker.ts', here).href;
  return new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script)}); })`, { eval: true });
}

/** Chunks of results as they arrive, read in order by one consumer. */
class Chunks<T> implements AsyncIterable<T> {
  private readonly queue: T[][] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  push(chunk: T[]): void {
    this.queue.push(chunk);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.notify();
  }

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk !== undefined) yield* chunk;
      else if (this.failure !== null) throw this.failure.error;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/** Close it when the load is done: its workers keep the process alive until then. */
export class ParserPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Chunks<unknown>>();
  private nextId = 0;

  /** Workers start with the first document to parse: a load of EDM files only never needs them. */
  constructor(private readonly size = Math.max(0, availableParallelism() - 1)) {}

  private start(): void {
    for (let i = 0; i < this.size; i++) {
      const worker = startWorker();
      worker.on('message', (m: { id: number; results: unknown[] } | { id: number; done: true }) => {
        const chunks = this.pending.get(m.id);
        if ('done' in m) {
          chunks?.end();
          this.pending.delete(m.id);
        } else {
          chunks?.push(m.results);
        }
      });
      worker.on('error', (e) => {
        for (const chunks of this.pending.values()) chunks.fail(e);
        this.pending.clear();
      });
      this.workers.push(worker);
    }
  }

  /** The records of the document, in order, as `parser` reads them. Documents are parsed in the order asked. */
  parse<K extends ParserName>(parser: K, input: ParseInput): AsyncIterable<ParsedRecords[K]> {
    const chunks = new Chunks<ParsedRecords[K]>();
    if (this.workers.length === 0 && this.size > 0) this.start();
    if (this.workers.length === 0) {
      for (const chunk of parseInput(parser, input)) chunks.push(chunk);
      chunks.end();
      return chunks;
    }
    const id = this.nextId++;
    this.pending.set(id, chunks as Chunks<unknown>);
    this.workers[id % this.workers.length]!.postMessage({ id, parser, input });
    return chunks;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
