/**
 * The stored document of a person (spec 2.1's entity), as a load writes it and the
 * store hands it to GET /entities and to the search's change feed. Here, below the store
 * and the search, so that both lay it out the same way without importing each other.
 */
import type { Person } from '../domain/person.js';

/**
 * The stored document: spec 2.1's entity without `count`, keys in the spec's
 * order, empty optional fields omitted. Gender is a facet, not an entity field.
 */
export function entityDoc(person: Person): string {
  const doc: Record<string, unknown> = {
    id: person.id,
    type: 'person',
    preferredName: person.preferredName,
    variantName: person.variantName,
  };
  for (const key of ['dateOfBirth', 'dateOfDeath', 'placeOfBirth', 'placeOfDeath', 'professionOrOccupation'] as const) {
    const v = person[key];
    if (v !== undefined && v.length > 0) doc[key] = v;
  }
  return JSON.stringify(doc);
}

/** Adds the count as the last key (spec 2.1 order) without parsing the stored document again. */
export function withCount(doc: string, count: number): string {
  return `${doc.slice(0, -1)},"count":${count}}`;
}

/**
 * The search feed's body of a person: the stored document, its gender (`genderJson`, a JSON
 * array; left out when empty) and its count, for the search's change feed (src/search/storeFeed.ts).
 */
export function withGenderAndCount(doc: string, genderJson: string, count: number): string {
  return genderJson === '[]' ? withCount(doc, count) : `${doc.slice(0, -1)},"gender":${genderJson},"count":${count}}`;
}
