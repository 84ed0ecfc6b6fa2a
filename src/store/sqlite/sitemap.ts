/**
 * The sitemap's reads on SQLite (Store.ts SitemapStore, docs/sitemaps.md): pages counted by a
 * window over the id index, entries by keyset, so no read hands over more than a page.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { SitemapEntry, SitemapKind, SitemapPage, SitemapRange } from '../Store.js';
import { checkPageSize, GND_BEFORE, GND_FROM, toEntry, toPage, type EntryRow, type PageRow } from '../sitemapRows.js';

/** Items that have a page: stored and not blocked. */
const SERVED_ITEMS = 'FROM items WHERE id NOT IN (SELECT id FROM blocked_items)';
/** Persons that have a page: GND persons. */
const GND_PERSONS = `FROM persons WHERE id >= '${GND_FROM}' AND id < '${GND_BEFORE}'`;

export class SqliteSitemap {
  private readonly pages: Record<SitemapKind, Statement<[number], PageRow>>;
  /** By kind, then `${after ? '>' : '>='}${before ? '<' : ''}`: four statements each, no SQL made per request. */
  private readonly entries: Record<SitemapKind, Record<string, Statement<unknown[], EntryRow>>>;

  constructor(db: Database) {
    // SQLite compares TEXT by its bytes (BINARY): UTF-8 byte order is code point order.
    this.pages = {
      item: db.prepare(
        `SELECT min(id) AS first_id, count(*) AS n, max(updated_at) AS last
         FROM (SELECT id, updated_at, (row_number() OVER (ORDER BY id) - 1) / CAST(? AS INTEGER) AS bucket ${SERVED_ITEMS})
         GROUP BY bucket ORDER BY bucket`,
      ),
      person: db.prepare(
        `SELECT min(id) AS first_id, count(*) AS n, max(updated_at) AS last
         FROM (SELECT id, updated_at, (row_number() OVER (ORDER BY id) - 1) / CAST(? AS INTEGER) AS bucket ${GND_PERSONS})
         GROUP BY bucket ORDER BY bucket`,
      ),
    };
    const select = { item: `SELECT id, updated_at ${SERVED_ITEMS}`, person: `SELECT id, updated_at ${GND_PERSONS}` };
    const statements = (kind: SitemapKind) =>
      Object.fromEntries(
        ['>=', '>'].flatMap((op) => [
          [op, db.prepare<unknown[], EntryRow>(`${select[kind]} AND id ${op} ? ORDER BY id LIMIT ?`)],
          [`${op}<`, db.prepare<unknown[], EntryRow>(`${select[kind]} AND id ${op} ? AND id < ? ORDER BY id LIMIT ?`)],
        ]),
      );
    this.entries = { item: statements('item'), person: statements('person') };
  }

  sitemapPages(kind: SitemapKind, pageSize: number): SitemapPage[] {
    checkPageSize(pageSize);
    return this.pages[kind].all(pageSize).map(toPage);
  }

  listSitemapEntries(kind: SitemapKind, range: SitemapRange): SitemapEntry[] {
    const op = range.after === true ? '>' : '>=';
    const rows =
      range.before === undefined
        ? this.entries[kind][op]!.all(range.from, range.limit)
        : this.entries[kind][`${op}<`]!.all(range.from, range.before, range.limit);
    return rows.map(toEntry);
  }
}
