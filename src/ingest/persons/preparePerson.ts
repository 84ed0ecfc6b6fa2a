/**
 * Turns a person record into the rows the store writes (PreparedPerson). It
 * is pure and runs on the parser worker, so the writing thread only inserts,
 * which keeps loads fast.
 */
import { hash } from 'node:crypto';
import { entityDoc } from '../../formats/entityDoc.js';
import type { PreparedPerson } from '../../store/Store.js';
import type { ReadResult } from '../runIngest.js';
import type { Person } from '../../domain/person.js';
import { readPersons, type NotUtf8 } from './readPersons.js';
import { DEFAULT_LIMITS, type RecordLimits } from '../../formats/recordLimits.js';

export function preparePerson(person: Person): PreparedPerson {
  return {
    id: person.id,
    doc: entityDoc(person),
    digest: hash('sha256', JSON.stringify(person), 'base64url'),
    gender: [...new Set(person.gender ?? [])],
  };
}

/** The persons of one document, prepared, with the records that are not persons and the bad ones. */
export function* readPreparedPersons(
  text: string,
  limits: RecordLimits = DEFAULT_LIMITS,
  notUtf8?: NotUtf8,
): Generator<ReadResult<PreparedPerson>> {
  for (const r of readPersons(text, limits, notUtf8)) {
    if (r.kind === 'person') yield { kind: 'record', record: preparePerson(r.person), position: r.position };
    else if (r.kind === 'skipped') yield { kind: 'other', type: r.entityType };
    else yield r;
  }
}
