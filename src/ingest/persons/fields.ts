/**
 * Value helpers shared by the record formats (./personFormats.ts), and the one place that assembles a
 * Person, so that every source gets the same cleaning (the same person from two sources must give
 * the same entity where they agree).
 */
import { naturalName, normaliseGender, type NameParts } from '../../domain/personNames.js';
import { canonicalPersonId, type Person } from '../../domain/person.js';

/** What a mapper says about one record; readPersons adds the position. */
export type RecordResult = { kind: 'person'; person: Person } | { kind: 'skipped'; entityType: string } | { kind: 'error'; reason: string };

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short description of a JSON value for error messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : `an array of ${v.length} values`;
  if (isObject(v)) {
    const keys = Object.keys(v)
      .slice(0, 6)
      .map((k) => JSON.stringify(k));
    return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.join(', ')}`;
  }
  return `a ${typeof v} (${JSON.stringify(v).slice(0, 40)})`;
}

/** A trimmed non-empty string, else undefined (surrounding whitespace is never data). */
export function text(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

/**
 * The first non-empty string of a string or an array of strings. lobid-gnd gives dates
 * as arrays (["1749-08-28"]); the spec's entity has one free-text string, and the GND
 * records we have hold at most one date each, so the first one is taken.
 */
export function firstText(v: unknown): string | undefined {
  for (const item of Array.isArray(v) ? v : [v]) {
    const t = text(item);
    if (t !== undefined) return t;
  }
  return undefined;
}

/**
 * Labels of a field that may be a string, a labelled node or an array of these.
 * Node labels: `@value` (EntityFacts 2014), `preferredName` (later EntityFacts),
 * `label` (lobid-gnd). Trimmed, empty ones dropped, duplicates dropped, source order kept
 * (EntityFacts 116935839 lists "Schriftsteller" twice).
 */
export function labels(v: unknown): string[] {
  const out: string[] = [];
  for (const item of Array.isArray(v) ? v : [v]) {
    const label = isObject(item) ? (text(item['@value']) ?? text(item['label']) ?? text(item['preferredName'])) : text(item);
    if (label !== undefined && !out.includes(label)) out.push(label);
  }
  return out;
}

/** The source fields of a person, before cleaning. */
export interface RawPerson {
  id: unknown;
  preferredName: unknown;
  variantName?: unknown;
  dateOfBirth?: string | undefined;
  dateOfDeath?: string | undefined;
  placeOfBirth?: unknown;
  placeOfDeath?: unknown;
  professionOrOccupation?: unknown;
  gender?: unknown;
  /**
   * Set for sources that give the GND's inverted name ("Goethe, Johann Wolfgang von"):
   * the name is turned to natural order and the inverted form kept among the
   * variants (docs/decisions.md "Names in natural order"). `parts` is GND's structured name, when given.
   */
  invertedName?: { parts?: NameParts };
}

/** Strings of a JSON value that may be a string or an array of strings. */
function strings(v: unknown): string[] | undefined {
  const out = (Array.isArray(v) ? v : [v]).map(text).filter((t): t is string => t !== undefined);
  return out.length > 0 ? out : undefined;
}

/** GND's structured name from lobid-gnd's preferredNameEntityForThePerson, if any. */
export function nameParts(v: unknown): NameParts | undefined {
  if (!isObject(v)) return undefined;
  const parts: NameParts = {};
  for (const key of ['forename', 'prefix', 'surname', 'personalName'] as const) {
    const values = strings(v[key]);
    if (values) parts[key] = values;
  }
  return parts;
}

/** Gender labels in one vocabulary (src/domain/personNames.ts), from labels or vocabulary nodes. */
function genders(v: unknown): string[] {
  const out: string[] = [];
  for (const item of Array.isArray(v) ? v : [v]) {
    const label = labels(item)[0];
    if (label === undefined) continue;
    const uri = isObject(item) ? (text(item['@id']) ?? text(item['id'])) : undefined;
    const g = normaliseGender(label, uri);
    if (!out.includes(g)) out.push(g);
  }
  return out;
}

/**
 * Builds the Person, or an error naming what is missing and what was expected.
 * `idKey` is the source's name of the id field ("@id" or "id"), for the message.
 */
export function buildPerson(raw: RawPerson, idKey: string): RecordResult {
  const rawId = text(raw.id);
  const preferredName = text(raw.preferredName);
  const missing: string[] = [];
  if (rawId === undefined) missing.push(`no "${idKey}" (expected a URI such as "http://d-nb.info/gnd/118540238")`);
  if (preferredName === undefined) missing.push('no "preferredName" (expected a non-empty string)');
  if (rawId === undefined || preferredName === undefined) {
    const who = rawId === undefined ? 'record' : `record ${rawId}`;
    return { kind: 'error', reason: `${who} has ${missing.join(' and ')}` };
  }
  const id = canonicalPersonId(rawId);
  if (id === null) {
    return {
      kind: 'error',
      reason: `"${idKey}" ${JSON.stringify(rawId)} is not a URI (expected a URI such as "http://d-nb.info/gnd/118540238")`,
    };
  }
  let name = preferredName;
  let variantName = labels(raw.variantName);
  if (raw.invertedName) {
    name = naturalName(preferredName, raw.invertedName.parts);
    if (name !== preferredName && !variantName.includes(preferredName)) variantName = [preferredName, ...variantName];
  }
  const person: Person = { id, type: 'person', preferredName: name, variantName };
  // Optional fields are omitted when empty (spec 2.1: "A field is omitted when the
  // entity has no value for it"); the key order here is the spec table's order.
  if (raw.dateOfBirth !== undefined) person.dateOfBirth = raw.dateOfBirth;
  if (raw.dateOfDeath !== undefined) person.dateOfDeath = raw.dateOfDeath;
  const lists = {
    placeOfBirth: labels(raw.placeOfBirth),
    placeOfDeath: labels(raw.placeOfDeath),
    professionOrOccupation: labels(raw.professionOrOccupation),
    gender: genders(raw.gender),
  };
  for (const [key, values] of Object.entries(lists) as [keyof typeof lists, string[]][]) {
    if (values.length > 0) person[key] = values;
  }
  return { kind: 'person', person };
}

/**
 * Every source names the person's fields as spec 2.1 does (EntityFacts inside its
 * "person" object, the others at the top); dates may be arrays. `idKey` names the
 * id in messages.
 */
export function personFromFields(
  id: unknown,
  f: JsonObject,
  idKey: string,
  invertedName?: { parts?: ReturnType<typeof nameParts> },
): RecordResult {
  return buildPerson(
    {
      id,
      preferredName: f['preferredName'],
      variantName: f['variantName'],
      dateOfBirth: firstText(f['dateOfBirth']),
      dateOfDeath: firstText(f['dateOfDeath']),
      placeOfBirth: f['placeOfBirth'],
      placeOfDeath: f['placeOfDeath'],
      professionOrOccupation: f['professionOrOccupation'],
      gender: f['gender'],
      ...(invertedName ? { invertedName } : {}),
    },
    idKey,
  );
}
