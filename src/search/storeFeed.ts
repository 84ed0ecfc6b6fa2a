/**
 * The store's search change feed (Store.readSearchChanges; docs/search-engine.md "The store's change feed") as the
 * engine's ChangeFeed (feed.ts): stored bodies become SearchDocuments of the kind's schema.
 * The store knows no schema and the engine no backend; this is where the two meet.
 *
 * The store answers with promises (a networked backend must), so the feed is
 * read here asynchronously, batch by batch, and each batch applied synchronously with
 * feed.ts applyChange: storeCatchUp is feed.ts catchUp for such a feed.
 *
 * A position the store can no longer serve (its log was pruned past it) throws
 * FeedRescanError: the caller builds a new index from a full scan (position null) and
 * swaps it in. Replaying a full scan into the old index would leave behind the documents
 * deleted meanwhile, since a scan names only the rows that exist.
 */
import type { Person } from '../domain/person.js';
import type { SearchChange, SearchFeedStore, SearchKind } from '../domain/searchFeed.js';
import { applyChange, type ChangeBatch } from './engine/feed.js';
import type { SearchIndex } from './engine/SearchIndex.js';
import { itemDocumentsFromJson } from './schemas/itemDocument.js';
import { personDocument } from './schemas/personDocument.js';
import type { Change } from './engine/types.js';

/** The store cannot continue from the given position: rebuild from a full scan. */
export class FeedRescanError extends Error {
  override readonly name = 'FeedRescanError';
  constructor(
    readonly kind: SearchKind,
    readonly position: string | null,
  ) {
    super(`The ${kind} change feed cannot continue from ${JSON.stringify(position)}: rebuild the index from a full scan.`);
  }
}

/**
 * An item's document is keyed by the id it is stored under (what GET /items/{id} serves
 * and what a delete names), even where the package names another one.
 */
function itemChange(c: SearchChange): Change {
  if (c.body === null) return { op: 'delete', id: c.id };
  const { search } = itemDocumentsFromJson(c.body, c.id);
  return { op: 'upsert', doc: search.id === c.id ? search : { ...search, id: c.id } };
}

/** A person's body is its entity document with `count` (src/formats/entityDoc.ts withCount). */
function personChange(c: SearchChange): Change {
  if (c.body === null) return { op: 'delete', id: c.id };
  const { count, ...person } = JSON.parse(c.body) as Person & { count: number };
  return { op: 'upsert', doc: personDocument({ ...person, id: c.id }, count) };
}

/** One change the store hands over, as a change of the engine (an upsert of the kind's document, or a delete). */
export function toChange(kind: SearchKind, c: SearchChange): Change {
  return kind === 'item' ? itemChange(c) : personChange(c);
}

/** The engine's ChangeFeed (feed.ts), its batches read asynchronously from a store. */
export interface StoreFeed {
  /** At most `limit` changes after `position`, in commit order. */
  changesAfter(position: string | null, limit: number): Promise<ChangeBatch>;
}

/** The engine's feed of one kind from a store (in a search worker: its own connection). */
export function storeFeed(store: SearchFeedStore, kind: SearchKind): StoreFeed {
  const toChange = kind === 'item' ? itemChange : personChange;
  return {
    async changesAfter(position: string | null, limit: number): Promise<ChangeBatch> {
      const batch = await store.readSearchChanges(kind, position, limit);
      if ('rescan' in batch) throw new FeedRescanError(kind, position);
      return { changes: batch.changes.map(toChange), position: batch.position, done: batch.done };
    },
  };
}

/**
 * feed.ts catchUp for a StoreFeed: applies changes from `position` on until the feed is
 * drained or `budgetMs` has passed; returns where it stopped and whether it caught up.
 * The budget counts the applying and the waiting for the store alike.
 */
export async function storeCatchUp(
  index: SearchIndex,
  feed: StoreFeed,
  position: string | null,
  budgetMs: number,
  batchSize: number,
): Promise<{ position: string | null; done: boolean; applied: number }> {
  const stop = Date.now() + budgetMs;
  let applied = 0;
  for (;;) {
    const batch = await feed.changesAfter(position, batchSize);
    for (const c of batch.changes) applyChange(index, c);
    applied += batch.changes.length;
    position = batch.position;
    if (batch.done) {
      index.refreshOrders(1024);
      return { position, done: true, applied };
    }
    if (Date.now() >= stop) return { position, done: false, applied };
  }
}
