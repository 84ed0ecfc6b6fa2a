/**
 * Parses input files on worker threads while the main thread writes to the
 * store, so that a load uses the whole machine; how many workers
 * each parser gets is in PARSING (src/ingest/parsers.ts). With a single core
 * persons are parsed on the main thread.
 *
 * A parse starts when it is asked for, not when its results are read: the
 * workers go on with the next files while the main thread writes. Each
 * worker may run only so far ahead (PARSING in parsers.ts): it waits for
 * credits, which the main thread gives back as it takes results. The credits
 * are shared out among the workers, so more cores do not hold more memory.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS, type RecordLimits } from '../formats/recordLimits.js';
import { PARSING, parseInput, type ParseInput, type ParsedRecords, type ParserName } from './parsers.js';

export interface WorkerSetup {
  parser: ParserName;
  /** Records per message. */
  records: number;
  limits: RecordLimits;
  /** Int32Array over it: messages the worker may still post before the main thread takes some. */
  credits: SharedArrayBuffer;
}

function startWorker(setup: WorkerSetup): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./parserWorker.js', here), { workerData: setup });
  // Run from TypeScript sources (tests, tsx): the worker registers tsx before loading its module.
  const script = new URL('./parserWorker.ts', here).href;
  return new Worker(
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script)}); })`,
    {
      eval: true,
      workerData: setup,
    },
  );
}

/** Chunks of results as they arrive, read in order by one consumer. */
class Chunks<T> implements AsyncIterable<T> {
  private readonly queue: T[][] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  /** @param taken called as each chunk is taken from the queue */
  constructor(private readonly taken: () => void) {}

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
      if (chunk !== undefined) {
        this.taken();
        yield* chunk;
      } else if (this.failure !== null) throw this.failure.error;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

type Message = { id: number; results: unknown[] } | { id: number; done: true };

/** PARSING's settings for one pool; tests make them small. */
export interface PoolOptions {
  workers: number;
  ahead: number;
  records: number;
  /** What a record may be (ingest.maxRecordBytes). */
  limits: RecordLimits;
}

/** One load's parser. Close it when the load is done: its workers keep the process alive until then. */
export class ParserPool<K extends ParserName> {
  private readonly workers: Array<{ worker: Worker; credits: Int32Array }> = [];
  private readonly pending = new Map<number, Chunks<unknown>>();
  private readonly options: PoolOptions;
  private nextId = 0;
  /** Set when a worker died: every parse after it fails at once instead of waiting for it. */
  private failure: { error: unknown } | null = null;
  /** Messages received and not yet taken: at most `ahead`, shared out among the workers. */
  held = 0;

  /** Workers start with the first file to parse: a load of EDM files only needs one to look at each file's head. */
  constructor(
    private readonly parser: K,
    options: Partial<PoolOptions> = {},
  ) {
    const { ahead, records, workers } = PARSING[parser];
    this.options = { ahead, records, workers: Math.max(0, workers(availableParallelism())), limits: DEFAULT_LIMITS, ...options };
  }

  private start(): void {
    for (let i = 0; i < this.options.workers; i++) {
      const setup: WorkerSetup = {
        parser: this.parser,
        records: this.options.records,
        limits: this.options.limits,
        credits: new SharedArrayBuffer(4),
      };
      const credits = new Int32Array(setup.credits);
      credits[0] = Math.max(1, Math.ceil(this.options.ahead / this.options.workers));
      const worker = startWorker(setup);
      worker.on('message', (m: Message) => {
        const chunks = this.pending.get(m.id);
        if ('done' in m) {
          chunks?.end();
          this.pending.delete(m.id);
        } else if (chunks !== undefined) {
          this.held++;
          chunks.push(m.results);
        }
      });
      worker.on('error', (e) => {
        this.failure ??= { error: e };
        for (const chunks of this.pending.values()) chunks.fail(e);
        this.pending.clear();
      });
      this.workers.push({ worker, credits });
    }
  }

  /**
   * The records of a file, in order. Files are parsed in the order asked; read
   * each one's records in that order too, since a worker holds back the next
   * file's results until this one's are taken.
   */
  parse(input: ParseInput): AsyncIterable<ParsedRecords[K]> {
    if (this.workers.length === 0 && this.options.workers > 0) this.start();
    if (this.workers.length === 0) {
      // On the main thread, in its turn: parsed ahead, nothing would bound the memory held.
      const { parser, options } = this;
      return (async function* () {
        for (const chunk of parseInput(parser, input, options.records, options.limits)) yield* chunk;
      })();
    }
    const id = this.nextId++;
    const { worker, credits } = this.workers[id % this.workers.length]!;
    const chunks = new Chunks<ParsedRecords[K]>(() => {
      this.held--;
      Atomics.add(credits, 0, 1);
      Atomics.notify(credits, 0);
    });
    if (this.failure !== null) {
      chunks.fail(this.failure.error);
      return chunks;
    }
    this.pending.set(id, chunks);
    worker.postMessage({ id, input });
    return chunks;
  }

  /** Credits the workers have not used: how many more messages they may post before results are taken. */
  get unusedCredits(): number {
    return this.workers.reduce((sum, { credits }) => sum + Atomics.load(credits, 0), 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }
}
