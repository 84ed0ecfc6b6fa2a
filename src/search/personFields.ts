/**
 * How a person is laid out for search and storage: the facet values of a
 * person (the engine's document: src/search/engine/personDocument.ts), the
 * stored document (spec 2.1), and the gender vocabulary. Shared by every backend.
 */
import type { Person } from '../domain/person.js';
import { normaliseGender } from '../domain/personNames.js';
import type { QueryNode } from '../query/ast.js';
import { FACETS, type FacetName } from './entitySearch.js';

/**
 * Facet values of a person, as [facet index, value] pairs without repeats (spec 2.2,
 * docs/decisions.md "Person facets").
 */
export function facetValues(person: Person): Array<[number, string]> {
  const byFacet: Record<FacetName, string[]> = {
    person_name_fct: [person.preferredName],
    person_place_fct: [...(person.placeOfBirth ?? []), ...(person.placeOfDeath ?? [])],
    person_gender_fct: person.gender ?? [],
    person_occupation_fct: person.professionOrOccupation ?? [],
  };
  const out: Array<[number, string]> = [];
  FACETS.forEach((facet, i) => {
    for (const v of new Set(byFacet[facet])) out.push([i, v]);
  });
  return out;
}

/**
 * The stored document: spec 2.1's entity without `count`, keys in the spec's
 * order, empty optional fields omitted. Gender is a facet, not an entity field.
 */
export function entityDoc(person: Person): string {
  const doc: Record<string, unknown> = { id: person.id, type: 'person', preferredName: person.preferredName, variantName: person.variantName };
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
 * array; left out when empty) and its count, for src/search/engine/storeFeed.ts.
 */
export function withGenderAndCount(doc: string, genderJson: string, count: number): string {
  return genderJson === '[]' ? withCount(doc, count) : `${doc.slice(0, -1)},"gender":${genderJson},"count":${count}}`;
}

/**
 * Gender is stored in one vocabulary ("Mann", "Frau", "Unbekannt";
 * src/domain/personNames.ts); a filter or a `gender:` term in the other one
 * ("Männlich", "Weiblich") asks for the same persons (docs/decisions.md "Person fields").
 */
export function normaliseFacetValue(facet: FacetName, value: string): string {
  return facet === 'person_gender_fct' ? normaliseGender(value) : value;
}

/** The query with `gender:` terms and phrases in the stored vocabulary. */
export function normaliseQuery(node: QueryNode): QueryNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map(normaliseQuery) };
    case 'not':
      return { kind: 'not', child: normaliseQuery(node.child) };
    case 'term':
    case 'phrase':
      return node.field === 'gender' ? { ...node, text: normaliseGender(node.text) } : node;
    default:
      return node;
  }
}
