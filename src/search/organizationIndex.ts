/**
 * The organizations of GET /search/organization (ddb-openapi-6.8 getSearchOrganization and
 * its facets, sortcriteria, suggest): the institutions the store's packages name
 * (Store.listProviders, the same list as /institutions), as a third schema on the one
 * engine (engine/SearchIndex.ts), outside the search workers: institutions are few (one
 * per provider, hundreds where items are millions), so the index is rebuilt from the list
 * whenever the data version moves. docs/search.md "Organizations" says which of the
 * OpenAPI's organization fields our data has.
 */
import type { ProviderSummary } from '../domain/institution.js';
import { fold } from './engine/fold.js';
import type { Schema } from './engine/schema.js';
import { SearchIndex } from './engine/SearchIndex.js';
import type { SearchDocument } from './engine/types.js';

export const ORGANIZATION_FACETS = ['sector_fct', 'state_fct'] as const;

/**
 * Fields named as the OpenAPI's organization parameters (the index's field names):
 * `preferredName` (the institution's name), `state`, the facets `sector_fct` (its DDB
 * sectors) and `state_fct`, the number `count` (items it delivered).
 */
export const organizationSchema: Schema = {
  kind: 'organization',
  idField: 'id',
  text: [
    { name: 'preferredName', weight: 8 },
    { name: 'state', weight: 1 },
  ],
  facets: ORGANIZATION_FACETS,
  numbers: [{ name: 'count', example: 'count:[1 TO *]' }],
  sortKeys: [
    { name: 'preferredName', type: 'string', queryable: true },
    { name: 'count', type: 'number' },
  ],
  relevanceTiebreak: [
    { key: 'count', descending: true },
    { key: 'preferredName', descending: false },
  ],
};

/** One organization as a hit shows it (docs/search.md "Organizations"). */
export interface OrganizationDoc {
  id: string;
  ddb_organization_id: string;
  preferredName: string;
  sector_fct: string[];
  state: string;
  parent_id: string;
  latitude: number | null;
  longitude: number | null;
  uri: string;
  count: number;
}

/** A coordinate as a number, or null when the package gives none (or nonsense), as /institutions/map. */
function coordinate(text: string, limit: number): number | null {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Math.abs(n) <= limit ? n : null;
}

export function organizationDoc(p: ProviderSummary): OrganizationDoc {
  return {
    id: p.ddbId || p.providerId || p.key,
    ddb_organization_id: p.ddbId,
    preferredName: p.name,
    sector_fct: p.sectors,
    state: p.state,
    parent_id: p.parentId,
    latitude: coordinate(p.latitude, 90),
    longitude: coordinate(p.longitude, 180),
    uri: p.uri,
    count: p.itemCount,
  };
}

function searchDocument(d: OrganizationDoc): SearchDocument {
  return {
    id: d.id,
    text: { preferredName: d.preferredName === '' ? [] : [d.preferredName], state: d.state === '' ? [] : [d.state] },
    facets: { sector_fct: d.sector_fct, state_fct: d.state === '' ? [] : [d.state] },
    numbers: { count: d.count },
    sort: { preferredName: d.preferredName === '' ? null : fold(d.preferredName), count: d.count },
  };
}

export interface OrganizationIndex {
  index: SearchIndex;
  /** The rendered doc of each id, as JSON text. */
  docs: ReadonlyMap<string, string>;
}

/** The index of `providers`; an institution listed twice under one id is kept once (the first). */
export function buildOrganizationIndex(providers: readonly ProviderSummary[]): OrganizationIndex {
  const index = new SearchIndex(organizationSchema);
  const docs = new Map<string, string>();
  for (const p of providers) {
    const doc = organizationDoc(p);
    if (docs.has(doc.id)) continue;
    docs.set(doc.id, JSON.stringify(doc));
    index.upsert(searchDocument(doc));
  }
  return { index, docs };
}
