/**
 * The pages of ListRecords and ListIdentifiers (docs/oai-pmh.md "Resumption tokens"), and the
 * next page prepared while a harvester reads the current one (docs/oai-pmh.md "Speed").
 *
 * A harvester asks for one page after the other, each after the answer to the one before, so
 * the time a page takes the server is on the harvest's critical path. Once a page is answered
 * its token names the next, which is then read and written in the background, and the request
 * that brings that token takes it ready. A prepared page is one read of the store as any page
 * is, made after the request for the page before it was answered, so a harvest stays exact
 * (docs/oai-pmh.md "Why a harvest is exact": the read follows the harvest's first request).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { OaiRecord, Store } from '../../store/Store.js';
import type { ListVerb, TokenState } from './resumptionToken.js';

export type ListState = Extract<TokenState, { verb: ListVerb }>;

export interface ListPage {
  /** Whether the selection had any record where this read began (false: noRecordsMatch). */
  matched: boolean;
  /** The elements of the page's records, in order; empty when none of them can be given in the format. */
  body: string;
  /** The num of the page's last record read: where the next page begins. */
  after: number;
  /** Records read so far in the list, this page's included. */
  cursor: number;
  /** Whether records follow. */
  more: boolean;
}

/** Records written between turns of the event loop: other requests and the answer being sent go on meanwhile. */
const RECORDS_PER_TURN = 50;

/**
 * The page after `state`: `pageSize` records read in num order, each given to `element`
 * (undefined: the record cannot be given in the format and is left out). A read whose records
 * all are left out is followed by the next, since a list page may not be empty (the schema's
 * minOccurs).
 */
export async function readListPage(
  store: Store,
  state: ListState,
  pageSize: number,
  element: (record: OaiRecord) => string | undefined,
): Promise<ListPage> {
  let body = '';
  let after = state.after;
  let cursor = state.cursor;
  let more = false;
  let first = true;
  while (body === '') {
    const records = await store.listOaiRecords({
      after,
      set: state.set,
      from: state.from,
      until: state.until,
      limit: pageSize + 1,
      bodies: state.verb === 'ListRecords',
    });
    if (records.length === 0 && first) return { matched: false, body, after, cursor, more: false };
    first = false;
    const page = records.slice(0, pageSize);
    more = records.length > pageSize;
    for (let i = 0; i < page.length; i++) {
      if (i > 0 && i % RECORDS_PER_TURN === 0) await nextTurn();
      body += element(page[i]!) ?? '';
    }
    if (page.length > 0) after = page[page.length - 1]!.num;
    cursor += page.length;
    if (!more) break;
  }
  return { matched: true, body, after, cursor, more };
}

/** Pages prepared at once, at most: a harvester each; the oldest is dropped for a new one. */
export const PREPARED_PAGES = 8;
/** A prepared page not asked for within this time is dropped: its harvester stopped or went elsewhere. */
export const PREPARED_MS = 15_000;

/**
 * Next pages prepared, by the key of their request (the token, and what else the page's text
 * depends on). Bounded in count and in time; a page is given once, to the first request that
 * brings its key, and a failed preparation is no page: that request reads the store itself
 * and meets the failure as its own (a store gone away: 503).
 */
export class PreparedPages {
  private readonly pages = new Map<string, { page: Promise<ListPage | undefined>; timer: NodeJS.Timeout }>();

  constructor(
    private readonly max = PREPARED_PAGES,
    private readonly ms = PREPARED_MS,
  ) {}

  /** The page prepared for `key` (once), or undefined. */
  take(key: string): Promise<ListPage | undefined> | undefined {
    const entry = this.pages.get(key);
    if (entry === undefined) return undefined;
    this.drop(key);
    return entry.page;
  }

  /** Prepares a page for `key` once the current turn is done (the answer in hand is sent first). */
  prepare(key: string, read: () => Promise<ListPage>): void {
    if (this.pages.has(key)) return;
    while (this.pages.size >= this.max) this.drop(this.pages.keys().next().value!);
    const page = nextTurn()
      .then(read)
      .catch(() => undefined);
    const timer = setTimeout(() => this.drop(key), this.ms).unref();
    this.pages.set(key, { page, timer });
  }

  get size(): number {
    return this.pages.size;
  }

  private drop(key: string): void {
    const entry = this.pages.get(key);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.pages.delete(key);
  }
}
