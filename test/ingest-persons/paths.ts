/**
 * Where the tests find the real sample data: fixtures/ (see fixtures/README.md for
 * where it comes from). Change DATA_DIR here and nowhere else.
 */
import { readFileSync } from 'node:fs';
import type { PersonReadResult } from '../../src/ingest/persons/readPersons.js';
import type { Person } from '../../src/domain/person.js';

export const DATA_DIR = new URL('../../fixtures/', import.meta.url);

export const PERSON_FILES = {
  entityFacts: new URL('persons/entityfacts/culturehub-1222-persons.json', DATA_DIR),
  lobidPerson: new URL('persons/lobid-gnd/LobidPerson.json', DATA_DIR),
  lobidSearch: new URL('persons/lobid-gnd/LobidSearchPersons.json', DATA_DIR),
  lobidBulk: new URL('persons/lobid-gnd/gnd-test-bulk.jsonl', DATA_DIR),
} as const;

export function readText(file: URL): string {
  return readFileSync(file, 'utf8');
}

/** The persons of a read, in order. */
export function personsOf(results: PersonReadResult[]): Person[] {
  return results.flatMap((r) => (r.kind === 'person' ? [r.person] : []));
}

/** Counts by outcome: "person", "error", "skipped:<type>". */
export function tally(results: PersonReadResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const key = r.kind === 'skipped' ? `skipped:${r.entityType}` : r.kind;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
