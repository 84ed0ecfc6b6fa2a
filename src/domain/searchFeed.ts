/**
 * The contract between the store and the search: the store implements SearchFeedStore
 * (src/store/Store.ts), the search reads it (src/search/storeFeed.ts, the search host).
 * Here, below both, so that neither imports the other (docs/architecture.md "Layers").
 */
/** What the search engine indexes (src/search/storeFeed.ts). */
export type SearchKind = 'item' | 'person';

/** One id whose search document may have changed, with what is stored for it now. */
export interface SearchChange {
  id: string;
  /**
   * item: the stored package JSON text; person: the stored entity document with its
   * `gender` (when it has one) and `count` (GET /entities shows it without the gender).
   * null: the row is gone, or the item is blocked.
   */
  body: string | null;
}

export interface SearchChangeBatch {
  changes: SearchChange[];
  /** Opaque: pass it back to read on from here. */
  position: string;
  /** True when nothing after `position` is stored yet. */
  done: boolean;
}

/**
 * The reader's position points before changes the store has pruned (or into another
 * store): start again with a full scan (`after = null`) into a fresh index.
 */
export interface SearchRescan {
  rescan: true;
}

export interface SearchFeedStore {
  /**
   * A change feed for the search engine, knowing nothing of its schemas.
   * `after === null`: every current row (blocked items left out), in a stable order, in
   * pages; the position after the last page is that of the change log when the scan
   * began, so a commit made during the scan is read afterwards. Otherwise: the ids
   * changed after `after` in commit order, each with its current body; changes of one id
   * within a batch come once. At most `limit` changes per call; reading again from an
   * older position is harmless (every change is a whole document or a delete).
   */
  readSearchChanges(kind: SearchKind, after: string | null, limit: number): Promise<SearchChangeBatch | SearchRescan>;
  /**
   * What a search answer shows of each id (null: gone or blocked): an item's stored fields
   * as JSON (src/formats/itemFields.ts itemStoredFields, kept beside the package
   * and written with it), a person's document as readSearchChanges hands it over but for
   * its gender (as GET /entities shows it).
   */
  readSearchBodies(kind: SearchKind, ids: readonly string[]): Promise<Array<string | null>>;
  /**
   * The store's identity: a random id made with the store (a copy of an SQLite file keeps
   * it, with its change log). A search index written to disk names it beside its feed
   * position, so that it is never continued from another store's log (docs/search-engine.md
   * "Persistence").
   */
  searchIdentity(): Promise<string>;
}

/**
 * How to open another connection to the same store, from another thread (the search
 * workers, src/search/searchJob.ts): structured-clonable. `opener` is the URL of the
 * backend's module, whose `reopenStore(spec)` opens it (StoreOpener): the search runs the
 * workers but imports no store code (docs/architecture.md "Layers"). Only the backend
 * looks inside `settings`.
 */
export interface StoreSpec {
  readonly backend: string;
  readonly opener: string;
  readonly settings: unknown;
}

/** What the module at StoreSpec.opener exports. */
export interface StoreOpener {
  reopenStore(spec: StoreSpec): SearchFeedStore | Promise<SearchFeedStore>;
}

/**
 * What the search host needs of a store on the thread that serves requests: the feed, how
 * to reopen it in a worker (undefined: no other thread can reach it), and its data
 * version, to tell how fresh an index is. Every Store is one.
 */
export interface SearchHostStore extends SearchFeedStore {
  reopenSpec(): StoreSpec | undefined;
  dataVersion(): Promise<string>;
}
