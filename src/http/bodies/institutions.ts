/**
 * The answers of /institutions, /institutions/sectors and /institutions/map
 * (ddb-openapi-6.8.yml getInstitution,
 * getInstitutionSector, getInstitutionMap), made from the institutions the
 * store's packages name. Shapes: docs/api.md "Institutions".
 */
import type { ProviderSummary } from '../../domain/institution.js';

/** The DDB sectors (Sparten) in the order the OpenAPI files list them. */
export const SECTOR_CODES = ['sec_01', 'sec_02', 'sec_03', 'sec_04', 'sec_05', 'sec_06', 'sec_07'] as const;

export interface InstitutionFilter {
  /** Only institutions of this sector (one of SECTOR_CODES). */
  sector?: string;
  /** Only institutions that delivered items. */
  hasItems?: boolean;
}

interface Institution {
  id: string;
  providerId: string;
  name: string;
  sector: string;
  sectors: string[];
  latitude: number | null;
  longitude: number | null;
  state: string;
  uri: string;
  numberOfItems: number;
  children: Institution[];
}

/** A coordinate as a number, or null when the package gives none (or nonsense). */
function coordinate(text: string, limit: number): number | null {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Math.abs(n) <= limit ? n : null;
}

function institution(p: ProviderSummary, children: Institution[]): Institution {
  return {
    id: p.ddbId || p.providerId,
    providerId: p.providerId,
    name: p.name,
    sector: p.sectors[0] ?? '',
    sectors: p.sectors,
    latitude: coordinate(p.latitude, 90),
    longitude: coordinate(p.longitude, 180),
    state: p.state,
    uri: p.uri,
    numberOfItems: p.itemCount,
    children,
  };
}

/** `held`: the items it and the institutions under it delivered (hasItems counts those, as on the DDB's pages). */
function matches(p: ProviderSummary, held: number, filter: InstitutionFilter): boolean {
  return (filter.sector === undefined || p.sectors.includes(filter.sector)) && (filter.hasItems !== true || held > 0);
}

/**
 * The institutions as a tree: each under the institution its provider-parent-id
 * names (when the store knows it), in the order given (by name). With a filter, an
 * institution is kept when it matches or one of its descendants does, so that the
 * tree stays whole.
 */
export function institutionTree(providers: readonly ProviderSummary[], filter: InstitutionFilter): Institution[] {
  const byProviderId = new Map<string, ProviderSummary>();
  for (const p of providers) if (p.providerId !== '' && !byProviderId.has(p.providerId)) byProviderId.set(p.providerId, p);
  const childrenOf = new Map<string, ProviderSummary[]>();
  const roots: ProviderSummary[] = [];
  for (const p of providers) {
    const parent = p.parentId === '' || p.parentId === p.providerId ? undefined : byProviderId.get(p.parentId);
    if (parent === undefined) roots.push(p);
    else childrenOf.set(parent.key, [...(childrenOf.get(parent.key) ?? []), p]);
  }
  const held = new Map<string, number>();
  const heldBy = (p: ProviderSummary, path: Set<string>): number => {
    const known = held.get(p.key);
    if (known !== undefined) return known;
    path.add(p.key);
    let n = p.itemCount;
    for (const c of childrenOf.get(p.key) ?? []) if (!path.has(c.key)) n += heldBy(c, path);
    path.delete(p.key);
    held.set(p.key, n);
    return n;
  };
  const placed = new Set<string>();
  const build = (p: ProviderSummary): Institution | undefined => {
    // A cycle in the parent ids of the data: each institution appears once.
    if (placed.has(p.key)) return undefined;
    placed.add(p.key);
    const children = (childrenOf.get(p.key) ?? []).map(build).filter((c): c is Institution => c !== undefined);
    return matches(p, heldBy(p, new Set()), filter) || children.length > 0 ? institution(p, children) : undefined;
  };
  const tree = roots.map(build).filter((c): c is Institution => c !== undefined);
  // Institutions on a cycle have no root; they are listed at the top.
  for (const p of providers) {
    if (!placed.has(p.key)) {
      const node = build(p);
      if (node) tree.push(node);
    }
  }
  return tree;
}

/** Every sector with the number of institutions that belong to it; one may belong to several. */
export function sectorCounts(providers: readonly ProviderSummary[]): Array<{ value: string; count: number }> {
  return SECTOR_CODES.map((value) => ({ value, count: providers.filter((p) => p.sectors.includes(value)).length }));
}

/**
 * The institutions with coordinates, flat, for a map; `length` -1 for all from
 * `offset`. Flat, so hasItems asks for items of the institution itself.
 */
export function institutionMap(providers: readonly ProviderSummary[], filter: InstitutionFilter, offset: number, length: number) {
  const located = providers.filter(
    (p) => matches(p, p.itemCount, filter) && coordinate(p.latitude, 90) !== null && coordinate(p.longitude, 180) !== null,
  );
  const page = located.slice(offset, length < 0 ? undefined : offset + length);
  return {
    numberOfResults: located.length,
    institutions: page.map((p) => {
      const { children: _, ...flat } = institution(p, []);
      return flat;
    }),
  };
}
