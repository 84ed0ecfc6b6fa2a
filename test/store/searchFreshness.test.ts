/**
 * The search's in-memory index and its cache of full-text leaves follow the
 * data: a write through this connection or a commit by another one (a
 * running ingest) is seen by the next search, for every backend.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Person } from '../../src/ingest/persons/person.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { toEntitySearch } from '../../src/http/routes/entities.js';
import { BACKENDS } from '../helpers/backends.js';

const person = (n: number, occupation: string): Person =>
  ({ id: `http://d-nb.info/gnd/99999${n}`, type: 'person', preferredName: `Probe ${n}`, professionOrOccupation: [occupation] }) as unknown as Person;
const search = (query: string) => toEntitySearch({ query, facet: 'person_occupation_fct' }).search;

for (const backend of BACKENDS) {
  test(`[${backend.name}] a search repeated after writes sees them: own writes and another connection's commits`, async () => {
    const { store, path, dispose } = backend.open();
    try {
      store.upsertPersons([preparePerson(person(1, 'Glasbläser'))]);
      assert.equal(store.searchPersons(search('Glasbläser')).total, 1);
      assert.equal(store.searchPersons(search('Glasbläser')).total, 1, 'the second time from the cached leaf');
      store.upsertPersons([preparePerson(person(2, 'Glasbläser'))]);
      assert.equal(store.searchPersons(search('Glasbläser')).total, 2, 'own write');
      const other = backend.connect(path);
      try {
        other.upsertPersons([preparePerson(person(3, 'Glasbläser')), preparePerson(person(4, 'Töpfer'))]);
      } finally {
        other.close();
      }
      // Another process's commit is seen within COMMIT_CHECK_MS (src/store/sqlite/SqliteStore.ts).
      await sleep(5);
      const after = store.searchPersons(search('Glasbläser'));
      assert.equal(after.total, 3, "another connection's commit");
      assert.deepEqual(after.facets[0], { field: 'person_occupation_fct', values: [{ value: 'Glasbläser', count: 3 }] });
    } finally {
      dispose();
    }
  });
}
