/**
 * `heritage-api ingest entities`: the GND formats, non-persons counted and
 * skipped, bad records reported, idempotent re-runs (issue #3 "Loading persons").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'heritage-api-ent-'));

test('ingest entities loads EntityFacts and lobid-gnd; other GND types are counted and skipped; a re-run changes nothing', async () => {
  const db = join(tmp(), 'h.db');
  const run = await cli(['--db', db, 'ingest', 'entities', `${FIXTURES}persons`]);
  assert.equal(run.code, 0, run.err.join('\n'));
  // 1,222 EntityFacts + 1 lobid single + 10 lobid search + 2 persons in the bulk file.
  assert.match(run.out[0]!, /^entities: 1235 records from 4 files .*: 1235 new, 0 updated, 0 unchanged, 0 skipped\.$/);
  assert.deepEqual(run.err, ['not loaded (not entities): 2 ConferenceOrEvent, 1 @context']);
  const again = await cli(['--db', db, 'ingest', 'entities', `${FIXTURES}persons`]);
  assert.match(again.out[0]!, /: 0 new, 0 updated, 1235 unchanged, 0 skipped\.$/);
  const store = openSqliteStore({ path: db });
  try {
    assert.equal(store.countPersons(), 1235);
  } finally {
    store.close();
  }
});

test('bad entity lines are reported with their line, the good ones kept (exit 2); the own entity shape loads back', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  const lines = [
    JSON.stringify({ id: 'https://d-nb.info/gnd/118540238', type: 'person', preferredName: 'Goethe, Johann Wolfgang von', variantName: [], count: 7 }),
    '{"id": "http://d-nb.info/gnd/1", "type": "person", ',
    JSON.stringify({ id: 'http://d-nb.info/gnd/2', type: 'person', variantName: [] }),
  ];
  writeFileSync(join(dir, 'own.jsonl'), `${lines.join('\n')}\n`);
  const run = await cli(['--db', db, 'ingest', 'entities', dir]);
  assert.equal(run.code, 2);
  assert.equal(run.err.length, 2);
  assert.match(run.err[0]!, new RegExp(`^skipped: ${join(dir, 'own.jsonl')} \\(line 2\\): `));
  assert.match(run.err[1]!, /\(line 3\): .*preferredName/);
  const store = openSqliteStore({ path: db });
  try {
    assert.equal(store.countPersons(), 1);
  } finally {
    store.close();
  }
});
