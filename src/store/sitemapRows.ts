/**
 * What both backends share of the sitemap's reads (docs/sitemaps.md; Store.ts SitemapStore):
 * which persons have a page, and the page rows as the Store hands them over.
 */
import type { SitemapEntry, SitemapPage } from './Store.js';

/** GND persons' ids start so (src/domain/person.ts canonicalGndUri): the range [GND_FROM, GND_BEFORE). */
export const GND_FROM = 'http://d-nb.info/gnd/';
/** The first string after every id that starts with GND_FROM ('/' + 1 is '0'). */
export const GND_BEFORE = 'http://d-nb.info/gnd0';

export interface PageRow {
  first_id: string;
  n: number;
  last: number | null;
}

export interface EntryRow {
  id: string;
  updated_at: number | null;
}

export const toPage = (r: PageRow): SitemapPage => ({
  firstId: r.first_id,
  count: Number(r.n),
  lastModified: r.last === null ? null : new Date(Number(r.last)),
});

export const toEntry = (r: EntryRow): SitemapEntry => ({
  id: r.id,
  lastModified: r.updated_at === null ? null : new Date(Number(r.updated_at)),
});

/** A page size the reads accept: a whole number from 1. */
export function checkPageSize(pageSize: number): void {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`a sitemap page holds at least 1 entry, not ${pageSize}`);
}
