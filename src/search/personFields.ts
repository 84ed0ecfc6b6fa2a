/**
 * How a person is laid out for search: the text fields that plain terms
 * search, which field a query may name, the facet values of a person, and the
 * stored document (spec 2.1). Shared by every backend.
 */
import type { Person } from '../ingest/persons/person.js';
import { normaliseGender } from '../domain/personNames.js';
import { QUERY_FIELDS, type QueryField, type QueryNode } from '../query/ast.js';
import { FACETS, type FacetName } from './entitySearch.js';
import { fold, tokens, yearOf } from './fold.js';

/**
 * Full-text fields, in index column order: the query fields (src/query/ast.ts)
 * except id, type and count, which are answered from columns. A plain term
 * searches all of them (decisions.md).
 */
const NOT_TEXT = ['id', 'type', 'count'] as const;
export const TEXT_FIELDS = QUERY_FIELDS.filter(
  (f): f is Exclude<QueryField, (typeof NOT_TEXT)[number]> => !(NOT_TEXT as readonly string[]).includes(f),
);
export type TextField = Exclude<QueryField, (typeof NOT_TEXT)[number]>;

export function isTextField(field: string): field is TextField {
  return (TEXT_FIELDS as readonly string[]).includes(field);
}

/** Bit of each field in fields_mask (field:* asks for it). */
export const FIELD_BIT: Record<TextField, number> = Object.fromEntries(TEXT_FIELDS.map((f, i) => [f, 1 << i])) as Record<TextField, number>;

function values(person: Person, field: TextField): string[] {
  const v = person[field];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * Put between two values of one field in the full-text index, so that a phrase
 * cannot run from the end of one value into the next (Lucene/Solr phrases stay
 * within one value of a multi-valued field). It is a token to FTS5's unicode61
 * (a private-use character counts as a token character) but never a query
 * token: `tokens()` (src/search/fold.ts) keeps letters and digits only.
 */
export const VALUE_GAP = '\uE000';

/** The folded text of each full-text field, array values joined with VALUE_GAP between them. */
export function indexedText(person: Person): string[] {
  return TEXT_FIELDS.map((f) => values(person, f).map(fold).join(` ${VALUE_GAP} `));
}

export function fieldsMask(person: Person): number {
  return TEXT_FIELDS.reduce((mask, f) => (values(person, f).length > 0 ? mask | FIELD_BIT[f] : mask), 0);
}

/** Order-insensitive key of a name: "Friedell, Egon" and "Egon Friedell" are the same name. */
export function nameKey(text: string): string {
  return tokens(text).sort().join(' ');
}

export function sortKey(person: Person): string {
  return fold(person.preferredName);
}

export function years(person: Person): { birth: number | null; death: number | null } {
  return { birth: yearOf(person.dateOfBirth), death: yearOf(person.dateOfDeath) };
}

/** Facet values of a person, as [facet index, value] pairs without repeats (spec 2.2, decisions.md). */
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
 * Gender is stored in one vocabulary ("Mann", "Frau", "Unbekannt";
 * src/domain/personNames.ts); a filter or a `gender:` term in the other one
 * ("Männlich", "Weiblich") asks for the same persons (issue #15 point 10).
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
