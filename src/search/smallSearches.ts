import type { EngineSearch } from './indexHost.js';

/** Searches remembered at most; the oldest is forgotten first. */
const REMEMBERED = 4096;

/** A request longer than this (as JSON) is not remembered: a few such are not worth the memory. */
const LONGEST_KEY = 2048;

/**
 * The searches the pool keeps on one worker because scattering them is not worth it
 * (docs/search-engine.md "Small searches stay on one thread"): a search whose parts took
 * less than `minMs` of their workers' time in all, the last time it was scattered, pays
 * more for the scatter (threads woken, parts cloned and merged, its hits read in the main
 * thread) than it gains. Such a search runs on one worker until it takes more than twice
 * `minMs` there (the index grew, or the machine is busy), and is scattered again. Either
 * way the answer is the same (exact merge, docs/search-engine.md "Shards"); only its cost
 * differs. `minMs` 0 scatters every search.
 */
export class SmallSearches {
  /** Keys of small searches, in the order remembered. */
  private readonly keys = new Set<string>();

  constructor(private readonly minMs: number) {}

  /** The key of a search: undefined when it is not to be remembered. */
  keyOf(search: EngineSearch): string | undefined {
    if (this.minMs <= 0) return undefined;
    const key = JSON.stringify([search.kind, search.request, search.fields === true]);
    return key.length > LONGEST_KEY ? undefined : key;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** A scattered search took `ms` of its workers' time in all. */
  scattered(key: string, ms: number): void {
    if (ms >= this.minMs || this.keys.has(key)) return;
    if (this.keys.size >= REMEMBERED) this.keys.delete(this.keys.values().next().value!);
    this.keys.add(key);
  }

  /** A search on one worker took `ms` there. */
  ranAlone(key: string, ms: number): void {
    if (ms > 2 * this.minMs) this.keys.delete(key);
  }

  get size(): number {
    return this.keys.size;
  }
}
