/**
 * PostgreSQL writes a load's records many at a time (src/store/postgres/itemUpserts.ts,
 * persons.ts), for load speed. A batch that mixes new records, changed ones, unchanged
 * ones given a source id, an id twice, institutions moved and removed, and a deletion in
 * the middle, leaves exactly what SQLite's one-by-one writes leave: the same counts, the
 * same answers to every read, and the same changes in the search change feed after the batch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ItemChange, PreparedItem, PreparedPerson, Store } from '../../src/store/Store.js';
import type { SearchKind } from '../../src/domain/searchFeed.js';
import { POSTGRES, SQLITE } from '../helpers/backends.js';
import { assertSameAnswers, fixtureItems, fixturePersons } from './storeFixtures.js';

/** The feed's position at its end, after a full read. */
async function endOfFeed(store: Store, kind: SearchKind): Promise<string> {
  let position: string | null = null;
  for (;;) {
    const batch = await store.readSearchChanges(kind, position, 500);
    assert.ok(!('rescan' in batch));
    position = batch.position;
    if (batch.done) return position;
  }
}

/** Every id the feed names after `position`, with the body it hands over (the last for an id). */
async function changesAfter(store: Store, kind: SearchKind, position: string): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  let at = position;
  for (;;) {
    const batch = await store.readSearchChanges(kind, at, 7);
    assert.ok(!('rescan' in batch));
    for (const c of batch.changes) out.set(c.id, c.body);
    at = batch.position;
    if (batch.done) return new Map([...out].sort());
  }
}

/** Item i with the content of item j: a new ETag, other bodies, other references. */
function changed(item: PreparedItem, other: PreparedItem, refs: string[]): PreparedItem {
  return { ...item, etag: `${item.etag}-v2`, json: other.json, xml: other.xml, label: `${item.label} (v2)`, refs };
}

test('a batched load on PostgreSQL leaves what one-by-one writes leave on SQLite', async () => {
  const items = await fixtureItems();
  const persons = fixturePersons();
  assert.ok(items.length > 150 && persons.length > 60);
  const first = items.slice(0, 120);
  const later = items.slice(120, 150);
  const withProviders = first.filter((i) => (i.providers?.length ?? 0) > 0);
  assert.ok(withProviders.length >= 4, 'the fixtures have packages with institutions');
  const refOf = (i: number) => persons[i % persons.length]!.id;

  const initial = first.map((item, i) => ({ ...item, refs: [...item.refs, refOf(i), refOf(i + 1)] }));
  const batch: ItemChange[] = [];
  // Changed: other bodies and references; the first institutions' items lose theirs, others get another's.
  for (let i = 0; i < 30; i++) batch.push({ kind: 'upsert', item: changed(initial[i]!, items[i + 1]!, [refOf(i + 2)]) });
  batch.push({ kind: 'upsert', item: { ...withProviders[0]!, etag: 'other-institution', providers: withProviders[1]!.providers } });
  batch.push({ kind: 'upsert', item: { ...withProviders[2]!, etag: 'no-institution', providers: [] } });
  // Unchanged, now with the identifier of their source.
  for (let i = 30; i < 40; i++) batch.push({ kind: 'upsert', item: { ...initial[i]!, sourceId: `oai:example:${i}` } });
  // New ones, one of them twice (the second replaces the first, as one by one), and a deletion in the middle.
  for (const item of later.slice(0, 15)) batch.push({ kind: 'upsert', item: { ...item, refs: [refOf(3)] } });
  batch.push({ kind: 'upsert', item: changed(later[0]!, items[0]!, [refOf(4)]) });
  batch.push({ kind: 'delete', sourceId: initial[50]!.choUri! });
  for (const item of later.slice(15)) batch.push({ kind: 'upsert', item });
  batch.push({ kind: 'upsert', item: changed(later[16]!, items[1]!, []) });
  // Unchanged and changed again after the deletion.
  batch.push({ kind: 'upsert', item: initial[60]! });
  batch.push({ kind: 'upsert', item: changed(initial[61]!, items[2]!, [refOf(5)]) });

  const personBatch: PreparedPerson[] = [
    ...persons
      .slice(0, 20)
      .map((p) => ({ ...p, digest: `${p.digest}-v2`, doc: p.doc.replace(/"id"/, '"preferredName":"Geändert","id"'), gender: ['male'] })),
    ...persons.slice(20, 30),
    ...persons.slice(40),
    { ...persons[5]!, digest: 'again', gender: [] },
  ];

  const sqlite = await SQLITE.open();
  const postgres = await POSTGRES.open();
  try {
    const results = [];
    const positions = [];
    for (const { store } of [sqlite, postgres]) {
      await store.upsertItems(initial);
      await store.upsertPersons(persons.slice(0, 40));
      const at = { item: await endOfFeed(store, 'item'), person: await endOfFeed(store, 'person') };
      positions.push(at);
      results.push({ items: await store.applyItemChanges(batch), persons: await store.upsertPersons(personBatch) });
    }
    assert.deepEqual(results[1], results[0]);
    assert.deepEqual(results[0]!.items, { inserted: 30, updated: 35, unchanged: 11, deleted: 1 });
    assert.deepEqual(results[0]!.persons, { inserted: persons.length - 40, updated: 21, unchanged: 10 });
    const ids = [...new Set([...initial, ...later].map((i) => i.id))];
    await assertSameAnswers(
      sqlite.store,
      postgres.store,
      ids,
      persons.map((p) => p.id),
      false,
    );
    for (const kind of ['item', 'person'] as const) {
      const expected = await changesAfter(sqlite.store, kind, positions[0]![kind]);
      assert.ok(expected.size > 30);
      assert.deepEqual(await changesAfter(postgres.store, kind, positions[1]![kind]), expected, `${kind} changes after the batch`);
    }
  } finally {
    await sqlite.dispose();
    await postgres.dispose();
  }
});
