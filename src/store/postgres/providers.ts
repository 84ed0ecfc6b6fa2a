/**
 * Institutions on PostgreSQL (issue #15 point 6), as src/store/sqlite/providers.ts:
 * the providers the packages name, and which one delivered each item.
 */
import type pg from 'pg';
import type { ProviderRecord, ProviderSummary } from '../Store.js';
import type { Queryable } from './db.js';

interface ProviderRow {
  key: string;
  ddb_id: string;
  provider_id: string;
  parent_id: string;
  name: string;
  uri: string;
  sectors: string;
  latitude: string;
  longitude: string;
  state: string;
  logo: string;
  item_count: number;
}

export class PgProviders {
  /** Records the item's institutions; the first delivered it. Called inside the item's transaction. */
  async replace(db: Queryable, itemId: string, providers: readonly ProviderRecord[] | undefined): Promise<void> {
    if (providers === undefined || providers.length === 0) {
      await db.query('DELETE FROM item_providers WHERE item_id = $1', [itemId]);
      return;
    }
    for (const p of providers) {
      await db.query(
        `INSERT INTO providers (key, ddb_id, provider_id, parent_id, name, uri, sectors, latitude, longitude, state, logo)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (key) DO UPDATE SET
           ddb_id = excluded.ddb_id, provider_id = excluded.provider_id, parent_id = excluded.parent_id,
           name = excluded.name, uri = excluded.uri, sectors = excluded.sectors, latitude = excluded.latitude,
           longitude = excluded.longitude, state = excluded.state, logo = excluded.logo`,
        [p.key, p.ddbId, p.providerId, p.parentId, p.name, p.uri, p.sectors.join(' '), p.latitude, p.longitude, p.state, p.logo],
      );
    }
    await db.query(
      'INSERT INTO item_providers (item_id, provider) VALUES ($1, $2) ON CONFLICT (item_id) DO UPDATE SET provider = excluded.provider',
      [itemId, providers[0]!.key],
    );
  }

  async isLinked(db: Queryable, itemId: string): Promise<boolean> {
    return ((await db.query('SELECT 1 FROM item_providers WHERE item_id = $1', [itemId])).rowCount ?? 0) > 0;
  }

  async list(pool: pg.Pool): Promise<ProviderSummary[]> {
    const { rows } = await pool.query<ProviderRow>(`
      SELECT p.*, coalesce(c.n, 0) AS item_count
      FROM providers p LEFT JOIN (SELECT provider, count(*) AS n FROM item_providers GROUP BY provider) c ON c.provider = p.key
      ORDER BY p.name, p.key`);
    return rows.map((r) => ({
      key: r.key,
      ddbId: r.ddb_id,
      providerId: r.provider_id,
      parentId: r.parent_id,
      name: r.name,
      uri: r.uri,
      sectors: r.sectors === '' ? [] : r.sectors.split(' '),
      latitude: r.latitude,
      longitude: r.longitude,
      state: r.state,
      logo: r.logo,
      itemCount: r.item_count,
    }));
  }
}
