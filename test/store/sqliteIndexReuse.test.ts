/**
 * The SQLite search keeps its in-memory index across other processes' commits
 * that do not touch persons (items, keys), and rebuilds it for those that do:
 * person rows, or item references that change a person's count (issue #5).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { Person } from '../../src/ingest/persons/person.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import { toEntitySearch } from '../../src/http/routes/entities.js';
import { SqlitePersonSearch } from '../../src/store/sqlite/personSearch.js';
import type { PreparedItem } from '../../src/store/Store.js';
import { cortexXml } from '../helpers/packages.js';
import { BACKENDS } from '../helpers/backends.js';

const person = (n: number): Person =>
  ({ id: `http://d-nb.info/gnd/4242${n}`, type: 'person', preferredName: `Probe ${n}`, professionOrOccupation: ['Glasbläser'] }) as unknown as Person;

function item(id: string, refs: string[], title = id): PreparedItem {
  const [r] = readItemRecords(cortexXml({ id, title }));
  assert.equal(r?.kind, 'item');
  return { ...(r as { item: PreparedItem }).item, refs };
}

test('[sqlite] the search index is rebuilt for commits that touch persons, and only for those', () => {
  const { store: writer, path, dispose } = BACKENDS.find((b) => b.name === 'sqlite')!.open();
  const db = new Database(path);
  try {
    writer.upsertPersons([preparePerson(person(1)), preparePerson(person(2))]);
    const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    const search = new SqlitePersonSearch(db, () => dataVersion.get()!);
    const ids = () => search.search(toEntitySearch({ query: 'Glasbläser', sort: 'ALPHA_ASC' }).search).docs.map((d) => (JSON.parse(d) as { id: string }).id);
    assert.deepEqual(ids(), [person(1).id, person(2).id]);
    assert.equal(search.indexBuilds, 1);

    writer.upsertItems([item('ITEMWITHOUTREFS', [])]);
    writer.createKey('other', 'hash-of-a-key');
    assert.deepEqual(ids(), [person(1).id, person(2).id]);
    assert.equal(search.indexBuilds, 1, 'items and keys leave the index alone');

    writer.upsertItems([item('ITEMWITHREFS', [person(2).id])]);
    assert.deepEqual(ids(), [person(1).id, person(2).id]);
    assert.equal(search.indexBuilds, 2, "a changed count is part of the index's ranking");

    assert.deepEqual(writer.upsertItems([item('ITEMWITHREFS', [person(2).id], 'a new title')]), { inserted: 0, updated: 1, unchanged: 0 });
    ids();
    assert.equal(search.indexBuilds, 2, 'references written again with the same count change nothing');

    writer.upsertPersons([preparePerson(person(3))]);
    assert.deepEqual(ids(), [person(1).id, person(2).id, person(3).id]);
    assert.equal(search.indexBuilds, 3);
  } finally {
    db.close();
    dispose();
  }
});
