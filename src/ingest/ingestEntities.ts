/**
 * `heritage-api ingest entities PATH...`: GND person records (EntityFacts,
 * lobid-gnd in its four shapes, or this service's own entity lines);
 * other GND types are counted and skipped (issue #3 "Loading persons").
 */
import type { Person } from './persons/person.js';
import { readPersons } from './persons/readPersons.js';
import type { Store } from '../store/Store.js';
import { readWholeFile, runIngest, type IngestOptions, type IngestSummary, type ReadResult } from './runIngest.js';

const ENTITY_FILE = /\.(json|jsonl|ndjson|jsonld)$/i;

export async function ingestEntities(store: Store, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  return runIngest<Person>(
    paths,
    {
      accept: (name) => ENTITY_FILE.test(name),
      read: (file) =>
        readWholeFile(file, (text) =>
          readPersons(text).map((r): ReadResult<Person> =>
            r.kind === 'person' ? { kind: 'record', record: r.person } : r.kind === 'skipped' ? { kind: 'other', type: r.entityType } : r,
          ),
        ),
      write: (batch) => store.upsertPersons(batch),
    },
    options,
  );
}
