/**
 * How a backend feeds the engine (docs/search-engine.md "The store's change feed"): the
 * narrow interface a store implements (SQLite and PostgreSQL alike), and the loop that applies it in slices
 * so that a worker never holds its event loop longer than a budget.
 *
 * A backend keeps a change log (or a version column) and answers "what changed after this
 * position": each change an upsert with the whole new document or a delete by id. A
 * position is opaque to the engine; `null` asks for everything (a full build). Changes are
 * idempotent, so replaying some after a restart is harmless.
 */
import type { SearchIndex } from './SearchIndex.js';
import type { Change } from './types.js';

export interface ChangeBatch {
  changes: Change[];
  /** The position after the last change of this batch. */
  position: string;
  /** True when no change after `position` exists yet. */
  done: boolean;
}

export interface ChangeFeed {
  /** At most `limit` changes after `position`, in commit order. */
  changesAfter(position: string | null, limit: number): ChangeBatch;
}

export function applyChange(index: SearchIndex, change: Change): void {
  if (change.op === 'upsert') index.upsert(change.doc);
  else index.delete(change.id);
}

/**
 * Applies changes from `position` on until the feed is drained or `budgetMs` has passed;
 * returns where it stopped and whether it caught up. Call again (e.g. from setImmediate)
 * until `done`: searches run between two calls.
 */
export function catchUp(
  index: SearchIndex,
  feed: ChangeFeed,
  position: string | null,
  budgetMs: number,
  batchSize = 1000,
  now: () => number = Date.now,
): { position: string | null; done: boolean; applied: number } {
  const stop = now() + budgetMs;
  let applied = 0;
  for (;;) {
    const batch = feed.changesAfter(position, batchSize);
    for (const c of batch.changes) applyChange(index, c);
    applied += batch.changes.length;
    position = batch.position;
    if (batch.done) {
      index.refreshOrders(1024);
      return { position, done: true, applied };
    }
    if (now() >= stop) return { position, done: false, applied };
  }
}
