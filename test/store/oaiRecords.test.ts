/**
 * The OAI-PMH records of the store (docs/oai-pmh.md; src/store/oaiRecords.ts), on every
 * backend: a record per item with its sets, datestamps that move with changes, tombstones
 * of deleted and blocked items kept with their sets, the harvest order kept across a
 * deletion and a return, and collection sets that follow a hierarchy loaded in any order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import { decodeBody } from '../../src/store/bodyCodec.js';
import { setSpec, setSpecPart, setSpecValue, parseSetSpec } from '../../src/store/oaiRecords.js';
import type { OaiRecord, PreparedItem, Store } from '../../src/store/Store.js';
import type { ProviderRecord } from '../../src/domain/institution.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexXml, type TestPackage } from '../helpers/packages.js';

function prepared(p: TestPackage, extra: Partial<PreparedItem> = {}): PreparedItem {
  const [r] = readItemRecords(cortexXml(p));
  assert.equal(r?.kind, 'item');
  return { ...(r as { item: PreparedItem }).item, sourceId: `src:${p.id}`, ...extra };
}

const provider = (key: string, name: string, sectors: string[]): ProviderRecord => ({
  key,
  ddbId: key,
  providerId: '',
  parentId: '',
  name,
  uri: '',
  sectors,
  latitude: '',
  longitude: '',
  state: '',
  logo: '',
});
const LIB = provider('LIB', 'Bibliothek', ['sec_02', 'sec_04']);
const MUS = provider('name:Museum für Völkerkunde', 'Museum für Völkerkunde', ['sec_06']);

/** Every record, heads only, as `id:deleted:sets` in harvest order. */
async function heads(store: Store, set?: string): Promise<string[]> {
  const all: OaiRecord[] = [];
  for (let after = 0; ;) {
    const page = await store.listOaiRecords({ after, set, limit: 2, bodies: false });
    if (page.length === 0) break;
    all.push(...page);
    after = page[page.length - 1]!.num;
  }
  return all.map((r) => `${r.id}:${r.deleted ? 'deleted' : 'live'}:${r.sets.join(',')}`);
}

/** Waits until the clock is in a later second than `since`: datestamps have second granularity. */
async function nextSecond(since: number): Promise<void> {
  while (Math.floor(Date.now() / 1000) <= since) await new Promise((resolve) => setTimeout(resolve, 20));
}

test('setSpec parts: plain text as is, anything else escaped reversibly', () => {
  assert.equal(setSpecPart('ABC-1_2.3'), 'ABC-1_2.3');
  assert.equal(setSpecPart('name:Museum für ~X'), 'name~3AMuseum~20f~C3~BCr~20~7EX');
  assert.equal(setSpecValue('name~3AMuseum~20f~C3~BCr~20~7EX'), 'name:Museum für ~X');
  assert.equal(setSpecValue('a~7e'), undefined, 'lower-case hex is not ours');
  assert.equal(setSpecValue('a b'), undefined);
  assert.deepEqual(parseSetSpec(setSpec('collection', 'ROOT')), { kind: 'collection', value: 'ROOT' });
  assert.equal(parseSetSpec('other-x'), undefined);
  assert.equal(parseSetSpec('provider'), undefined);
});

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} records with their sets; a change moves the datestamp, a deletion and a block leave tombstones with their sets`, async () => {
    const { store, dispose } = await backend.open();
    try {
      assert.deepEqual(await heads(store), []);
      assert.equal(await store.oaiEarliestDatestamp(), null);
      const before = Math.floor(Date.now() / 1000);
      await store.upsertItems([
        prepared({ id: 'A', title: 'A' }, { providers: [LIB] }),
        prepared({ id: 'B', title: 'B' }, { providers: [MUS] }),
        prepared({ id: 'C', title: 'C' }),
      ]);
      const lib = ['provider-LIB', 'sector-sec_02', 'sector-sec_04'].join(',');
      const mus = [setSpec('provider', MUS.key), 'sector-sec_06'].sort().join(',');
      assert.deepEqual(await heads(store), [`A:live:${lib}`, `B:live:${mus}`, 'C:live:']);
      assert.deepEqual(await heads(store, 'sector-sec_04'), [`A:live:${lib}`]);
      const first = (await store.getOaiRecord('A', true))!;
      assert.ok(first.datestamp >= before && first.datestamp <= Math.floor(Date.now() / 1000), `datestamp ${first.datestamp}`);
      assert.ok(first.storedBody !== undefined, 'the package comes with the record, in its stored form');
      assert.ok(decodeBody(first.storedBody).toString('utf8').includes('<item-id>A</item-id>'), 'the package XML comes with the record');
      assert.equal(await store.oaiEarliestDatestamp(), first.datestamp);

      // The same package again changes nothing; a changed one moves its datestamp.
      await nextSecond(first.datestamp);
      await store.upsertItems([prepared({ id: 'A', title: 'A' }, { providers: [LIB] })]);
      assert.equal((await store.getOaiRecord('A', false))!.datestamp, first.datestamp);
      await store.upsertItems([prepared({ id: 'A', title: 'A changed' }, { providers: [LIB] })]);
      const changed = (await store.getOaiRecord('A', false))!;
      assert.ok(changed.datestamp > first.datestamp, 'a changed package has a later datestamp');
      assert.equal(changed.num, first.num, 'and keeps its place in the harvest order');
      assert.equal(
        (await store.listOaiRecords({ after: 0, from: changed.datestamp, limit: 10, bodies: false })).map((r) => r.id).join(),
        'A',
      );
      assert.equal(
        (await store.listOaiRecords({ after: 0, until: changed.datestamp - 1, limit: 10, bodies: false })).map((r) => r.id).join(),
        'B,C',
      );

      // Deleted at the source and blocked by the operator: both listed as deleted, sets kept, no body.
      await store.applyItemChanges([{ kind: 'delete', sourceId: 'src:B' }]);
      assert.equal(await store.blockItem('C', 'asked to'), true);
      assert.deepEqual(await heads(store), [`A:live:${lib}`, `B:deleted:${mus}`, 'C:deleted:']);
      assert.deepEqual(await heads(store, 'sector-sec_06'), [`B:deleted:${mus}`]);
      const gone = (await store.getOaiRecord('B', true))!;
      assert.equal(gone.storedBody, undefined);
      assert.equal(gone.deleted, true);
      assert.equal(await store.oaiSetExists('sector-sec_06'), true, 'a set of deleted records is still a set');

      // Back again: the same place in the order, live.
      await store.unblockItem('C');
      await store.upsertItems([prepared({ id: 'B', title: 'B' }, { providers: [MUS] })]);
      assert.deepEqual(await heads(store), [`A:live:${lib}`, `B:live:${mus}`, 'C:live:']);
      assert.equal((await store.getOaiRecord('B', false))!.num, gone.num);

      assert.deepEqual(await store.listOaiSets(null, 10), [
        { spec: 'provider-LIB', name: 'Bibliothek' },
        { spec: setSpec('provider', MUS.key), name: 'Museum für Völkerkunde' },
        { spec: 'sector-sec_02', name: null },
        { spec: 'sector-sec_04', name: null },
        { spec: 'sector-sec_06', name: null },
      ]);
      assert.deepEqual(
        (await store.listOaiSets('provider-~', 2)).map((s) => s.spec),
        ['sector-sec_02', 'sector-sec_04'],
      );
      assert.equal(await store.oaiSetExists('sector-sec_01'), false);
      assert.equal(await store.getOaiRecord('NONE', false), undefined);
    } finally {
      await dispose();
    }
  });

  test(`${b} collection sets: every item below a root, whatever order the hierarchy is loaded in`, async () => {
    const { store, dispose } = await backend.open();
    try {
      // Leaves first, then the middle, then the root; a stand-alone item is in no collection.
      await store.upsertItems([
        prepared({ id: 'LEAF1', parent: 'MID' }),
        prepared({ id: 'LEAF2', parent: 'MID' }),
        prepared({ id: 'ALONE' }),
      ]);
      assert.deepEqual(await heads(store), ['LEAF1:live:', 'LEAF2:live:', 'ALONE:live:'], 'a parent not yet stored: no collection yet');
      await store.upsertItems([prepared({ id: 'MID', parent: 'ROOT' })]);
      assert.deepEqual(await heads(store, 'collection-MID'), [
        'LEAF1:live:collection-MID',
        'LEAF2:live:collection-MID',
        'MID:live:collection-MID',
      ]);
      await store.upsertItems([prepared({ id: 'ROOT' })]);
      assert.deepEqual(await heads(store, 'collection-ROOT'), [
        'LEAF1:live:collection-ROOT',
        'LEAF2:live:collection-ROOT',
        'MID:live:collection-ROOT',
        'ROOT:live:collection-ROOT',
      ]);
      assert.deepEqual(await heads(store, 'collection-MID'), [], 'the old collection is empty now');
      assert.deepEqual(await store.listOaiSets(null, 10), [{ spec: 'collection-ROOT', name: '' }]);

      // The root goes: its children become roots of their own; the root's tombstone stays in its set.
      await store.applyItemChanges([{ kind: 'delete', sourceId: 'src:ROOT' }]);
      assert.deepEqual(await heads(store, 'collection-MID'), [
        'LEAF1:live:collection-MID',
        'LEAF2:live:collection-MID',
        'MID:live:collection-MID',
      ]);
      assert.deepEqual(await heads(store, 'collection-ROOT'), ['ROOT:deleted:collection-ROOT']);

      // A leaf moves under the stand-alone item, which becomes a collection itself.
      await store.upsertItems([prepared({ id: 'LEAF2', title: 'moved', parent: 'ALONE' })]);
      assert.deepEqual(await heads(store, 'collection-ALONE'), ['LEAF2:live:collection-ALONE', 'ALONE:live:collection-ALONE']);
      assert.deepEqual(await heads(store, 'collection-MID'), ['LEAF1:live:collection-MID', 'MID:live:collection-MID']);
    } finally {
      await dispose();
    }
  });

  test(`${b} a cycle in the data ends the walk up; every item still gets a record`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.upsertItems([prepared({ id: 'X', parent: 'Y' }), prepared({ id: 'Y', parent: 'X' })]);
      const records = await heads(store);
      assert.equal(records.length, 2);
      for (const r of records) assert.match(r, /^[XY]:live:collection-[XY]$/);
    } finally {
      await dispose();
    }
  });
}
