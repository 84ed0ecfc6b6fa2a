/**
 * The search engine's indexes of one store, one per kind, kept up to
 * date from the store's change feed (docs/search-engine.md "The store's change feed") and
 * asked by the search service: in a
 * search worker (src/search/searchWorker.ts) or, with no workers, on the main thread.
 *
 * The host knows the store only through SearchFeedStore, the narrow interface every
 * backend implements: changes to index, and the current bodies of the hits to show.
 * Both come as promises (a networked backend); the refreshes of one kind run one after
 * another, never interleaved, so that no batch is applied twice or out of order.
 */
import { LruCache } from '../lruCache.js';
import type { SearchChange, SearchFeedStore, SearchKind } from '../domain/searchFeed.js';
import { resultDocOf } from '../formats/itemFields.js';
import { itemSchema } from './schemas/itemSchema.js';
import { personSchema } from './schemas/personSchema.js';
import { SearchIndex, type RanksOfKey, type SearchIndexOptions } from './engine/SearchIndex.js';
import { FeedRescanError, storeCatchUp, storeFeed, toChange } from './storeFeed.js';
import { applyChange } from './engine/feed.js';
import { IndexProblem, readIndexes, sharedSources, writeIndexes, type KindImage, type SharedIndexes } from './indexFiles.js';
import type { SearchRequest, SearchResult, StoredValue } from './engine/types.js';

/** One search of the engine, as the service is asked it. */
export interface EngineSearch {
  kind: SearchKind;
  request: SearchRequest;
  /** Also hand over each hit's stored fields (`EngineAnswer.fields`), for Solr's `fl`. */
  fields?: boolean;
  /** Also count the live documents of each of these words (`EngineAnswer.docFreqs`; SearchIndex.liveDocumentFrequency). */
  docFreqs?: Array<{ field: string; text: string }>;
  /**
   * Also name each of these values of facet `field` by the value of facet `of` most of its
   * documents carry (`EngineAnswer.names`; SearchIndex.nameOf): the places page's points.
   */
  names?: { field: string; values: string[]; of: string };
  /**
   * Answered by one search thread, not scattered in shards (docs/search-engine.md "Shards"):
   * one of many small searches a page makes at once, which would only pay the scatter's
   * messages and merge twice over.
   */
  oneThread?: boolean;
}

export type { StoredValue } from './engine/types.js';

/**
 * A search's result with what to show of each hit, as JSON text in page order:
 * items: their ItemResultDoc (src/search/schemas/itemDocument.ts); persons: the entity
 * document with its count, as GET /entities serves it (spec 2.1).
 */
export interface EngineAnswer extends SearchResult {
  docs: string[];
  /**
   * With `EngineSearch.fields`, per hit in page order (docs/search.md "Stored fields"):
   * items: the ItemResultDoc's fields, then every facet with values (arrays) and
   * `begin_time` / `end_time` (day numbers) where the package has them; persons: the
   * entity document's fields. A hit deleted since the index caught up: its id alone.
   */
  fields?: Array<Record<string, StoredValue>>;
  /** With `EngineSearch.docFreqs`: each word's live documents, in the order asked. */
  docFreqs?: number[];
  /** With `EngineSearch.names`: each value's name ('' for none), in the order asked. */
  names?: string[];
}

/** What a hit shows (EngineAnswer.docs and .fields), kept per ordinal. */
interface Shown {
  doc: string;
  /** With EngineSearch.fields only; computed the first time they are asked for. */
  fields?: Record<string, StoredValue>;
}

/**
 * Bytes of hits' documents kept per index (Solr's documentCache): the bench's item pages
 * once spent a fifth of their time reading, decompressing, parsing and mapping 20 package
 * bodies of 10–60 KB each (hits are now shown from their stored fields, ~700 bytes, and a
 * repeated page still skips the store). Keyed by ordinal, which names one version of one
 * document (an upsert takes a new one), so an entry never goes stale: a changed
 * document's new ordinal misses. 8 MiB: some 15,000 item docs.
 */
const SHOWN_BYTES = 8 * 2 ** 20;

/**
 * Hits read from the store and mapped at a time for one answer. When hits were shown from
 * their packages, a page of 1,000 read at once held its 10–60 KB bodies through the
 * collector's young-generation passes, which moved them to the old generation as garbage:
 * a walk of 100 such pages grew the search heap to 540 MB, 123 MB read 50 at a time (in the
 * bench). Stored fields are a hundredth of that; the bench's peak (1,307 MB at 1.1 M
 * items) was measured with 50. On PostgreSQL a page of 1,000 hits not yet shown is 20 reads.
 */
const SHOWN_CHUNK = 50;

interface Hosted {
  index: SearchIndex;
  /** Hits' documents by ordinal of this index (a rebuilt index numbers from 0 again). */
  shown: LruCache<Shown>;
  position: string | null;
  /** The feed has been drained at least once: the index holds every document. */
  built: boolean;
  /** Restored from a newer generation in shared memory (IndexHost.rebase), to replace the hosted one once caught up. */
  rebased?: boolean;
  /** The pool's stream it was begun by (IndexHost.begin), in a replica. */
  stream?: number;
}

/**
 * How the replicas of a pool refresh their ranks when a batch catches up (docs/search-engine.md
 * "One copy per node"): one (`share`, the writer) into shared memory, handed to `onShared`
 * for the others, which take it (IndexHost.adoptRanks) instead of each copying its own.
 */
export interface RankSharing {
  share: boolean;
  onShared: (kind: SearchKind, stream: number, refreshes: RanksOfKey[]) => void;
}

export const SCHEMAS = { item: itemSchema, person: personSchema } as const;

/**
 * The indexes on disk (src/search/indexFiles.ts, docs/search-engine.md "Persistence"): read
 * at the start, and written after the first build and then as the store changes.
 */
export interface IndexPersistence {
  /** The directory (search.path resolved: src/search/indexPath.ts). */
  dir: string;
  /** Whether the host starts from what is there (default); `index rebuild` builds from the store. */
  read?: boolean;
  /** Whether this host writes there (one writer per directory: the first search worker). */
  write: boolean;
  /** Shortest time between two writes, in ms; the next one waits for enough changes or `intervalMs`. */
  minGapMs: number;
  /** A write follows any change after this long (search.indexWriteSeconds). */
  intervalMs: number;
  /** A write follows this many changes applied since the last one (sooner than intervalMs, not sooner than minGapMs). */
  changes: (documents: number) => number;
  /** One line for the operator (a rejected index, a failed write). */
  log: (line: string) => void;
  /** One line when an index on disk was read: the generation a start goes on from, so that an operator sees it did not rebuild. */
  info?: (line: string) => void;
  /**
   * The generation the process read once into shared memory for all its search threads
   * (indexFiles.ts readSharedIndexes; docs/search-engine.md "One copy per process"), or null
   * when none was usable (the reader said why): taken instead of reading the directory.
   */
  shared?: () => Promise<SharedIndexes | null>;
}

/** Changes after which a write is due: replaying them at the next start would cost about as much as a twentieth of a rebuild. */
export const WRITE_AFTER_CHANGES = (documents: number): number => Math.max(1000, Math.ceil(documents / 20));

/**
 * Changes read per batch: a slice of refresh() ends after the batch that passes its budget,
 * so a batch must stay short (items: 10-60 KB of package JSON each, ~0.2 ms to map).
 */
const BATCH: Record<SearchKind, number> = { item: 50, person: 500 };

export class IndexHost {
  private hosted: Record<SearchKind, Hosted>;
  /** An index being built from a full scan, to replace the hosted one once caught up. */
  private readonly pending: Partial<Record<SearchKind, Hosted>> = {};
  /** The refresh of each kind under way (settled when none is). */
  private readonly refreshing: Record<SearchKind, Promise<void>> = { item: Promise.resolve(), person: Promise.resolve() };

  /** The indexes on disk have been looked at (read, or found unusable): refreshes go on from there. */
  private opened = false;
  /** Looking at them, under way. */
  private opening: Promise<void> | undefined;
  /** The store's identity, once read (Store.searchIdentity). */
  private identity: string | undefined;
  /** Changes applied to the hosted indexes since the start. */
  private applied = 0;
  /**
   * When the indexes on disk were written (or read), and `applied` as of their images;
   * undefined while the hosted indexes are not on disk (a first build, a rebuild).
   */
  private written: { at: number; applied: number } | undefined;
  /** Moves when a rebuilt index replaces a hosted one (it is not on disk then). */
  private swaps = 0;
  private writing = false;
  /** The generation this host last wrote (0: none). */
  generation = 0;
  /** In a replica of a pool with a writer: how the ranks' refreshes are shared. */
  rankSharing: RankSharing | undefined;

  constructor(
    private readonly store: SearchFeedStore,
    private readonly options: SearchIndexOptions = {},
    private readonly persistence?: IndexPersistence,
  ) {
    this.hosted = { item: this.fresh('item'), person: this.fresh('person') };
    this.opened = persistence === undefined || persistence.read === false;
  }

  /**
   * Takes the newest usable indexes on disk, with the positions they hold, once, before the
   * first refresh (which calls it): the refreshes then apply only the changes since. One that
   * is of another format or store, or damaged, is named in one log line and left for a build
   * from the store. A store that does not answer (its identity unread) fails the call, as it
   * fails a refresh: the next one tries again, and the index on disk is not given up for it.
   */
  open(): Promise<void> {
    if (this.opened) return Promise.resolve();
    this.opening ??= this.readDisk(this.persistence!).finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async readDisk(p: IndexPersistence): Promise<void> {
    this.identity = await this.store.searchIdentity();
    if (p.shared !== undefined) {
      const image = await p.shared();
      this.opened = true;
      if (image !== null && image.manifest.store === this.identity) {
        try {
          this.hosted = this.restored(image, false) as Record<SearchKind, Hosted>;
          this.written = { at: Date.now(), applied: 0 };
        } catch (e) {
          p.log(
            `heritage-api: search index: generation ${image.manifest.generation} in ${p.dir} does not read back: ${(e as Error).message}; building a new one from the store.`,
          );
        }
      }
      return;
    }
    this.opened = true;
    try {
      const found = await readIndexes(p.dir, this.identity);
      for (const problem of found.problems)
        p.log(`heritage-api: search index: ${problem.message}; reading generation ${found.manifest.generation} instead.`);
      const hosted: Partial<Record<SearchKind, Hosted>> = {};
      for (const kind of ['person', 'item'] as const) {
        const h = this.fresh(kind);
        h.index = SearchIndex.fromImage(SCHEMAS[kind], found.sources[kind], this.options);
        h.position = found.manifest.kinds[kind].position;
        hosted[kind] = h;
      }
      this.hosted = hosted as Record<SearchKind, Hosted>;
      this.written = { at: Date.now(), applied: 0 };
      const { generation, kinds } = found.manifest;
      p.info?.(
        `heritage-api: search index: starting from generation ${generation} in ${p.dir} (${kinds.person.documents} persons through ${kinds.person.position}, ` +
          `${kinds.item.documents} items through ${kinds.item.position}); catching up from the change feed.`,
      );
    } catch (e) {
      if (e instanceof IndexProblem) {
        if (e.reason !== 'missing') p.log(`heritage-api: search index: ${e.message}; building a new one from the store.`);
      } else p.log(`heritage-api: search index: cannot read ${p.dir}: ${(e as Error).message}; building a new one from the store.`);
    }
  }

  /** Both kinds' indexes restored over a generation in shared memory, at its positions. */
  private restored(
    image: SharedIndexes,
    rebased: boolean,
    replicated = false,
    kinds: readonly SearchKind[] = ['person', 'item'],
  ): Partial<Record<SearchKind, Hosted>> {
    const sources = sharedSources(image, replicated);
    const out: Partial<Record<SearchKind, Hosted>> = {};
    for (const kind of kinds) {
      const h = this.fresh(kind);
      h.index = SearchIndex.fromImage(SCHEMAS[kind], sources[kind], this.options);
      h.position = image.manifest.kinds[kind].position;
      if (rebased) h.rebased = true;
      out[kind] = h;
    }
    return out;
  }

  /**
   * Goes over to a newer generation in shared memory (one the writer wrote and the process
   * read for all its threads): an index restored over it catches up from its position in the
   * following refreshes, then replaces the hosted one, whose private copy is then garbage.
   * So each thread holds one shared copy plus what changed since the last generation
   * (docs/search-engine.md "One copy per process"). A kind being rebuilt from a full scan is
   * left to that; an image of another store, or one that does not read back, is ignored.
   */
  rebase(image: SharedIndexes): void {
    if (!this.opened || this.identity !== image.manifest.store) return;
    let restored: Partial<Record<SearchKind, Hosted>>;
    try {
      restored = this.restored(image, true);
    } catch (e) {
      this.persistence?.log(
        `heritage-api: search index: generation ${image.manifest.generation} does not read back: ${(e as Error).message}; keeping this thread's own.`,
      );
      return;
    }
    for (const kind of ['person', 'item'] as const)
      if (this.pending[kind] === undefined || this.pending[kind].rebased) this.pending[kind] = restored[kind];
  }

  /**
   * A replica (docs/search-engine.md "One copy per node"): the pool's one reader of the change
   * feed starts a stream of `kind`, which replaces the hosted index once it has caught up.
   * `rebase`: from a generation in shared memory at its position, the hosted index also
   * taking the stream's batches meanwhile (they repeat what it holds: changes are
   * idempotent); `rescan`: from a full scan into a fresh index (an image if one is given),
   * the hosted one left as it is until the swap, as after a pruned position.
   */
  begin(kind: SearchKind, image: SharedIndexes | null, mode: 'rebase' | 'rescan', stream?: number): void {
    this.opened = true;
    const next = image === null ? this.fresh(kind) : this.restored(image, false, true, [kind])[kind]!;
    next.rebased = mode === 'rebase';
    next.stream = stream;
    this.pending[kind] = next;
    // Started from a generation on disk: the next write waits for changes.
    if (image !== null) this.written ??= { at: Date.now(), applied: this.applied };
  }

  /**
   * A replica applies one batch of the stream of `kind` (begin), at once: every replica of
   * the pool applies the same batches in the same order, so each holds the same documents at
   * the same ordinals. The batch that catches the new index up swaps it in.
   */
  apply(kind: SearchKind, changes: readonly SearchChange[], position: string, done: boolean): void {
    const next = this.pending[kind];
    const hosted = this.hosted[kind];
    const targets: Hosted[] = next === undefined ? [hosted] : next.rebased && hosted.built ? [next, hosted] : [next];
    const mapped = changes.map((c) => toChange(kind, c));
    const sharing = this.rankSharing;
    for (const h of targets) {
      for (const c of mapped) applyChange(h.index, c);
      h.position = position;
      if (done) {
        // The replica that shares refreshes the ranks of the index that stays (the one the
        // others hold too); the others take its refresh when it comes (adoptRanks).
        if (sharing === undefined) h.index.refreshOrders(1024);
        else if (sharing.share && h === targets[0]) this.shareRanks(kind, h);
        h.built = true;
      }
    }
    if (next === undefined || next.rebased) this.applied += changes.length;
    if (next !== undefined && done) {
      this.hosted[kind] = next;
      delete this.pending[kind];
      if (!next.rebased) {
        this.written = undefined;
        this.swaps++;
      }
    }
  }

  private shareRanks(kind: SearchKind, h: Hosted): void {
    const before = h.index.sharedRanks();
    h.index.refreshOrders(1024, true);
    const fresh = h.index.sharedRanks().filter((r) => !before.some((b) => b.ranks === r.ranks));
    if (fresh.length > 0 && h.stream !== undefined) this.rankSharing!.onShared(kind, h.stream, fresh);
  }

  /**
   * Takes another replica's refresh of the ranks (RankSharing) into the index of stream
   * `stream` of `kind`, if this one still holds it: the one it serves, or the one catching up.
   */
  adoptRanks(kind: SearchKind, stream: number, refreshes: readonly RanksOfKey[]): void {
    for (const h of [this.hosted[kind], this.pending[kind]]) if (h?.stream === stream) h.index.adoptRanks(refreshes);
  }

  /** The search index on disk is due to be written (IndexPersistence): the indexes are built, and it never was, or enough changed since. */
  writeDue(now = Date.now()): boolean {
    const p = this.persistence;
    if (p === undefined || !p.write || this.writing || !this.built('item') || !this.built('person')) return false;
    if (this.written === undefined) return true;
    const { at } = this.written;
    const changes = this.applied - this.written.applied;
    if (changes === 0 || now - at < p.minGapMs) return false;
    const documents = this.hosted.item.index.size + this.hosted.person.index.size;
    return changes >= p.changes(documents) || now - at >= p.intervalMs;
  }

  /**
   * When a write falls due by time alone, if no further change comes (ms since the epoch);
   * undefined when none is pending (nothing changed since the last write, or no writer).
   * A replica takes changes only as batches come, so without a timer set for this moment
   * the changes of a start's catch-up, or of the last batch of a load, would wait on disk
   * for the next change, and every start would replay them again.
   */
  writeDueAt(): number | undefined {
    const p = this.persistence;
    if (p === undefined || !p.write || this.written === undefined || this.applied === this.written.applied) return undefined;
    return this.written.at + Math.max(p.intervalMs, p.minGapMs);
  }

  /**
   * Writes both indexes to disk as they stand (indexFiles.ts writeIndexes): each image is
   * taken between two refreshes of its kind, so that it holds exactly the changes through
   * its position; the files are written piece by piece while searches and refreshes go on.
   * A failure is logged and retried after minGapMs. Resolves true once written.
   */
  async write(): Promise<boolean> {
    const p = this.persistence;
    if (p === undefined || this.writing) return false;
    this.writing = true;
    const startedAt = Date.now();
    const swaps = this.swaps;
    try {
      this.identity ??= await this.store.searchIdentity();
      const images: Partial<Record<SearchKind, KindImage>> = {};
      // The changes applied after the first image count towards the next write.
      let applied: number | undefined;
      for (const kind of ['person', 'item'] as const) {
        images[kind] = await this.between(kind, () => {
          const h = this.hosted[kind];
          if (h.position === null || !h.built) throw new Error(`the ${kind} index is not built yet`);
          applied ??= this.applied;
          return { image: h.index.image(), position: h.position, documents: h.index.size };
        });
      }
      const manifest = await writeIndexes(p.dir, this.identity, images as Record<SearchKind, KindImage>);
      if (this.swaps === swaps) this.written = { at: startedAt, applied: applied! };
      this.generation = manifest.generation;
      return true;
    } catch (e) {
      p.log(`heritage-api: search index: writing to ${p.dir} failed: ${(e as Error).message}; trying again later.`);
      // Not before minGapMs, and only once something changed.
      this.written = { at: Date.now(), applied: this.applied - 1 };
      return false;
    } finally {
      this.writing = false;
    }
  }

  /** Runs `fn` between two refreshes of `kind` (none under way while it runs). */
  private between<T>(kind: SearchKind, fn: () => T): Promise<T> {
    const run = this.refreshing[kind].then(fn);
    this.refreshing[kind] = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Applies the store's changes of `kind` for about `budgetMs` (one batch at least: BATCH
   * keeps one short); true when it has caught up. A position the store can no longer serve
   * starts a fresh index from a full scan, built by the following calls in the same slices
   * and swapped in once it has caught up, so searches keep the old one meanwhile. A call
   * made while another of the same kind runs starts after it: what it reads was committed
   * before it was made.
   */
  refresh(kind: SearchKind, budgetMs: number): Promise<boolean> {
    const run = this.refreshing[kind].then(() => this.refreshNow(kind, budgetMs));
    // The next refresh waits for this one, whatever its outcome (the caller sees the error).
    this.refreshing[kind] = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async refreshNow(kind: SearchKind, budgetMs: number): Promise<boolean> {
    const stop = Date.now() + budgetMs;
    await this.open();
    const next = this.pending[kind];
    try {
      if (next !== undefined) {
        const r = await storeCatchUp(next.index, storeFeed(this.store, kind), next.position, budgetMs, BATCH[kind]);
        next.position = r.position;
        if (!r.done) return false;
        next.built = true;
        this.hosted[kind] = next;
        delete this.pending[kind];
        if (next.rebased) return true;
        // A new index from a full scan: written as a whole, as after the first build.
        this.written = undefined;
        this.swaps++;
        return true;
      }
      const h = this.hosted[kind];
      const r = await storeCatchUp(h.index, storeFeed(this.store, kind), h.position, budgetMs, BATCH[kind]);
      h.position = r.position;
      this.applied += r.applied;
      if (r.done) h.built = true;
      return r.done;
    } catch (e) {
      if (!(e instanceof FeedRescanError)) throw e;
      // A full scan (position null) is never refused: this recurses once.
      this.pending[kind] = this.fresh(kind);
      return this.refreshNow(kind, Math.max(0, stop - Date.now()));
    }
  }

  /** Whether `kind`'s index has caught up with the store at least once. */
  built(kind: SearchKind): boolean {
    return this.hosted[kind].built;
  }

  index(kind: SearchKind): SearchIndex {
    return this.hosted[kind].index;
  }

  /** Searches `kind`'s index as it stands (refresh first to see the latest commits). */
  async search({ kind, request, fields, docFreqs, names }: EngineSearch, deadline: number): Promise<EngineAnswer> {
    const { index, shown } = this.hosted[kind];
    const result: SearchResult & { docFreqs?: number[]; names?: string[] } = index.search(request, deadline);
    if (docFreqs !== undefined) result.docFreqs = docFreqs.map((w) => index.liveDocumentFrequency(w.field, w.text, deadline));
    if (names !== undefined) result.names = names.values.map((v) => index.nameOf(names.field, v, names.of, deadline));
    // The hits' ordinals now: a refresh may run while the store is read below.
    const keys = result.ids.map((id) => String(index.byId.get(id)));
    const known = keys.map((k) => {
      const s = shown.get(k);
      return s !== undefined && (!fields || s.fields !== undefined) ? s : undefined;
    });
    const missing = result.ids.map((_, i) => i).filter((i) => known[i] === undefined);
    for (let at = 0; at < missing.length; at += SHOWN_CHUNK) {
      const chunk = missing.slice(at, at + SHOWN_CHUNK);
      const bodies = await this.store.readSearchBodies(
        kind,
        chunk.map((i) => result.ids[i]!),
      );
      chunk.forEach((i, j) => {
        const id = result.ids[i]!;
        const body = bodies[j]!;
        // A hit deleted since the index last caught up still shows, as it was found: its id.
        if (body === null) known[i] = { doc: JSON.stringify({ id }), fields: { id } };
        else {
          known[i] = shownOf(kind, body, fields === true);
          shown.set(keys[i]!, known[i]);
        }
      });
    }
    const docs = known.map((s) => s!.doc);
    return fields ? { ...result, docs, fields: known.map((s) => s!.fields!) } : { ...result, docs };
  }

  /** Up to `limit` titles (items) or preferred names (persons) starting with `prefix` (engine/suggest.ts). */
  suggest(kind: SearchKind, prefix: string, limit: number): string[] {
    return this.hosted[kind].index.suggest(prefix, limit);
  }

  private fresh(kind: SearchKind): Hosted {
    const shown = new LruCache<Shown>(SHOWN_BYTES, (s) => 2 * s.doc.length + (s.fields ? 2 * s.doc.length : 0) + 64);
    return { index: new SearchIndex(SCHEMAS[kind], this.options), shown, position: null, built: false };
  }
}

/**
 * A result with what its hits show, read from `store` (SHOWN_CHUNK at a time) without the
 * per-ordinal cache of IndexHost.search: the answer of a search merged from shards on a
 * thread that holds no index (src/search/searchPool.ts).
 */
export async function showResult(store: SearchFeedStore, kind: SearchKind, result: SearchResult, fields: boolean): Promise<EngineAnswer> {
  const shown: Shown[] = [];
  for (let at = 0; at < result.ids.length; at += SHOWN_CHUNK) {
    const ids = result.ids.slice(at, at + SHOWN_CHUNK);
    const bodies = await store.readSearchBodies(kind, ids);
    ids.forEach((id, j) => {
      const body = bodies[j]!;
      shown.push(body === null ? { doc: JSON.stringify({ id }), fields: { id } } : shownOf(kind, body, fields));
    });
  }
  const docs = shown.map((s) => s.doc);
  return fields ? { ...result, docs, fields: shown.map((s) => s.fields!) } : { ...result, docs };
}

/**
 * What a hit shows, from what the store hands over for it (SearchFeedStore.readSearchBodies):
 * an item's stored fields (src/formats/itemFields.ts itemStoredFields), a person's entity document.
 */
function shownOf(kind: SearchKind, body: string, fields: boolean): Shown {
  if (kind === 'item') {
    const stored = JSON.parse(body) as Record<string, StoredValue>;
    const doc = JSON.stringify(resultDocOf(stored));
    return fields ? { doc, fields: stored } : { doc };
  }
  return fields ? { doc: body, fields: JSON.parse(body) as Record<string, StoredValue> } : { doc: body };
}
