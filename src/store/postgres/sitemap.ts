/**
 * The sitemap's reads on PostgreSQL (Store.ts SitemapStore, docs/sitemaps.md): pages counted
 * by a window over the id index, entries by keyset, so no read hands over more than a page.
 * Ids are COLLATE "C": code point order, as on SQLite.
 */
import type pg from 'pg';
import type { SitemapEntry, SitemapKind, SitemapPage, SitemapRange } from '../Store.js';
import { checkPageSize, GND_BEFORE, GND_FROM, toEntry, toPage, type EntryRow, type PageRow } from '../sitemapRows.js';

/** Items that have a page: stored and not blocked. */
const SERVED_ITEMS = 'FROM items i WHERE NOT EXISTS (SELECT 1 FROM blocked_items b WHERE b.id = i.id)';
/** Persons that have a page: GND persons. */
const GND_PERSONS = `FROM persons i WHERE i.id >= '${GND_FROM}' AND i.id < '${GND_BEFORE}'`;

const PAGES: Record<SitemapKind, string> = {
  item: `SELECT min(id) AS first_id, count(*)::int AS n, max(updated_at) AS last
         FROM (SELECT i.id, i.updated_at, (row_number() OVER (ORDER BY i.id) - 1) / $1 AS bucket ${SERVED_ITEMS}) pages
         GROUP BY bucket ORDER BY bucket`,
  person: `SELECT min(id) AS first_id, count(*)::int AS n, max(updated_at) AS last
           FROM (SELECT i.id, i.updated_at, (row_number() OVER (ORDER BY i.id) - 1) / $1 AS bucket ${GND_PERSONS}) pages
           GROUP BY bucket ORDER BY bucket`,
};

const COLUMNS: Record<SitemapKind, string> = { item: 'i.id, i.updated_at', person: 'i.id, i.updated_at' };

export class PgSitemap {
  constructor(private readonly pool: pg.Pool) {}

  async sitemapPages(kind: SitemapKind, pageSize: number): Promise<SitemapPage[]> {
    checkPageSize(pageSize);
    return (await this.pool.query<PageRow>(PAGES[kind], [pageSize])).rows.map(toPage);
  }

  async listSitemapEntries(kind: SitemapKind, range: SitemapRange): Promise<SitemapEntry[]> {
    const from = kind === 'item' ? SERVED_ITEMS : GND_PERSONS;
    // The operator is one of two constants; every value is a parameter.
    const op = range.after === true ? '>' : '>=';
    const { rows } =
      range.before === undefined
        ? await this.pool.query<EntryRow>(`SELECT ${COLUMNS[kind]} ${from} AND i.id ${op} $1 ORDER BY i.id LIMIT $2`, [
            range.from,
            range.limit,
          ])
        : await this.pool.query<EntryRow>(`SELECT ${COLUMNS[kind]} ${from} AND i.id ${op} $1 AND i.id < $2 ORDER BY i.id LIMIT $3`, [
            range.from,
            range.before,
            range.limit,
          ]);
    return rows.map(toEntry);
  }
}
