/**
 * How a person is laid out for search: the facet values of a person (the engine's
 * document: ./personDocument.ts) and the gender vocabulary of filters and queries. The
 * stored document is src/formats/entityDoc.ts.
 */
import type { Person } from '../../domain/person.js';
import { normaliseGender } from '../../domain/personNames.js';
import type { QueryNode } from '../../query/ast.js';
import { PERSON_FACETS as FACETS, type PersonFacetName as FacetName } from '../../domain/personFacets.js';

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
 * Gender is stored in one vocabulary ("Mann", "Frau", "Unbekannt";
 * src/domain/personNames.ts); a filter or a `gender:` term in the other one
 * ("Männlich", "Weiblich") asks for the same persons (docs/decisions.md "Person fields").
 */
export function normaliseFacetValue(facet: string, value: string): string {
  return facet === 'person_gender_fct' ? normaliseGender(value) : value;
}

/** The query with `gender:` terms and phrases in the stored vocabulary. */
export function normaliseQuery<F extends string>(node: QueryNode<F>): QueryNode<F> {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map((c) => normaliseQuery(c)) };
    case 'not':
      return { kind: 'not', child: normaliseQuery(node.child) };
    case 'term':
    case 'phrase':
      return node.field === 'gender' ? { ...node, text: normaliseGender(node.text) } : node;
    default:
      return node;
  }
}
