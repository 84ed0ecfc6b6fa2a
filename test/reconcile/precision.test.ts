/**
 * Precision@1 of the reconciliation service on the fixture persons queried by variant names
 * and by names with a typo (./precision.ts says how the queries are made): at least 0.95
 * for each set, on both backends (docs/reconciliation.md "Precision" has the table;
 * `node --import tsx scripts/reconcile-precision.ts` prints it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { BACKENDS } from '../helpers/backends.js';
import { FIXTURES } from '../helpers/paths.js';
import { measurePrecision, precisionCases, storedPersons, storeSources, withTypo } from './precision.js';

const TARGET = 0.95;

test('a typo swaps the middle letters of the longest word, or drops one of a double', () => {
  assert.equal(withTypo('Johann Wolfgang von Goethe'), 'Johann Wolgfang von Goethe');
  assert.equal(withTypo('Anna Hammer'), 'Anna Hamer');
  assert.equal(withTypo('Li Bo'), undefined);
});

for (const backend of BACKENDS) {
  test(`[${backend.name}] precision@1 on the fixture persons by variant names and by typos is at least ${TARGET}`, async () => {
    const opened = await backend.open();
    try {
      await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
      const sources = await storeSources(opened.store);
      const persons = await storedPersons(sources);
      assert.equal(persons.length > 1200, true, `${persons.length} persons`);
      const rows = await measurePrecision(sources, precisionCases(persons));
      assert.deepEqual(
        rows.map((r) => r.set),
        ['variant name', 'typo'],
      );
      for (const row of rows) {
        assert.equal(row.queries > 700, true, `${row.set}: ${row.queries} queries`);
        assert.equal(
          row.precision >= TARGET,
          true,
          `${row.set}: ${row.top1}/${row.queries}; missed ${JSON.stringify(row.misses.slice(0, 10))}`,
        );
      }
    } finally {
      await opened.dispose();
    }
  });
}
