/**
 * lobid-gnd records (one, a search page's members, JSON lines, Elasticsearch bulk source
 * lines): a person format of `ingest entities` (./personFormats.ts).
 */
import { nameParts, personFromFields, text, type JsonObject, type RecordResult } from './fields.js';
import type { PersonRecordFormat } from './personFormats.js';

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
      reason:
        `lobid-gnd record ${text(rec['id']) ?? '(no "id")'} has no "type" ` +
        '(expected an array such as ["AuthorityResource", "DifferentiatedPerson", "Person"])',
    };
  }
  if (!types.some((t) => PERSON_TYPES.has(t))) {
    const entityType = GND_CLASSES.find((c) => types.includes(c)) ?? types.find((t) => t !== 'AuthorityResource') ?? 'AuthorityResource';
    return { kind: 'skipped', entityType };
  }
  // lobid-gnd gives the GND's inverted preferred name; the entity shows the natural one.
  return personFromFields(rec['id'], rec, 'id', { parts: nameParts(rec['preferredNameEntityForThePerson']) });
}

/**
 * lobid-gnd uses a plain "id" and a "type" array of capitalised GND class names (a
 * lower-case string type is the service's own entity: ./entityFormat.ts).
 */
export const lobidFormat: PersonRecordFormat = {
  name: 'lobid',
  accepted: 'a lobid-gnd record ("id" and "type": [...])',
  sniff: (rec) => {
    const type = rec['type'];
    if (typeof type === 'string' && /^[a-z]/.test(type)) return false;
    return type !== undefined || 'gndIdentifier' in rec;
  },
  read: mapLobid,
};
