/**
 * What goes into the engine and what a search asks and answers. Plain data only: these
 * cross a worker thread boundary (structured clone), so no classes and no functions.
 */
import type { QueryNode } from '../../query/ast.js';
import type { GeoShape } from './geo.js';

/** A stored field's value, as Solr's `fl` shows it. */
export type StoredValue = string | number | string[];

/** One document as a backend hands it over (schema.ts names the fields). */
export interface SearchDocument {
  id: string;
  /** Text per text field; each value is tokenised on its own (a phrase never spans two values). */
  text: Readonly<Record<string, readonly string[]>>;
  /** Exact values per facet; repeats are ignored. */
  facets: Readonly<Record<string, readonly string[]>>;
  /** One number per numeric field; absent or null = no value. */
  numbers: Readonly<Record<string, number | null>>;
  /** One value per sort key (strings compared by code point: fold them first); absent or null = none. */
  sort: Readonly<Record<string, string | number | null>>;
}

/**
 * Document order of a search. Every order ends with the id ascending, so it is total:
 *   relevance: exact first-field match first, then score descending, then the schema's
 *              `relevanceTiebreak`, then id;
 *   key:       the sort key's value (documents without one last, in either direction), then id;
 *   random:    a hash of (seed, id), then id: the same seed gives the same order on any backend;
 *   id:        the id (code point order);
 *   tiers:     with `exact`, the exact first-field matches of relevance first; then the
 *              documents matching `tiers[0]`, then `tiers[1]`, …, then the rest; within a
 *              tier by `keys` (each missing value last), then id. No scores: the entity
 *              search's relevance (docs/api.md "Relevance": exact name, all words in the
 *              name, the rest; then count, name) and orders of several keys (`keys` alone).
 */
export type SearchSort =
  | { kind: 'relevance' }
  | { kind: 'key'; key: string; descending: boolean }
  | { kind: 'random'; seed: string }
  | { kind: 'id'; descending: boolean }
  /** By the distance of each hit's point from a point (the schema's `geo`; geo.ts), documents without a point last, then id. */
  | { kind: 'distance'; lat: number; lon: number; descending: boolean }
  | {
      kind: 'tiers';
      exact: boolean;
      tiers: ReadonlyArray<QueryNode<string>>;
      keys: ReadonlyArray<{ key: string; descending: boolean }>;
    };

export interface FacetRequest {
  field: string;
  /** Values listed at most; -1 = all. */
  limit: number;
  /** A value is listed when its count is at least this (Solr's facet.mincount; v1's minDocs + 1). */
  mincount: number;
  /** By count descending (ties by value), or by value ("index" in Solr). Values compare by code point. */
  sort: 'count' | 'index';
}

export interface SearchRequest {
  query: QueryNode<string>;
  /** Facet filters: values of one facet are OR-ed, facets AND-ed. */
  filters?: Readonly<Record<string, readonly string[]>>;
  /** Shapes each hit's point must lie in (the schema's `geo`; geo.ts), AND-ed with the query and the filters. */
  geo?: readonly GeoShape[];
  facets?: readonly FacetRequest[];
  sort: SearchSort;
  /** Ignored with a cursor. */
  offset: number;
  rows: number;
  /** `*` to start deep paging, or a `nextCursor` of the same search; undefined = offset paging. */
  cursor?: string;
  /**
   * "Did you mean" (spellcheck.ts; docs/search-engine.md "Spellcheck"): when the query finds fewer than `minHits`
   * documents, its rare or absent terms are corrected from the index's vocabulary and the
   * corrected query is answered in `correctedQuery` if it finds more. `text` is the query as
   * sent (the text `query` was parsed from), so the correction keeps it as written.
   */
  spellcheck?: SpellcheckRequest;
  /**
   * `false` when the total is not asked (docs/search-engine.md "Uncounted pages"): a relevance
   * page of an OR of words, without facets, filters, shapes, spellcheck or cursor, is then
   * found without making the OR's hits, and `total` is only a lower bound (the candidates the
   * page was chosen from). The page is the same either way.
   */
  count?: false;
}

export interface SpellcheckRequest {
  /** Correct when the query finds fewer documents than this (Solr's spellcheck.minHits; the API's default is 1). */
  minHits: number;
  /** The query as sent. */
  text: string;
}

export interface FacetCounts {
  field: string;
  values: Array<{ value: string; count: number }>;
}

export interface SearchResult {
  total: number;
  /** The page, in order. */
  ids: string[];
  /** Relevance score of each id of the page (0 when the sort is not relevance). */
  scores: number[];
  facets: FacetCounts[];
  /** Terms of the query (as written, `goe*` for a prefix) that matched a hit, in query order. */
  matchedTerms: string[];
  /** With a cursor: where the next page starts (the same cursor when this page is empty). */
  nextCursor?: string;
  /**
   * With `spellcheck`: the query as sent with its misspelt terms corrected, when that finds
   * more documents; "" when no correction was made (absent without `spellcheck`).
   */
  correctedQuery?: string;
}

/**
 * One change of the store of record, as a backend's change feed delivers it (feed.ts).
 * An upsert replaces the document with the same id.
 */
export type Change = { op: 'upsert'; doc: SearchDocument } | { op: 'delete'; id: string };
