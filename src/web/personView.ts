/**
 * What the person page shows of an entity document (spec 2.1, as GET /entities serves it):
 * names, dates, places, occupations, the GND link. Pure; reads any field as absent when
 * it has an unexpected shape.
 */
import { canonicalGndUri } from '../domain/person.js';

export interface PersonView {
  id: string;
  name: string;
  variantNames: string[];
  born: string;
  died: string;
  placeOfBirth: string[];
  placeOfDeath: string[];
  occupations: string[];
  gender: string[];
  count: number;
  /** https://d-nb.info/gnd/… for a GND person, else ''. */
  gndLink: string;
}

/** GND numbers: digits, then digits, `X` or `-` (118540238, 11871791X, 4005728-8). */
const GND_NUMBER = /^[0-9][0-9Xx-]{0,19}$/;

export function isGndNumber(value: string): boolean {
  return GND_NUMBER.test(value);
}

/** The stored id of a GND person (src/domain/person.ts canonicalGndUri). */
export function gndUri(gnd: string): string {
  return `http://d-nb.info/gnd/${gnd.toUpperCase()}`;
}

/** The GND number of a stored person id, or undefined for a person of another authority. */
export function gndOfPersonId(id: string): string | undefined {
  const canonical = canonicalGndUri(id);
  return canonical === null ? undefined : canonical.slice('http://d-nb.info/gnd/'.length);
}

function strings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}

export function personView(doc: Record<string, unknown>): PersonView {
  const id = typeof doc.id === 'string' ? doc.id : '';
  const gnd = gndOfPersonId(id);
  return {
    id,
    name: strings(doc.preferredName)[0] ?? id,
    variantNames: strings(doc.variantName),
    born: strings(doc.dateOfBirth)[0] ?? '',
    died: strings(doc.dateOfDeath)[0] ?? '',
    placeOfBirth: strings(doc.placeOfBirth),
    placeOfDeath: strings(doc.placeOfDeath),
    occupations: strings(doc.professionOrOccupation),
    gender: strings(doc.gender),
    count: typeof doc.count === 'number' ? doc.count : 0,
    gndLink: gnd === undefined ? '' : `https://d-nb.info/gnd/${gnd}`,
  };
}
