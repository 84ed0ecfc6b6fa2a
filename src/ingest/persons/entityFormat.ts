/**
 * The service's own entities (spec 2.1, as GET /entities shows them, one per line or as a
 * JSON array): a person format of `ingest entities` (./personFormats.ts).
 */
import { personFromFields, type JsonObject, type RecordResult } from './fields.js';
import type { PersonRecordFormat } from './personFormats.js';

/**
 * The service's own entity (spec 2.1 docs, plus "gender"), so that one instance can load
 * another's output. "count" is ignored: the store computes it from its items.
 */
export function mapEntity(rec: JsonObject): RecordResult {
  const type = rec['type'] as string;
  if (type !== 'person') return { kind: 'skipped', entityType: type };
  return personFromFields(rec['id'], rec, 'id');
}

/** The service's own entity has "id" and the lower-case string type "person" (spec 2.1). */
export const entityFormat: PersonRecordFormat = {
  name: 'entity',
  accepted: 'an entity ("id", "type": "person", "preferredName", ...)',
  sniff: (rec) => typeof rec['type'] === 'string' && /^[a-z]/.test(rec['type']),
  read: mapEntity,
};
