/**
 * `heritage-api ingest entities PATH...`: GND person records (EntityFacts,
 * lobid-gnd in its four shapes, or this service's own entity lines);
 * other GND types are counted and skipped (issue #3 "Loading persons").
 */
import type { PreparedPerson, Store } from '../store/Store.js';
import { ParserPool } from './parserPool.js';
import type { InputFile } from './readInputs.js';
import { runIngest, type IngestOptions, type IngestSummary, type ReadResult } from './runIngest.js';

const ENTITY_FILE = /\.(json|jsonl|ndjson|jsonld)$/i;

/**
 * Each persons file goes to the pool's worker as soon as it is asked for, as
 * its path when it is on disk (the worker reads it), so the next file is read
 * and parsed while this one's persons are written (issue #5).
 */
function readPersonFile(file: InputFile, pool: ParserPool): AsyncIterable<ReadResult<PreparedPerson>> {
  if (file.path !== undefined && file.inMemory !== true) return pool.parse('persons', { path: file.path });
  // Standard input, or a small file already read ahead.
  return (async function* () {
    yield* pool.parse('persons', { bytes: await file.read() });
  })();
}

export async function ingestEntities(store: Store, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  const pool = new ParserPool();
  return runIngest<PreparedPerson>(
    paths,
    {
      accept: (name) => ENTITY_FILE.test(name),
      read: (file) => readPersonFile(file, pool),
      startsEarly: true,
      write: (batch) => store.upsertPersons(batch),
    },
    options,
  ).finally(() => pool.close());
}
