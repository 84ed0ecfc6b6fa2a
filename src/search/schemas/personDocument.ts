/**
 * A person as a search document under `personSchema` (./personSchema.ts): its text fields, facets
 * (./personFields.ts facetValues), years, count and folded name as sort key.
 */
import type { Person } from '../../domain/person.js';
import { fold, yearOf } from '../engine/fold.js';
import { facetValues } from './personFields.js';
import { personSchema } from './personSchema.js';
import type { SearchDocument } from '../engine/types.js';

/** `count`: the number of items that refer to the person (docs/decisions.md "count"). */
export function personDocument(person: Person, count: number): SearchDocument {
  const text: Record<string, string[]> = {};
  for (const f of personSchema.text) {
    const v = person[f.name as keyof Person];
    text[f.name] = v === undefined ? [] : Array.isArray(v) ? v : [v];
  }
  const facets: Record<string, string[]> = {};
  for (const [i, value] of facetValues(person)) (facets[personSchema.facets[i]!] ??= []).push(value);
  return {
    id: person.id,
    text,
    facets,
    numbers: { dateOfBirth: yearOf(person.dateOfBirth), dateOfDeath: yearOf(person.dateOfDeath), count },
    sort: { preferredName: fold(person.preferredName), count },
  };
}
