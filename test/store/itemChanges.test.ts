/**
 * Ordered upserts and deletions, harvest state saved with them, and positions
 * from edm:isNextInSequence, for every backend (docs/decisions.md "Hierarchy").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import type { HarvestState, PreparedItem } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexXml, type TestPackage } from '../helpers/packages.js';

function prepared(p: TestPackage, extra: Partial<PreparedItem> = {}): PreparedItem {
  const [r] = readItemRecords(cortexXml(p));
  assert.equal(r?.kind, 'item');
  return { ...(r as { item: PreparedItem }).item, ...extra };
}

const running: HarvestState = { highWater: null, resumptionToken: 'page-2', runFrom: null, runStarted: '2026-11-22T10:00:00Z' };

for (const backend of BACKENDS) {
  test(`[${backend.name}] changes apply in order: upsert, delete by source id, upsert again`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const a = prepared({ id: 'A', title: 'A' }, { sourceId: 'oai:x:a' });
      assert.deepEqual(
        await store.applyItemChanges([
          { kind: 'upsert', item: a },
          { kind: 'delete', sourceId: 'oai:x:a' },
        ]),
        { inserted: 1, updated: 0, unchanged: 0, deleted: 1 },
      );
      assert.equal(await store.getItemDocument('A', 'xml'), undefined);
      assert.deepEqual(
        await store.applyItemChanges([
          { kind: 'delete', sourceId: 'oai:x:a' },
          { kind: 'upsert', item: a },
        ]),
        { inserted: 1, updated: 0, unchanged: 0, deleted: 0 },
      );
      assert.equal(await store.countItems(), 1);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] a record loaded without a source id is deleted by its ProvidedCHO URI`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.upsertItems([prepared({ id: 'B', title: 'B' })]);
      const result = await store.applyItemChanges([{ kind: 'delete', sourceId: 'http://www.deutsche-digitale-bibliothek.de/item/B' }]);
      assert.deepEqual(result, { inserted: 0, updated: 0, unchanged: 0, deleted: 1 });
      assert.equal(await store.countItems(), 0);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] the harvest state is saved with the page and read back by another connection`, async () => {
    const { store, location: path, dispose } = await backend.open();
    try {
      assert.equal(await store.getHarvestState('src'), undefined);
      await store.applyItemChanges([{ kind: 'upsert', item: prepared({ id: 'C', title: 'C' }) }], { source: 'src', state: running });
      const other = await backend.connect(path);
      try {
        assert.deepEqual(await other.getHarvestState('src'), running);
        assert.equal(await other.countItems(), 1);
      } finally {
        await other.close();
      }
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] a failing change rolls back the whole call, harvest state included`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const bad = { ...prepared({ id: 'D', title: 'D' }), label: null as unknown as string }; // violates NOT NULL
      await assert.rejects(
        async () =>
          await store.applyItemChanges(
            [
              { kind: 'upsert', item: prepared({ id: 'E', title: 'E' }) },
              { kind: 'upsert', item: bad },
            ],
            { source: 'src', state: running },
          ),
      );
      assert.equal(await store.countItems(), 0);
      assert.equal(await store.getHarvestState('src'), undefined);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] the same source digest leaves the stored package alone but takes the new source id`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.upsertItems([prepared({ id: 'F', title: 'F' }, { sourceDigest: 'd1' })]);
      const before = await store.getItemDocument('F', 'xml');
      // Different bytes (another ingest-date), same source: unchanged.
      const again = prepared({ id: 'F', title: 'F changed only in the built package' }, { sourceDigest: 'd1', sourceId: 'oai:x:f' });
      assert.deepEqual(await store.applyItemChanges([{ kind: 'upsert', item: again }]), {
        inserted: 0,
        updated: 0,
        unchanged: 1,
        deleted: 0,
      });
      assert.deepEqual(await store.getItemDocument('F', 'xml'), before);
      assert.equal((await store.applyItemChanges([{ kind: 'delete', sourceId: 'oai:x:f' }])).deleted, 1);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] positions follow edm:isNextInSequence where ddb:hierarchyPosition is absent`, async () => {
    const { store, dispose } = await backend.open();
    try {
      // Siblings S1 <- S2 <- S3 under P, loaded last-first; S4 has an explicit position that wins.
      await store.upsertItems([
        prepared({ id: 'S3', title: 'S3', parent: 'P', previous: 'S2' }),
        prepared({ id: 'S2', title: 'S2', parent: 'P', previous: 'S1' }),
        prepared({ id: 'S1', title: 'S1', parent: 'P' }),
        prepared({ id: 'S4', title: 'S4', parent: 'P', previous: 'S3', position: '7' }),
        prepared({ id: 'P', title: 'P' }),
        prepared({ id: 'LONE', title: 'LONE', parent: 'P' }),
      ]);
      const position = async (id: string) => (await store.getAncestry(id))!.nodes[0]!.position;
      assert.deepEqual(await Promise.all(['S1', 'S2', 'S3', 'S4', 'LONE'].map(position)), ['1', '2', '3', '7', '-1']);
      assert.equal((await store.getAncestry('S1'))!.nodes[1]!.position, '-1', 'the root is in no sequence');
    } finally {
      await dispose();
    }
  });
}
