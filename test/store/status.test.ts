/**
 * What GET /status reads from the store, for every backend: the last load run of each kind, and
 * every harvested source.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { writePackages } from '../helpers/packages.js';
import { FIXTURES } from '../helpers/paths.js';

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} loads from files are recorded per kind, the last run replacing the one before`, async () => {
    const { store, location: path, dispose } = await backend.open();
    try {
      assert.deepEqual(await store.listLoads(), []);
      const before = Date.now();
      await ingestItems(
        store,
        [
          writePackages([
            { id: 'A1', title: 'A' },
            { id: 'A2', title: 'B' },
          ]),
        ],
        { batchSize: 10 },
      );
      const [first] = await store.listLoads();
      assert.ok(first!.finishedAt.getTime() >= before && first!.finishedAt.getTime() <= Date.now());
      assert.deepEqual(
        { ...first, finishedAt: undefined },
        { kind: 'items', finishedAt: undefined, records: 2, inserted: 2, updated: 0, unchanged: 0, deleted: 0, problems: 0 },
      );
      await ingestItems(store, [writePackages([{ id: 'A1', title: 'A' }])], { batchSize: 10 });
      await ingestEntities(store, [`${FIXTURES}persons/lobid-gnd/LobidPerson.json`], { batchSize: 10 });
      const loads = await store.listLoads();
      assert.deepEqual(
        loads.map((l) => [l.kind, l.records, l.inserted, l.unchanged]),
        [
          ['items', 1, 0, 1],
          ['persons', 1, 1, 0],
        ],
      );
      // Another connection (a running server) sees them.
      const other = await backend.connect(path);
      try {
        assert.deepEqual(await other.listLoads(), loads);
      } finally {
        await other.close();
      }
    } finally {
      await dispose();
    }
  });

  test(`${b} harvested sources are listed with their state and when they were last harvested`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const before = Date.now();
      await store.applyItemChanges([], {
        source: '["https://b.example/oai","edm",null]',
        state: { highWater: null, resumptionToken: 'T2', runFrom: null, runStarted: '2024-01-01T00:00:00Z' },
      });
      await store.applyItemChanges([], {
        source: '["https://a.example/oai","edm","s1"]',
        state: { highWater: '2024-02-01', resumptionToken: null, runFrom: null, runStarted: null },
      });
      const list = await store.listHarvests();
      assert.deepEqual(
        list.map((h) => [h.source, h.state]),
        [
          ['["https://a.example/oai","edm","s1"]', { highWater: '2024-02-01', resumptionToken: null, runFrom: null, runStarted: null }],
          [
            '["https://b.example/oai","edm",null]',
            { highWater: null, resumptionToken: 'T2', runFrom: null, runStarted: '2024-01-01T00:00:00Z' },
          ],
        ],
      );
      assert.ok(list.every((h) => h.updatedAt.getTime() >= before && h.updatedAt.getTime() <= Date.now()));
    } finally {
      await dispose();
    }
  });
}
