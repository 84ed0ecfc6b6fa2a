/**
 * The search change feed (issue #14 point 6), for every backend: a full scan, then the
 * changes after it (inserts, updates, deletes, blocks, person counts), commits made during
 * a scan and by another connection, and the rescan signal once the log was pruned.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Person } from '../../src/ingest/persons/person.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import type { PreparedItem, SearchKind, Store } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexXml, type TestPackage } from '../helpers/packages.js';

function prepared(p: TestPackage, extra: Partial<PreparedItem> = {}): PreparedItem {
  const [r] = readItemRecords(cortexXml(p));
  assert.equal(r?.kind, 'item');
  return { ...(r as { item: PreparedItem }).item, ...extra };
}

const uri = (id: string) => `http://www.deutsche-digitale-bibliothek.de/item/${id}`;
const gnd = (n: number) => `http://d-nb.info/gnd/99999${n}`;
const person = (n: number, name: string): Person => ({ id: gnd(n), type: 'person', preferredName: name, variantName: [] }) as Person;

/** Reads from `after` until done, applying the changes to `state` in order; returns the position reached. */
function drain(store: Store, kind: SearchKind, after: string | null, limit: number, state = new Map<string, string>()) {
  let position = after;
  let calls = 0;
  for (;;) {
    const batch = store.readSearchChanges(kind, position, limit);
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
function changesAfter(store: Store, kind: SearchKind, after: string) {
  const batch = store.readSearchChanges(kind, after, 1000);
  assert.ok(!('rescan' in batch));
  assert.equal(batch.done, true);
  return { changes: Object.fromEntries(batch.changes.map((c) => [c.id, c.body])), position: batch.position, ids: batch.changes.map((c) => c.id) };
}

const jsonOf = (store: Store, id: string) => store.getItemDocument(id, 'json')!.body.toString('utf8');

for (const backend of BACKENDS) {
  test(`[${backend.name}] a full scan gives every stored item but the blocked ones, in pages, then the changes after it`, () => {
    const { store, dispose } = backend.open();
    try {
      assert.deepEqual(drain(store, 'item', null, 2).state, new Map(), 'an empty store');
      store.upsertItems(['A', 'B', 'C', 'D', 'E'].map((id) => prepared({ id, title: `Titel ${id}` })));
      store.blockItem('D', 'test');
      const { state, position, calls } = drain(store, 'item', null, 2);
      assert.deepEqual([...state.keys()].sort(), ['A', 'B', 'C', 'E']);
      for (const [id, body] of state) assert.equal(body, jsonOf(store, id));
      assert.equal(calls, 3, 'two full pages of 2 (the blocked item skipped), then an empty one that ends the scan');
      assert.deepEqual(changesAfter(store, 'item', position).ids, [], 'nothing after the scan');
      assert.deepEqual(drain(store, 'item', position, 2).state, new Map(), 'idempotent: the same position again');

      store.upsertItems([prepared({ id: 'F', title: 'Neu' }), prepared({ id: 'A', title: 'Geändert' })]);
      store.upsertItems([prepared({ id: 'A', title: 'Geändert' })]); // unchanged content: no change
      store.applyItemChanges([{ kind: 'delete', sourceId: uri('B') }]);
      store.blockItem('C', 'test');
      store.unblockItem('D');
      const after = changesAfter(store, 'item', position);
      assert.deepEqual(after.changes, { F: jsonOf(store, 'F'), A: jsonOf(store, 'A'), B: null, C: null, D: jsonOf(store, 'D') });
      assert.match(after.changes['A']!, /Geändert/);

      // Several changes of one id in one batch come once, as the last.
      store.upsertItems([prepared({ id: 'E', title: 'Eins' })]);
      store.upsertItems([prepared({ id: 'F', title: 'Zwei' })]);
      store.upsertItems([prepared({ id: 'E', title: 'Drei' })]);
      const collapsed = changesAfter(store, 'item', after.position);
      assert.deepEqual(collapsed.ids, ['F', 'E']);
      assert.match(collapsed.changes['E']!, /Drei/);

      // Replaying everything from the start gives what a new full scan gives.
      const replayed = drain(store, 'item', position, 2, new Map(state)).state;
      assert.deepEqual(replayed, drain(store, 'item', null, 3).state);
    } finally {
      dispose();
    }
  });

  test(`[${backend.name}] persons: documents with their count, which moves as items referring to them load and go`, () => {
    const { store, dispose } = backend.open();
    try {
      store.upsertItems([prepared({ id: 'A', title: 'A' }, { refs: [gnd(1)] })]);
      store.upsertPersons([preparePerson(person(1, 'Erste')), preparePerson(person(2, 'Zweite'))]);
      const { state, position } = drain(store, 'person', null, 10);
      assert.deepEqual(
        [...state.values()].map((b) => JSON.parse(b) as { id: string; count: number }).map((p) => [p.id, p.count]),
        [[gnd(1), 1], [gnd(2), 0]],
      );
      assert.equal(JSON.parse(state.get(gnd(2))!).preferredName, 'Zweite');

      store.upsertItems([prepared({ id: 'B', title: 'B' }, { refs: [gnd(2)] })]);
      const loaded = changesAfter(store, 'person', position);
      assert.deepEqual(Object.keys(loaded.changes), [gnd(2)], 'only the person whose count moved');
      assert.equal(JSON.parse(loaded.changes[gnd(2)]!).count, 1);

      store.applyItemChanges([{ kind: 'delete', sourceId: uri('A') }]);
      const deleted = changesAfter(store, 'person', loaded.position);
      assert.deepEqual(Object.keys(deleted.changes), [gnd(1)]);
      assert.equal(JSON.parse(deleted.changes[gnd(1)]!).count, 0);

      store.upsertPersons([preparePerson(person(2, 'Zweite, geändert'))]);
      const renamed = changesAfter(store, 'person', deleted.position);
      assert.equal(JSON.parse(renamed.changes[gnd(2)]!).preferredName, 'Zweite, geändert');
      assert.deepEqual(changesAfter(store, 'item', 'item:log:0').ids.sort(), ['A', 'B'], 'the item feed is its own');
    } finally {
      dispose();
    }
  });

  test(`[${backend.name}] a commit made during a full scan is not missed, whatever it touches`, () => {
    const { store, dispose } = backend.open();
    try {
      store.upsertItems(['A', 'B', 'C', 'D'].map((id) => prepared({ id, title: id })));
      const first = store.readSearchChanges('item', null, 1);
      assert.ok(!('rescan' in first));
      assert.deepEqual(first.changes.map((c) => c.id), ['A']);
      assert.equal(first.done, false);
      // A, already read, changes; C, not yet read, goes; a new item comes; B is blocked.
      store.upsertItems([prepared({ id: 'A', title: 'A2' }), prepared({ id: 'N', title: 'N' })]);
      store.applyItemChanges([{ kind: 'delete', sourceId: uri('C') }]);
      store.blockItem('B', 'test');
      const state = new Map(first.changes.map((c) => [c.id, c.body!]));
      drain(store, 'item', first.position, 1, state);
      assert.deepEqual(state, drain(store, 'item', null, 10).state);
      assert.deepEqual([...state.keys()].sort(), ['A', 'D', 'N']);
      assert.match(state.get('A')!, /A2/);
    } finally {
      dispose();
    }
  });

  test(`[${backend.name}] another connection's commits are read by the next call`, () => {
    const { store, path, dispose } = backend.open();
    try {
      const { position } = drain(store, 'item', null, 10);
      const other = backend.connect(path);
      try {
        other.upsertItems([prepared({ id: 'X', title: 'X' }, { refs: [gnd(7)] })]);
        other.upsertPersons([preparePerson(person(7, 'Sieben'))]);
      } finally {
        other.close();
      }
      assert.deepEqual(changesAfter(store, 'item', position).changes, { X: jsonOf(store, 'X') });
      const persons = drain(store, 'person', null, 10).state;
      assert.equal(JSON.parse(persons.get(gnd(7))!).count, 1);
    } finally {
      dispose();
    }
  });

  test(`[${backend.name}] a reader behind the pruned log, or with a position of another kind or store, is told to rescan`, () => {
    const { store, dispose } = backend.open({ searchChangesKept: 3 });
    try {
      store.upsertItems([prepared({ id: 'A', title: 'A0' }), prepared({ id: 'B', title: 'B0' })]);
      const start = drain(store, 'item', null, 10).position;
      store.upsertItems([prepared({ id: 'A', title: 'A1' })]);
      store.upsertItems([prepared({ id: 'B', title: 'B1' })]);
      const recent = changesAfter(store, 'item', start).position;
      // 3 kept (more than the 2 rows): two more changes prune the oldest two.
      store.upsertItems([prepared({ id: 'A', title: 'A2' })]);
      store.upsertItems([prepared({ id: 'B', title: 'B2' })]);
      assert.deepEqual(store.readSearchChanges('item', start, 10), { rescan: true });
      const fromRecent = changesAfter(store, 'item', recent);
      assert.deepEqual(fromRecent.ids, ['A', 'B'], 'a reader within the kept log reads on');
      assert.match(fromRecent.changes['B']!, /B2/);
      // A rescan then a read on works, and sees what the pruned changes did.
      const rescanned = drain(store, 'item', null, 1);
      assert.match(rescanned.state.get('A')!, /A2/);
      assert.deepEqual(changesAfter(store, 'item', rescanned.position).ids, []);

      for (const bad of ['', 'x', 'person:log:0', 'item:log:999999', 'item:log:-1', 'item:scan:0']) {
        assert.deepEqual(store.readSearchChanges('item', bad, 10), { rescan: true }, bad);
      }
      assert.throws(() => store.readSearchChanges('item', null, 0), RangeError);
    } finally {
      dispose();
    }
  });
}
