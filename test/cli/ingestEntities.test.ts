/**
 * `heritage-api ingest entities`: the GND formats, non-persons counted and
 * skipped, bad records reported, idempotent re-runs (docs/cli.md "ingest entities PATH...").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadVocab } from '../../bench/synth/vocab.js';
import { PersonGenerator } from '../../bench/synth/persons.js';
import type { Person } from '../../src/domain/person.js';
import { entityDoc } from '../../src/formats/entityDoc.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { searchPersons } from '../helpers/personSearch.js';
import { tempDir } from '../helpers/tempDir.js';

const tmp = () => tempDir('ent');

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
    assert.equal(await store.countPersons(), 1235);
  } finally {
    await store.close();
  }
});

test('bad entity lines are reported with their line, the good ones kept (exit 2); the own entity shape loads back', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  const lines = [
    JSON.stringify({
      id: 'https://d-nb.info/gnd/118540238',
      type: 'person',
      preferredName: 'Goethe, Johann Wolfgang von',
      variantName: [],
      count: 7,
    }),
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
    assert.equal(await store.countPersons(), 1);
  } finally {
    await store.close();
  }
});

test('large files are read and parsed on the worker in turn: the first of a person wins, a line that is not UTF-8 is reported and skipped, the rest of its file kept', async () => {
  // Over the 4 MB read-ahead limit, so each file goes to the worker by its path (src/ingest/ingestEntities.ts).
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  const generator = new PersonGenerator(loadVocab(), 7);
  const lines = (from: number, to: number) => {
    const out: string[] = [];
    for (let k = from; k < to; k++) out.push(JSON.stringify(generator.person(k)));
    return out;
  };
  const first = lines(0, 20_000);
  const third = lines(20_000, 40_000);
  // The same person in the first and the last file, renamed (and under https) in the last: the first one read wins.
  const renamed: Person = { ...(JSON.parse(first[5]!) as Person), preferredName: 'Umbenannt, Probe' };
  third.push(JSON.stringify({ ...renamed, id: renamed.id.replace('http:', 'https:') }));
  const bad = Buffer.concat([Buffer.from(lines(40_000, 60_000).join('\n')), Buffer.from([0x0a, 0x7b, 0xe4, 0x7d, 0x0a])]);
  writeFileSync(join(dir, 'a.jsonl'), `${first.join('\n')}\n`);
  writeFileSync(join(dir, 'b.jsonl'), bad);
  writeFileSync(join(dir, 'c.jsonl'), `${third.join('\n')}\n`);
  for (const name of ['a.jsonl', 'b.jsonl', 'c.jsonl']) assert.ok(statSync(join(dir, name)).size > 4 * 1024 * 1024, name);

  const run = await cli(['--db', db, 'ingest', 'entities', dir]);
  assert.equal(run.code, 2);
  assert.match(run.out[0]!, /^entities: 60000 records from 3 files .*: 60000 new, 0 updated, 0 unchanged, 1 skipped, 1 duplicates\.$/);
  assert.equal(run.err.length, 2);
  assert.equal(
    run.err[0],
    `skipped: ${join(dir, 'b.jsonl')} (line 20001): not UTF-8: invalid byte 0xe4 on this line; the line was skipped: convert the file to UTF-8`,
  );
  assert.equal(
    run.err[1],
    `duplicate: ${join(dir, 'c.jsonl')} (line 20001): duplicate of ${renamed.id}, first read from ${join(dir, 'a.jsonl')} (line 6); this one was skipped (the first in path order wins)`,
  );
  const store = openSqliteStore({ path: db });
  try {
    assert.equal(await store.countPersons(), 60_000);
    const found = await searchPersons(store, { query: `id:"${renamed.id}"` });
    assert.equal(found.total, 1);
    assert.equal(found.docs[0], `${entityDoc(JSON.parse(first[5]!) as Person).slice(0, -1)},"count":0}`);
  } finally {
    await store.close();
  }
});
