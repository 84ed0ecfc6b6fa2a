/**
 * The record formats of `ingest entities` (docs/cli.md "ingest entities PATH..."): DNB
 * EntityFacts, lobid-gnd and the service's own entity shape (spec 2.1). Each is one
 * module with a `sniff` (does a parsed JSON value have this shape, from its keys alone)
 * and a `read` (person / skipped / error for that value); a record is in the first
 * format of PERSON_FORMATS whose sniff takes it. readPersons.ts handles files (one JSON
 * document, JSON lines, Elasticsearch bulk lines, a lobid-gnd search page) and positions.
 * A new format is one module and one line in PERSON_FORMATS.
 */
import { describe, isObject, type JsonObject, type RecordResult } from './fields.js';
import { entityFactsFormat } from './entityFactsFormat.js';
import { entityFormat } from './entityFormat.js';
import { jsonLdContextFormat } from './jsonLdContextFormat.js';
import { lobidFormat } from './lobidFormat.js';

export type RecordKind = 'entityfacts' | 'lobid' | 'entity' | 'context';

export interface PersonRecordFormat {
  name: RecordKind;
  /** How ACCEPTED_RECORDS names it; absent for a format that holds no person. */
  accepted?: string;
  /** Whether a JSON object has this format's shape, from its keys alone. */
  sniff(record: JsonObject): boolean;
  read(record: JsonObject): RecordResult;
}

/** In the order they are tried. */
export const PERSON_FORMATS: readonly PersonRecordFormat[] = [jsonLdContextFormat, entityFactsFormat, lobidFormat, entityFormat];

/** The format of a record, or undefined when it has none of the shapes. */
export function personFormatOf(rec: unknown): PersonRecordFormat | undefined {
  return isObject(rec) ? PERSON_FORMATS.find((f) => f.sniff(rec)) : undefined;
}

/** Which shape a record has, from its keys alone (see each format's sniff). */
export function recordKind(rec: unknown): RecordKind | null {
  return personFormatOf(rec)?.name ?? null;
}

const accepted = PERSON_FORMATS.flatMap((f) => (f.accepted === undefined ? [] : [f.accepted]));
/** The record shapes an error names, in the order of PERSON_FORMATS. */
export const ACCEPTED_RECORDS = `${accepted.slice(0, -1).join(', ')} or ${accepted.at(-1)}`;

/** Maps any record; unknown shapes are errors that list the accepted ones. */
export function mapRecord(rec: unknown): RecordResult {
  const format = personFormatOf(rec);
  if (format === undefined) return { kind: 'error', reason: `unrecognised record, ${describe(rec)}: expected ${ACCEPTED_RECORDS}` };
  return format.read(rec as JsonObject);
}
