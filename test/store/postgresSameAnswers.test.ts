/**
 * The two backends give the same answers: the real fixtures (every
 * cortex and EDM package, the persons of the fixtures) and a little of everything else
 * loaded by the same calls into SQLite and into a real PostgreSQL, then every read compared.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { POSTGRES, SQLITE } from '../helpers/backends.js';
import { assertSameAnswers, fixtureItems, fixturePersons, loadEverything } from './storeFixtures.js';

test('SQLite and PostgreSQL loaded alike answer every read alike, on the real fixtures', async () => {
  const items = await fixtureItems();
  const persons = fixturePersons();
  assert.ok(items.length > 100 && persons.length > 100);
  const sqlite = await SQLITE.open();
  const postgres = await POSTGRES.open();
  try {
    await loadEverything(sqlite.store, items, persons);
    await loadEverything(postgres.store, items, persons);
    assert.equal(await postgres.store.countItems(), items.length - 1);
    // Every item of a hierarchy, and a quarter of the others (each read is a few queries per item).
    const ids = items.filter((item, i) => item.parentRef !== null || i % 4 === 0).map((i) => i.id);
    await assertSameAnswers(
      sqlite.store,
      postgres.store,
      [...ids, 'NOPE'],
      [...persons.map((p) => p.id), 'http://d-nb.info/gnd/none'],
      false,
    );
  } finally {
    await sqlite.dispose();
    await postgres.dispose();
  }
});
