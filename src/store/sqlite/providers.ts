/**
 * Institutions on SQLite (docs/api.md "Institutions"): the providers the packages
 * name, and which one delivered each item. A provider row holds what the
 * package loaded last says about it.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { ProviderRecord, ProviderSummary } from '../../domain/institution.js';

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

export class SqliteProviders {
  private readonly upsert: Statement;
  private readonly link: Statement<[string, string]>;
  private readonly unlink: Statement<[string]>;
  private readonly linked: Statement<[string], { provider: string }>;
  private readonly all: Statement<[], ProviderRow>;

  constructor(db: Database) {
    this.upsert = db.prepare(`
      INSERT INTO providers (key, ddb_id, provider_id, parent_id, name, uri, sectors, latitude, longitude, state, logo)
      VALUES (@key, @ddbId, @providerId, @parentId, @name, @uri, @sectors, @latitude, @longitude, @state, @logo)
      ON CONFLICT (key) DO UPDATE SET
        ddb_id = excluded.ddb_id, provider_id = excluded.provider_id, parent_id = excluded.parent_id,
        name = excluded.name, uri = excluded.uri, sectors = excluded.sectors, latitude = excluded.latitude,
        longitude = excluded.longitude, state = excluded.state, logo = excluded.logo`);
    this.link = db.prepare(
      'INSERT INTO item_providers (item_id, provider) VALUES (?, ?) ON CONFLICT (item_id) DO UPDATE SET provider = excluded.provider',
    );
    this.unlink = db.prepare('DELETE FROM item_providers WHERE item_id = ?');
    this.linked = db.prepare('SELECT provider FROM item_providers WHERE item_id = ?');
    // Counted per provider from the index on item_providers.provider.
    this.all = db.prepare(`
      SELECT p.*, coalesce(c.n, 0) AS item_count
      FROM providers p LEFT JOIN (SELECT provider, count(*) AS n FROM item_providers GROUP BY provider) c ON c.provider = p.key
      ORDER BY p.name, p.key`);
  }

  /** Records the item's institutions; the first delivered it. Called inside the item's transaction. */
  replace(itemId: string, providers: readonly ProviderRecord[] | undefined): void {
    if (providers === undefined || providers.length === 0) {
      this.unlink.run(itemId);
      return;
    }
    for (const p of providers) this.upsert.run({ ...p, sectors: p.sectors.join(' ') });
    this.link.run(itemId, providers[0]!.key);
  }

  /** Whether the item is linked to an institution already (items loaded before migration 7 are not). */
  isLinked(itemId: string): boolean {
    return this.linked.get(itemId) !== undefined;
  }

  list(): ProviderSummary[] {
    return this.all.all().map((r) => ({
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
