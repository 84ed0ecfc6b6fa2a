/**
 * One mapper per record shape (docs/cli.md "ingest entities PATH..."): DNB EntityFacts, lobid-gnd
 * and the service's own entity shape (spec 2.1). Each decides person / skipped / error
 * for one parsed JSON value; readPersons.ts handles files and positions.
 */
import { buildPerson, describe, firstText, isObject, nameParts, text, type JsonObject, type RecordResult } from './fields.js';

export type RecordKind = 'entityfacts' | 'lobid' | 'entity' | 'context';

/**
 * Which shape a record has, from its keys alone:
 * - EntityFacts uses JSON-LD keywords for the id ("@id") and, in the 2014 dump we have,
 *   nests the person's fields in a "person" object; later EntityFacts is flat with "@type".
 * - lobid-gnd uses a plain "id" and a "type" array of capitalised GND class names.
 * - the service's own entity has "id" and the lower-case string type "person" (spec 2.1).
 * - a record holding only "@context" is the JSON-LD context line of a lobid bulk file.
 */
export function recordKind(rec: unknown): RecordKind | null {
  if (!isObject(rec)) return null;
  const keys = Object.keys(rec);
  if (keys.length === 1 && keys[0] === '@context') return 'context';
  if (isObject(rec['person']) || ('@id' in rec && !('id' in rec))) return 'entityfacts';
  const type = rec['type'];
  if (typeof type === 'string' && /^[a-z]/.test(type)) return 'entity';
  if (type !== undefined || 'gndIdentifier' in rec) return 'lobid';
  return null;
}

export const ACCEPTED_RECORDS =
  'an EntityFacts record ("@id" and "person": {...}), a lobid-gnd record ("id" and "type": [...]) ' +
  'or an entity ("id", "type": "person", "preferredName", ...)';

/** Maps any record; unknown shapes are errors that list the accepted ones. */
export function mapRecord(rec: unknown): RecordResult {
  switch (recordKind(rec)) {
    case 'entityfacts': return mapEntityFacts(rec as JsonObject);
    case 'lobid': return mapLobid(rec as JsonObject);
    case 'entity': return mapEntity(rec as JsonObject);
    // Not a bad record: the bulk file's JSON-LD context, which holds no entity.
    case 'context': return { kind: 'skipped', entityType: '@context' };
    case null: return { kind: 'error', reason: `unrecognised record, ${describe(rec)}: expected ${ACCEPTED_RECORDS}` };
  }
}

/**
 * DNB EntityFacts. The 2014 dump (culturehub-1222-persons.json) marks persons by the
 * "person" object and has no "@type"; places, occupations and gender are {@id, @value}
 * nodes (places and gender single, occupations an array). "dateOfBirthAndDeath" (16
 * records, e.g. "20. Jh.") is a period, not a birth or death date, so it is not mapped.
 */
export function mapEntityFacts(rec: JsonObject): RecordResult {
  let p: JsonObject;
  if (isObject(rec['person'])) {
    p = rec['person'];
  } else if (typeof rec['@type'] === 'string') {
    if (rec['@type'].toLowerCase() !== 'person') return { kind: 'skipped', entityType: rec['@type'] };
    p = rec;
  } else {
    return {
      kind: 'error',
      reason: `EntityFacts record ${text(rec['@id']) ?? '(no "@id")'} has no "person" object and no "@type" ` +
        '(expected "person": {...} or "@type": "person")',
    };
  }
  return personFromFields(rec['@id'], p, '@id');
}

// lobid-gnd marks persons with these classes (an UndifferentiatedPerson is a GND
// "Tn" name record, still a person).
const PERSON_TYPES = new Set(['Person', 'DifferentiatedPerson', 'UndifferentiatedPerson']);
// The GND top-level entity classes, reported for skipped records so that the loader can
// count by type ("SeriesOfConferenceOrEvent" is counted as "ConferenceOrEvent").
const GND_CLASSES = ['CorporateBody', 'ConferenceOrEvent', 'Family', 'PlaceOrGeographicName', 'SubjectHeading', 'Work'];

/** lobid-gnd record (single, search page member, JSON line or bulk source line). */
export function mapLobid(rec: JsonObject): RecordResult {
  const raw = rec['type'];
  const types = (Array.isArray(raw) ? raw : [raw]).filter((t): t is string => typeof t === 'string');
  if (types.length === 0) {
    return {
      kind: 'error',
      reason: `lobid-gnd record ${text(rec['id']) ?? '(no "id")'} has no "type" ` +
        '(expected an array such as ["AuthorityResource", "DifferentiatedPerson", "Person"])',
    };
  }
  if (!types.some((t) => PERSON_TYPES.has(t))) {
    const entityType = GND_CLASSES.find((c) => types.includes(c)) ??
      types.find((t) => t !== 'AuthorityResource') ?? 'AuthorityResource';
    return { kind: 'skipped', entityType };
  }
  // lobid-gnd gives the GND's inverted preferred name; the entity shows the natural one.
  return personFromFields(rec['id'], rec, 'id', { parts: nameParts(rec['preferredNameEntityForThePerson']) });
}

/**
 * The service's own entity (spec 2.1 docs, plus "gender"), so that one instance can load
 * another's output. "count" is ignored: the store computes it from its items.
 */
export function mapEntity(rec: JsonObject): RecordResult {
  const type = rec['type'] as string;
  if (type !== 'person') return { kind: 'skipped', entityType: type };
  return personFromFields(rec['id'], rec, 'id');
}

/**
 * Every source names the person's fields as spec 2.1 does (EntityFacts inside its
 * "person" object, the others at the top); dates may be arrays. `idKey` names the
 * id in messages.
 */
function personFromFields(id: unknown, f: JsonObject, idKey: string, invertedName?: { parts?: ReturnType<typeof nameParts> }): RecordResult {
  return buildPerson({
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
  }, idKey);
}
