/**
 * The search engine's indexes of one store, one per kind (issue #14 point 5), kept up to
 * date from the store's change feed (point 6) and asked by the search service: in a
 * search worker (src/search/searchWorker.ts) or, with no workers, on the main thread.
 *
 * The host knows the store only through SearchFeedStore, the narrow interface every
 * backend implements: changes to index, and the current bodies of the hits to show.
 * Both come as promises (a networked backend); the refreshes of one kind run one after
 * another, never interleaved, so that no batch is applied twice or out of order.
 */
import type { SearchFeedStore, SearchKind } from '../store/Store.js';
import { itemDocumentsFromJson, type ItemResultDoc } from './engine/itemDocument.js';
import { itemSchema, personSchema } from './engine/schema.js';
import { SearchIndex, type SearchIndexOptions } from './engine/SearchIndex.js';
import { FeedRescanError, storeCatchUp, storeFeed } from './engine/storeFeed.js';
import type { SearchDocument, SearchRequest, SearchResult } from './engine/types.js';

/** One search of the engine, as the service is asked it. */
export interface EngineSearch {
  kind: SearchKind;
  request: SearchRequest;
  /** Also hand over each hit's stored fields (`EngineAnswer.fields`), for Solr's `fl`. */
  fields?: boolean;
}

/** A stored field's value, as Solr's `fl` shows it. */
export type StoredValue = string | number | string[];

/**
 * A search's result with what to show of each hit, as JSON text in page order:
 * items: their ItemResultDoc (src/search/engine/itemDocument.ts); persons: the entity
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
}

interface Hosted {
  index: SearchIndex;
  position: string | null;
  /** The feed has been drained at least once: the index holds every document. */
  built: boolean;
}

const SCHEMAS = { item: itemSchema, person: personSchema } as const;

/**
 * Changes read per batch: a slice of refresh() ends after the batch that passes its budget,
 * so a batch must stay short (items: 10-60 KB of package JSON each, ~0.2 ms to map).
 */
const BATCH: Record<SearchKind, number> = { item: 50, person: 500 };

export class IndexHost {
  private readonly hosted: Record<SearchKind, Hosted>;
  /** An index being built from a full scan, to replace the hosted one once caught up. */
  private readonly pending: Partial<Record<SearchKind, Hosted>> = {};
  /** The refresh of each kind under way (settled when none is). */
  private readonly refreshing: Record<SearchKind, Promise<void>> = { item: Promise.resolve(), person: Promise.resolve() };

  constructor(
    private readonly store: SearchFeedStore,
    private readonly options: SearchIndexOptions = {},
  ) {
    this.hosted = { item: this.fresh('item'), person: this.fresh('person') };
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
    const next = this.pending[kind];
    try {
      if (next !== undefined) {
        const r = await storeCatchUp(next.index, storeFeed(this.store, kind), next.position, budgetMs, BATCH[kind]);
        next.position = r.position;
        if (!r.done) return false;
        next.built = true;
        this.hosted[kind] = next;
        delete this.pending[kind];
        return true;
      }
      const h = this.hosted[kind];
      const r = await storeCatchUp(h.index, storeFeed(this.store, kind), h.position, budgetMs, BATCH[kind]);
      h.position = r.position;
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
  async search({ kind, request, fields }: EngineSearch, deadline: number): Promise<EngineAnswer> {
    const result = this.hosted[kind].index.search(request, deadline);
    const bodies = await this.store.readSearchBodies(kind, result.ids);
    const docs: string[] = [];
    const stored: Array<Record<string, StoredValue>> = [];
    bodies.forEach((body, i) => {
      const id = result.ids[i]!;
      // A hit deleted since the index last caught up still shows, as it was found: its id.
      if (body === null) {
        docs.push(JSON.stringify({ id }));
        if (fields) stored.push({ id });
      } else if (kind === 'item') {
        const item = itemDocumentsFromJson(body, id);
        docs.push(JSON.stringify(item.result));
        if (fields) stored.push(storedItemFields(item.result, item.search));
      } else {
        docs.push(body);
        if (fields) stored.push(JSON.parse(body) as Record<string, StoredValue>);
      }
    });
    return fields ? { ...result, docs, fields: stored } : { ...result, docs };
  }

  /** Up to `limit` titles (items) or preferred names (persons) starting with `prefix` (engine/suggest.ts). */
  suggest(kind: SearchKind, prefix: string, limit: number): string[] {
    return this.hosted[kind].index.suggest(prefix, limit);
  }

  private fresh(kind: SearchKind): Hosted {
    return { index: new SearchIndex(SCHEMAS[kind], this.options), position: null, built: false };
  }
}

/** An item's stored fields: its result doc, its facets with values, its day numbers. */
function storedItemFields(result: ItemResultDoc, search: SearchDocument): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = { ...result };
  for (const name of itemSchema.facets) {
    const values = search.facets[name];
    if (values !== undefined && values.length > 0) out[name] = [...new Set(values)];
  }
  for (const name of ['begin_time', 'end_time']) {
    const n = search.numbers[name];
    if (typeof n === 'number' && Number.isFinite(n)) out[name] = n;
  }
  return out;
}
