/**
 * What the reconciliation service knows (docs/reconciliation.md "Types and properties"): its
 * three types and the properties of each, for queries (`properties` of a reconciliation
 * query), data extension and the suggest services. Ids are short and stable; names in English.
 */

export type EntityKind = 'person' | 'institution' | 'item';

export const KINDS: readonly EntityKind[] = ['person', 'institution', 'item'];

export interface TypeInfo {
  id: EntityKind;
  name: string;
  description: string;
}

export const TYPES: readonly TypeInfo[] = [
  { id: 'person', name: 'Person', description: 'A person of the authority file (GND), with life dates, places and occupations' },
  { id: 'institution', name: 'Institution', description: 'An institution that delivered items (archive, library, museum, …)' },
  { id: 'item', name: 'Object', description: 'A cultural heritage object (an item), by title, with its date and place' },
];

export interface PropertyInfo {
  id: string;
  name: string;
  kind: EntityKind;
  /** Compared when a reconciliation query gives it; otherwise only for data extension. */
  matchable: boolean;
}

export const PROPERTIES: readonly PropertyInfo[] = [
  { id: 'preferredName', name: 'Preferred name', kind: 'person', matchable: false },
  { id: 'variantName', name: 'Variant name', kind: 'person', matchable: true },
  { id: 'dateOfBirth', name: 'Date of birth', kind: 'person', matchable: true },
  { id: 'dateOfDeath', name: 'Date of death', kind: 'person', matchable: true },
  { id: 'placeOfBirth', name: 'Place of birth', kind: 'person', matchable: true },
  { id: 'placeOfDeath', name: 'Place of death', kind: 'person', matchable: true },
  { id: 'professionOrOccupation', name: 'Profession or occupation', kind: 'person', matchable: true },
  { id: 'itemCount', name: 'Number of items about or by the person', kind: 'person', matchable: false },
  { id: 'institutionName', name: 'Name of the institution', kind: 'institution', matchable: false },
  { id: 'sector', name: 'Sector (sec_01 … sec_07)', kind: 'institution', matchable: true },
  { id: 'state', name: 'Federal state', kind: 'institution', matchable: true },
  { id: 'website', name: 'Website', kind: 'institution', matchable: false },
  { id: 'institutionItemCount', name: 'Number of items delivered', kind: 'institution', matchable: false },
  { id: 'title', name: 'Title', kind: 'item', matchable: false },
  { id: 'date', name: 'Date (year)', kind: 'item', matchable: true },
  { id: 'place', name: 'Place', kind: 'item', matchable: true },
  { id: 'provider', name: 'Data provider', kind: 'item', matchable: true },
  { id: 'objectType', name: 'Object type', kind: 'item', matchable: true },
  { id: 'keyword', name: 'Keyword', kind: 'item', matchable: true },
];

export const PROPERTY_BY_ID: ReadonlyMap<string, PropertyInfo> = new Map(PROPERTIES.map((p) => [p.id, p]));

export function isKind(id: string): id is EntityKind {
  return (KINDS as readonly string[]).includes(id);
}

/** The DDB's sectors (Sparten), as /institutions/sectors names them. */
export const SECTOR_NAMES: Readonly<Record<string, string>> = {
  sec_01: 'Archive',
  sec_02: 'Library',
  sec_03: 'Monument protection',
  sec_04: 'Research',
  sec_05: 'Media',
  sec_06: 'Museum',
  sec_07: 'Other',
};
