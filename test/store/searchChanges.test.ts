/**
 * The search change feed (docs/search-engine.md "The store's change feed"), for every backend: a
 * full scan, then the
 * changes after it (inserts, updates, deletes, blocks, person counts), commits made during
 * a scan and by another connection, and the rescan signal once the log was pruned.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Person } from '../../src/domain/person.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import type { Store, PreparedItem } from '../../src/store/Store.js';
import type { SearchKind } from '../../src/domain/searchFeed.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexXml, type TestPackage } from '../helpers/packages.js';

function prepared(p: TestPackage, extra: Partial<PreparedItem> = {}): PreparedItem {
  const [r] = readItemRecords(cortexXml(p));
  assert.equal(r?.kind, 'item');
  return { ...(r as { item: PreparedItem }).item, ...extra };
}

const uri = (id: string) => `http://www.deutsche-digitale-bibliothek.de/item/${id}`;
const gnd = (n: number) => `http://d-nb.info/gnd/99999${n}`;
const person = (n: number, name: string): Person => ({ id: gnd(n), type: 'person', preferredName: name, variantName: [] });

/** Reads from `after` until done, applying the changes to `state` in order; returns the position reached. */
async function drain(store: Store, kind: SearchKind, after: string | null, limit: number, state = new Map<string, string>()) {
  let position = after;
  let calls = 0;
  for (;;) {
    const batch = await store.readSearchChanges(kind, position, limit);
    assert.ok(!('rescan' in batch), `no rescan from ${position}`);
    assert.ok(batch.changes.length <= limit);
    for (const c of batch.changes) {
      if (c.body === null) state.delete(c.id);
      else state.set(c.id, c.body);
    }
    position = batch.position;
    calls++;
    if (batch.done) return { state, position, calls };
  }
}

/** Only the changes after `after`, as id -> body (null = gone). */
async function changesAfter(store: Store, kind: SearchKind, after: string) {
  const batch = await store.readSearchChanges(kind, after, 1000);
  assert.ok(!('rescan' in batch));
  assert.equal(batch.done, true);
  return {
    changes: Object.fromEntries(batch.changes.map((c) => [c.id, c.body])),
    position: batch.position,
    ids: batch.changes.map((c) => c.id),
  };
}

const jsonOf = async (store: Store, id: string) => (await store.getItemDocument(id, 'json'))!.body.toString('utf8');

for (const backend of BACKENDS) {
  test(`[${backend.name}] a full scan gives every stored item but the blocked ones, in pages, then the changes after it`, async () => {
    const { store, dispose } = await backend.open();
    try {
      assert.deepEqual((await drain(store, 'item', null, 2)).state, new Map(), 'an empty store');
      await store.upsertItems(['A', 'B', 'C', 'D', 'E'].map((id) => prepared({ id, title: `Titel ${id}` })));
      await store.blockItem('D', 'test');
      const { state, position, calls } = await drain(store, 'item', null, 2);
      assert.deepEqual([...state.keys()].sort(), ['A', 'B', 'C', 'E']);
      for (const [id, body] of state) assert.equal(body, await jsonOf(store, id));
      assert.equal(calls, 3, 'two full pages of 2 (the blocked item skipped), then an empty one that ends the scan');
      assert.deepEqual((await changesAfter(store, 'item', position)).ids, [], 'nothing after the scan');
      assert.deepEqual((await drain(store, 'item', position, 2)).state, new Map(), 'idempotent: the same position again');

      await store.upsertItems([prepared({ id: 'F', title: 'Neu' }), prepared({ id: 'A', title: 'Geändert' })]);
      await store.upsertItems([prepared({ id: 'A', title: 'Geändert' })]); // unchanged content: no change
      await store.applyItemChanges([{ kind: 'delete', sourceId: uri('B') }]);
      await store.blockItem('C', 'test');
      await store.unblockItem('D');
      const after = await changesAfter(store, 'item', position);
      assert.deepEqual(after.changes, {
        F: await jsonOf(store, 'F'),
        A: await jsonOf(store, 'A'),
        B: null,
        C: null,
        D: await jsonOf(store, 'D'),
      });
      assert.match(after.changes['A'], /Geändert/);

      // Several changes of one id in one batch come once, as the last.
      await store.upsertItems([prepared({ id: 'E', title: 'Eins' })]);
      await store.upsertItems([prepared({ id: 'F', title: 'Zwei' })]);
      await store.upsertItems([prepared({ id: 'E', title: 'Drei' })]);
      const collapsed = await changesAfter(store, 'item', after.position);
      assert.deepEqual(collapsed.ids, ['F', 'E']);
      assert.match(collapsed.changes['E']!, /Drei/);

      // Replaying everything from the start gives what a new full scan gives.
      const replayed = (await drain(store, 'item', position, 2, new Map(state))).state;
      assert.deepEqual(replayed, (await drain(store, 'item', null, 3)).state);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] persons: documents with their count, which moves as items referring to them load and go`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.upsertItems([prepared({ id: 'A', title: 'A' }, { refs: [gnd(1)] })]);
      await store.upsertPersons([preparePerson(person(1, 'Erste')), preparePerson(person(2, 'Zweite'))]);
      const { state, position } = await drain(store, 'person', null, 10);
      assert.deepEqual(
        [...state.values()].map((b) => JSON.parse(b) as { id: string; count: number }).map((p) => [p.id, p.count]),
        [
          [gnd(1), 1],
          [gnd(2), 0],
        ],
      );
      assert.equal(JSON.parse(state.get(gnd(2))!).preferredName, 'Zweite');

      await store.upsertItems([prepared({ id: 'B', title: 'B' }, { refs: [gnd(2)] })]);
      const loaded = await changesAfter(store, 'person', position);
      assert.deepEqual(Object.keys(loaded.changes), [gnd(2)], 'only the person whose count moved');
      assert.equal(JSON.parse(loaded.changes[gnd(2)]!).count, 1);

      await store.applyItemChanges([{ kind: 'delete', sourceId: uri('A') }]);
      const deleted = await changesAfter(store, 'person', loaded.position);
      assert.deepEqual(Object.keys(deleted.changes), [gnd(1)]);
      assert.equal(JSON.parse(deleted.changes[gnd(1)]!).count, 0);

      await store.upsertPersons([preparePerson(person(2, 'Zweite, geändert'))]);
      const renamed = await changesAfter(store, 'person', deleted.position);
      assert.equal(JSON.parse(renamed.changes[gnd(2)]!).preferredName, 'Zweite, geändert');

      // Gender is in the feed's body (the engine indexes it), not in what a search answer shows.
      await store.upsertPersons([preparePerson({ ...person(2, 'Zweite, geändert'), gender: ['Frau'] })]);
      const gendered = await changesAfter(store, 'person', renamed.position);
      assert.equal(
        gendered.changes[gnd(2)],
        `{"id":"${gnd(2)}","type":"person","preferredName":"Zweite, geändert","variantName":[],"gender":["Frau"],"count":1}`,
      );
      assert.deepEqual(await store.readSearchBodies('person', [gnd(2)]), [
        `{"id":"${gnd(2)}","type":"person","preferredName":"Zweite, geändert","variantName":[],"count":1}`,
      ]);
      assert.deepEqual((await changesAfter(store, 'item', 'item:log:0')).ids.sort(), ['A', 'B'], 'the item feed is its own');
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] a commit made during a full scan is not missed, whatever it touches`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.upsertItems(['A', 'B', 'C', 'D'].map((id) => prepared({ id, title: id })));
      const first = await store.readSearchChanges('item', null, 1);
      assert.ok(!('rescan' in first));
      assert.deepEqual(
        first.changes.map((c) => c.id),
        ['A'],
      );
      assert.equal(first.done, false);
      // A, already read, changes; C, not yet read, goes; a new item comes; B is blocked.
      await store.upsertItems([prepared({ id: 'A', title: 'A2' }), prepared({ id: 'N', title: 'N' })]);
      await store.applyItemChanges([{ kind: 'delete', sourceId: uri('C') }]);
      await store.blockItem('B', 'test');
      const state = new Map(first.changes.map((c) => [c.id, c.body!]));
      await drain(store, 'item', first.position, 1, state);
      assert.deepEqual(state, (await drain(store, 'item', null, 10)).state);
      assert.deepEqual([...state.keys()].sort(), ['A', 'D', 'N']);
      assert.match(state.get('A')!, /A2/);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] another connection's commits are read by the next call`, async () => {
    const { store, location: path, dispose } = await backend.open();
    try {
      const { position } = await drain(store, 'item', null, 10);
      const other = await backend.connect(path);
      try {
        await other.upsertItems([prepared({ id: 'X', title: 'X' }, { refs: [gnd(7)] })]);
        await other.upsertPersons([preparePerson(person(7, 'Sieben'))]);
      } finally {
        await other.close();
      }
      assert.deepEqual((await changesAfter(store, 'item', position)).changes, { X: await jsonOf(store, 'X') });
      const persons = (await drain(store, 'person', null, 10)).state;
      assert.equal(JSON.parse(persons.get(gnd(7))!).count, 1);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] a reader behind the pruned log, or with a position of another kind or store, is told to rescan`, async () => {
    const { store, dispose } = await backend.open({ searchChangesKept: 3 });
    try {
      await store.upsertItems([prepared({ id: 'A', title: 'A0' }), prepared({ id: 'B', title: 'B0' })]);
      const start = (await drain(store, 'item', null, 10)).position;
      await store.upsertItems([prepared({ id: 'A', title: 'A1' })]);
      await store.upsertItems([prepared({ id: 'B', title: 'B1' })]);
      const recent = (await changesAfter(store, 'item', start)).position;
      // 3 kept (more than the 2 rows): two more changes prune the oldest two.
      await store.upsertItems([prepared({ id: 'A', title: 'A2' })]);
      await store.upsertItems([prepared({ id: 'B', title: 'B2' })]);
      assert.deepEqual(await store.readSearchChanges('item', start, 10), { rescan: true });
      const fromRecent = await changesAfter(store, 'item', recent);
      assert.deepEqual(fromRecent.ids, ['A', 'B'], 'a reader within the kept log reads on');
      assert.match(fromRecent.changes['B']!, /B2/);
      // A rescan then a read on works, and sees what the pruned changes did.
      const rescanned = await drain(store, 'item', null, 1);
      assert.match(rescanned.state.get('A')!, /A2/);
      assert.deepEqual((await changesAfter(store, 'item', rescanned.position)).ids, []);

      for (const bad of ['', 'x', 'person:log:0', 'item:log:999999', 'item:log:-1', 'item:scan:0']) {
        assert.deepEqual(await store.readSearchChanges('item', bad, 10), { rescan: true }, bad);
      }
      await assert.rejects(async () => await store.readSearchChanges('item', null, 0), RangeError);
    } finally {
      await dispose();
    }
  });
}
