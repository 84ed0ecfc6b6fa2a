/**
 * Institutions on PostgreSQL (docs/api.md "Institutions"), as src/store/sqlite/providers.ts:
 * the providers the packages name, and which one delivered each item. A load writes
 * them with the items (itemUpserts.ts writeProviders).
 */
import type pg from 'pg';
import type { ProviderSummary } from '../../domain/institution.js';

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
