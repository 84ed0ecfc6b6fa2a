/**
 * The store seam. Everything outside src/store/<backend>/ talks to this
 * interface only; which backend is in use is decided once, in
 * src/store/openStore.ts, from the config.
 *
 * Every operation returns a promise, so that a networked
 * backend (PostgreSQL, src/store/postgres/) fits behind it; the embedded one
 * (SQLite, src/store/sqlite/) answers with promises already resolved. A
 * failure is a rejected promise on every backend.
 */
import type { Ancestry, ChildPage } from '../domain/hierarchy.js';
import type { ProviderRecord, ProviderSummary } from '../domain/institution.js';
import type { SearchFeedStore, StoreSpec } from '../domain/searchFeed.js';

/** An item package prepared by the ingest pipeline, ready to be written. */
export interface PreparedItem {
  id: string;
  /** `@about` of the ProvidedCHO; children name their parent by it (dcterms:isPartOf). */
  choUri: string | null;
  /** The parent's URI from dcterms:isPartOf, as written in the record. */
  parentRef: string | null;
  /** Title of the item (hierarchy label). */
  label: string;
  /** ddb:hierarchyType, `htype_nnn`. */
  hierarchyType: string | null;
  /** ddb:hierarchyPosition; null when the record has none. */
  position: string | null;
  /**
   * edm:isNextInSequence: the URI of the sibling before this one. Gives the
   * position where ddb:hierarchyPosition is absent (docs/decisions.md "Hierarchy").
   */
  previousRef: string | null;
  /** The record's identifier at its source (the OAI-PMH header identifier), by which a source deletes it. */
  sourceId?: string | null;
  /**
   * Digest of what the package was built from, when it was built here (EDM):
   * an unchanged source leaves the stored package, and its ingest-date, alone.
   */
  sourceDigest?: string | null;
  aggregationEntity: boolean;
  /** The canonical cortex XML document. */
  xml: string;
  /** The JSON form, derived from the XML at load time (docs/decisions.md "The JSON form"). */
  json: string;
  /** Strong validator of the content, computed from the XML. */
  etag: string;
  /** Canonical URIs of the persons (and other authorities) the item refers to; they give a person its `count`. */
  refs: string[];
  /**
   * The institution that delivered the item (its `provider-info`) first, then
   * the institutions it belongs to (`provider-parents`), for /institutions.
   * Empty or absent when the package names none.
   */
  providers?: ProviderRecord[];
}

/**
 * A person prepared by the ingest pipeline (src/ingest/persons/preparePerson.ts),
 * ready to be written, computed off the writing thread, for load speed.
 * The search engine makes its document from `doc` (src/search/schemas/personDocument.ts).
 */
export interface PreparedPerson {
  id: string;
  /** The stored entity document (spec 2.1) without `count`. */
  doc: string;
  /** Digest of the whole record: an unchanged record is left alone. */
  digest: string;
  /** Gender values (a facet and a query field, not part of the entity document: docs/api.md). */
  gender: string[];
}

export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** One change of an ingest run, applied in order. */
export type ItemChange = { kind: 'upsert'; item: PreparedItem } | { kind: 'delete'; sourceId: string };

export interface ChangeResult extends UpsertResult {
  /** Items removed because their source deleted them. */
  deleted: number;
}

/** Where an OAI-PMH harvest of one source stands (docs/cli.md "harvest"). */
export interface HarvestState {
  /** The next run asks for records changed from here on (OAI `from`); null before the first complete run. */
  highWater: string | null;
  /** Set while a run is under way: the token of the next page, so a stopped run resumes there. */
  resumptionToken: string | null;
  /** The `from` the current run started with, to start it again if its token expired. */
  runFrom: string | null;
  /** The responseDate of the current run's first page: the high-water mark once the run completes. */
  runStarted: string | null;
}

export type ItemFormat = 'json' | 'xml';

/** What a package request needs before its body: validators and the block. */
export interface ItemHead {
  etag: string;
  lastModified: Date;
  /** Set when an operator blocked the item; the body must then not be served. */
  blockedReason: string | null;
}

export interface ItemDocument extends ItemHead {
  body: Buffer;
  /**
   * Brotli of exactly `body`, when the backend keeps it so: a client that accepts br can
   * be sent it without compressing anew.
   */
  brotli?: Buffer;
}

/** The last load of one kind of record from files (`ingest items`, `ingest entities`, `demo`). */
export interface LoadRun {
  kind: 'items' | 'persons';
  finishedAt: Date;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  problems: number;
}

/** One harvested source (GET /status). */
export interface HarvestStatus {
  /** The key of the source's harvest state (src/ingest/harvest.ts harvestSource). */
  source: string;
  state: HarvestState;
  /** When the harvest last stored a page of this source. */
  updatedAt: Date;
}

export interface StatusStore {
  /** Remembers a finished load run; the previous run of the same kind is replaced. */
  recordLoad(run: LoadRun): Promise<void>;
  /** The last run of each kind, in kind order. */
  listLoads(): Promise<LoadRun[]>;
  /** Every harvested source, in source order. */
  listHarvests(): Promise<HarvestStatus[]>;
}

export interface ApiKeyRecord {
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface ItemStore {
  /** Insert or replace items by id, in one transaction. Unchanged content is left alone. */
  upsertItems(items: readonly PreparedItem[]): Promise<UpsertResult>;
  /**
   * Upserts and deletions in order, in one transaction; with `harvest`, the
   * source's harvest state is saved in the same transaction, so a stop between
   * two calls neither loses nor repeats a page.
   */
  applyItemChanges(changes: readonly ItemChange[], harvest?: { source: string; state: HarvestState }): Promise<ChangeResult>;
  getHarvestState(source: string): Promise<HarvestState | undefined>;
  getItemDocument(id: string, format: ItemFormat): Promise<ItemDocument | undefined>;
  /**
   * The same without the body: enough for a 304, or for a body already
   * compressed and cached under its ETag.
   */
  getItemHead(id: string): Promise<ItemHead | undefined>;
  /** undefined when the item is not in the store. */
  getAncestry(id: string): Promise<Ancestry | undefined>;
  /**
   * The item's children: the items whose dcterms:isPartOf names it. Ordered by
   * position (numeric positions by value, then other positions by text, then
   * items without one), then label, then id, so that pages never overlap.
   * undefined when the item is not in the store.
   */
  getChildren(id: string, offset: number, rows: number): Promise<ChildPage | undefined>;
  /** Ids of the given items whose parent chain loops; each cycle as the ids along it. */
  findCycles(ids: readonly string[]): Promise<string[][]>;
  /** Returns false when there is no such item. */
  blockItem(id: string, reason: string): Promise<boolean>;
  /** Returns false when the item was not blocked. */
  unblockItem(id: string): Promise<boolean>;
  countItems(): Promise<number>;
  /**
   * Ids of stored items in ascending id order (by code point), those after
   * `after` when given, at most `limit`: pages through every item
   * (`heritage-api items list`).
   */
  listItemIds(options: { after?: string | undefined; limit: number }): Promise<string[]>;

  /**
   * Every institution the packages in the store name (as data provider or as
   * the parent of one), with the number of items each delivered, ordered by
   * name, then key.
   */
  listProviders(): Promise<ProviderSummary[]>;
}

export interface KeyStore {
  /** Fails with a UsageError when the name is taken. */
  createKey(name: string, keyHash: string): Promise<void>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /** Returns false when no active key has that name. */
  revokeKey(name: string): Promise<boolean>;
  /** The active key with this hash, if any. */
  findActiveKey(keyHash: string): Promise<{ name: string; keyHash: string } | undefined>;
  /** The hashes of every active key (a few: one per client), for redaction by value (docs/api.md "Keys in logs and answers"). */
  activeKeyHashes(): Promise<string[]>;
  markKeyUsed(name: string, at: Date): Promise<void>;
}

export interface PersonStore {
  /** Insert or replace persons by id, in one transaction. Unchanged records are left alone. */
  upsertPersons(persons: readonly PreparedPerson[]): Promise<UpsertResult>;
  countPersons(): Promise<number>;
}

/**
 * Where a store with replicas reads from (docs/deployment.md "Replicas"; src/store/postgres/replication.ts),
 * for /metrics. Servers are named host:port/database, never with user or password.
 */
export interface ReplicationState {
  primaryReachable: boolean;
  /** The server reads go to now: a replica's name, or the primary's. */
  readingFrom: string;
  readsFromPrimary: boolean;
  replicas: Array<{
    name: string;
    /** Seconds behind the primary at the last check; undefined when it did not answer. */
    lagSeconds: number | undefined;
    /** Answers, is a standby of this schema, and lags at most the maximum: reads may go to it. */
    inUse: boolean;
    /** Why it is left out, when it is. */
    reason: string | undefined;
  }>;
}

/** One record of the OAI-PMH provider (src/store/oaiRecords.ts, docs/oai-pmh.md). */
export interface OaiRecord {
  /** Its place in a harvest's order: given when the id is first stored, kept for good. */
  num: number;
  id: string;
  /** Seconds since 1970: when what a harvester gets of it last changed. */
  datestamp: number;
  /** Deleted, or blocked by an operator: listed with status="deleted" (deletedRecord persistent). */
  deleted: boolean;
  /** Its setSpecs, in code point order. */
  sets: string[];
  /**
   * The package's cortex XML in its stored form (./bodyCodec.ts), when asked for and not
   * deleted: a format decodes what it needs of it (the `edm` format only the package's start).
   */
  storedBody?: Buffer;
}

export interface OaiListQuery {
  /** Records after this num (0: from the first). */
  after: number;
  /** Only records in this set. */
  set?: string | undefined;
  /** Datestamp bounds in seconds, both inclusive (OAI-PMH 2.0 section 2.7.1). */
  from?: number | undefined;
  until?: number | undefined;
  limit: number;
  /** With each live record's package XML (ListRecords), or without (ListIdentifiers). */
  bodies: boolean;
}

/** One record as IIIF Change Discovery lists it (docs/iiif.md "Change Discovery"). */
export interface OaiActivity {
  id: string;
  /** Seconds since 1970: its latest change. */
  datestamp: number;
  /** Seconds since 1970: when it was first stored (its first datestamp). */
  created: number;
  deleted: boolean;
}

export interface OaiSetEntry {
  spec: string;
  /** The institution's name or the root item's label; null when the store has none (a sector: the caller names it). */
  name: string | null;
}

export interface OaiStore {
  /** Records in num order, as OaiListQuery selects them; one snapshot. */
  listOaiRecords(query: OaiListQuery): Promise<OaiRecord[]>;
  getOaiRecord(id: string, body: boolean): Promise<OaiRecord | undefined>;
  /** Sets that have a record (deleted ones included), after `after` in code point order. */
  listOaiSets(after: string | null, limit: number): Promise<OaiSetEntry[]>;
  oaiSetExists(spec: string): Promise<boolean>;
  /** The smallest datestamp of any record (seconds); null when there is none. */
  oaiEarliestDatestamp(): Promise<number | null>;
  /** A random key made with the store, for the HMAC of resumption tokens (docs/oai-pmh.md). */
  oaiTokenSecret(): Promise<string>;
  /** How many records there are, deleted ones included. */
  countOaiRecords(): Promise<number>;
  /** Records by datestamp, then num (oldest first), from `offset`, at most `limit`; one snapshot (docs/iiif.md). */
  listOaiActivity(offset: number, limit: number): Promise<OaiActivity[]>;
  /** The `limit` records changed last, newest first, deleted ones left out (the home page's "new and updated", docs/pages.md). */
  listNewestOaiRecords(limit: number): Promise<OaiActivity[]>;
}

/** What a sitemap lists (docs/sitemaps.md): items with a page, and GND persons. */
export type SitemapKind = 'item' | 'person';

/** One URL of a sitemap page. */
export interface SitemapEntry {
  id: string;
  /** When the item last changed (its package, stored or loaded anew); null for a person: the store keeps no time for one. */
  lastModified: Date | null;
}

export interface SitemapRange {
  from: string;
  after?: boolean | undefined;
  before?: string | undefined;
  limit: number;
}

/** One page of a sitemap: where it starts, and the newest change on it. */
export interface SitemapPage {
  /** Its first id: a page is the ids from here, before the next page's first id. */
  firstId: string;
  count: number;
  /** The newest lastModified of its entries; null for persons. */
  lastModified: Date | null;
}

/**
 * The sitemap's reads (docs/sitemaps.md). Both page through the rows in id order (code point)
 * inside the store, so that neither a sitemap index nor a page holds more than a page's ids
 * in memory. Items: stored and not blocked (they have a page). Persons: those with a GND id
 * (they have a page, /person/{gnd}).
 */
export interface SitemapStore {
  /** The pages of at most `pageSize` entries that the ids make, in id order. */
  sitemapPages(kind: SitemapKind, pageSize: number): Promise<SitemapPage[]>;
  /**
   * Entries in id order from `from` (inclusive; exclusive with `after`: the keyset of the next
   * chunk), before `before` (exclusive) when given, at most `limit`.
   */
  listSitemapEntries(kind: SitemapKind, range: SitemapRange): Promise<SitemapEntry[]>;
}

export interface Store extends ItemStore, OaiStore, PersonStore, KeyStore, StatusStore, SearchFeedStore, SitemapStore {
  /**
   * Changes whenever the stored data may have changed, through this process or
   * another (a running `ingest`). Caches of derived answers compare it.
   */
  dataVersion(): Promise<string>;
  /**
   * undefined when no other connection can reach this store (an in-memory database).
   * Synchronous: what the store was opened with, no I/O.
   */
  reopenSpec(): StoreSpec | undefined;
  close(): Promise<void>;
  /**
   * Synchronous, no I/O: the state of the replicas as last checked; undefined (or absent)
   * for a store without replicas.
   */
  replication?(): ReplicationState | undefined;
}
