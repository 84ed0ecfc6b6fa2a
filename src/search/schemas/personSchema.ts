/**
 * The schema of persons (GET /entities, /search/person): see the comment on personSchema.
 */
import { canonicalPersonId } from '../../domain/person.js';
import { yearOf } from '../engine/fold.js';
import type { Schema } from '../engine/schema.js';

/** A year in a free-text date, or a plain (possibly negative) integer (docs/decisions.md "Dates"). */
function yearBound(text: string): number | null {
  const y = yearOf(text);
  if (y !== null) return y;
  return /^-?\d+$/.test(text) ? Number(text) : null;
}

/**
 * Persons (docs/decisions.md "Entity search"; src/query/ast.ts QUERY_FIELDS; the facets of
 * src/domain/personFacets.ts). Relevance ties are broken as today: by item count
 * descending, then folded name, then id.
 */
export const personSchema: Schema = {
  kind: 'person',
  idField: 'id',
  // `id:"https://d-nb.info/gnd/…"` finds the http form (docs/decisions.md "GND ids").
  normalizeId: (text) => canonicalPersonId(text) ?? text,
  text: [
    { name: 'preferredName', weight: 8 },
    { name: 'variantName', weight: 4 },
    { name: 'professionOrOccupation', weight: 2 },
    { name: 'placeOfBirth', weight: 1 },
    { name: 'placeOfDeath', weight: 1 },
    { name: 'dateOfBirth', weight: 1 },
    { name: 'dateOfDeath', weight: 1 },
    { name: 'gender', weight: 1 },
  ],
  facets: ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'],
  numbers: [
    { name: 'dateOfBirth', parse: yearBound, example: 'dateOfBirth:[1800 TO 1850]', values: 'years' },
    { name: 'dateOfDeath', parse: yearBound, example: 'dateOfDeath:[1800 TO 1850]', values: 'years' },
    { name: 'count', example: 'count:[1 TO *]' },
  ],
  sortKeys: [
    { name: 'preferredName', type: 'string', queryable: true },
    { name: 'count', type: 'number' },
  ],
  relevanceTiebreak: [
    { key: 'count', descending: true },
    { key: 'preferredName', descending: false },
  ],
  constants: { type: 'person' },
  // The keys of a person's stored document (src/formats/entityDoc.ts, with its count).
  storedFields: [
    'id',
    'type',
    'preferredName',
    'variantName',
    'dateOfBirth',
    'dateOfDeath',
    'placeOfBirth',
    'placeOfDeath',
    'professionOrOccupation',
    'gender',
    'thumbnail',
    'count',
  ],
};
