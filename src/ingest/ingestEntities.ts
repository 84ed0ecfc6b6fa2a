/**
 * `heritage-api ingest entities PATH...`: GND person records (EntityFacts,
 * lobid-gnd in its four shapes, or this service's own entity lines);
 * other GND types are counted and skipped (docs/cli.md "ingest entities PATH...").
 */
import type { PreparedPerson, Store } from '../store/Store.js';
import { ParserPool } from './parserPool.js';
import type { InputFile } from './readInputs.js';
import { loadRun, runIngest, type IngestOptions, type IngestSummary, type ReadResult } from './runIngest.js';

const ENTITY_FILE = /\.(json|jsonl|ndjson|jsonld)$/i;

/** A file on disk is read by the pool's worker, so parsing does not slow the writes; standard input here. */
function readPersonFile(file: InputFile, pool: ParserPool<'persons'>): AsyncIterable<ReadResult<PreparedPerson>> {
  if (file.path !== undefined) return pool.parse({ path: file.path });
  return (async function* () {
    yield* pool.parse({ bytes: await file.read() });
  })();
}

export async function ingestEntities(store: Store, paths: readonly string[], options: IngestOptions): Promise<IngestSummary> {
  const pool = new ParserPool('persons', options.limits === undefined ? {} : { limits: options.limits });
  return runIngest<PreparedPerson>(
    paths,
    {
      accept: (name) => ENTITY_FILE.test(name),
      read: (file) => readPersonFile(file, pool),
      // Canonical already (http://d-nb.info/gnd/X for either form of a GND URI), so both forms are one key.
      key: (person) => person.id,
      write: (batch) => store.upsertPersons(batch),
    },
    options,
  )
    .finally(() => pool.close())
    .then(async (summary) => {
      await store.recordLoad(loadRun('persons', summary));
      return summary;
    });
}
