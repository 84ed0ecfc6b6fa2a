/**
 * DNB EntityFacts records (a JSON array of them, or one per line): a person format of
 * `ingest entities` (./personFormats.ts).
 */
import { isObject, personFromFields, text, type JsonObject, type RecordResult } from './fields.js';
import type { PersonRecordFormat } from './personFormats.js';

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
      reason:
        `EntityFacts record ${text(rec['@id']) ?? '(no "@id")'} has no "person" object and no "@type" ` +
        '(expected "person": {...} or "@type": "person")',
    };
  }
  return personFromFields(rec['@id'], p, '@id');
}

/**
 * EntityFacts uses JSON-LD keywords for the id ("@id") and, in the 2014 dump we have,
 * nests the person's fields in a "person" object; later EntityFacts is flat with "@type".
 */
export const entityFactsFormat: PersonRecordFormat = {
  name: 'entityfacts',
  accepted: 'an EntityFacts record ("@id" and "person": {...})',
  sniff: (rec) => isObject(rec['person']) || ('@id' in rec && !('id' in rec)),
  read: mapEntityFacts,
};
