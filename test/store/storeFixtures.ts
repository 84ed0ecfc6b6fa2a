/**
 * The real fixtures as a store holds them, loaded the same way into any Store, and
 * a comparison of everything two stores answer (both backends must give
 * the same results).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readPreparedPersons } from '../../src/ingest/persons/preparePerson.js';
import type { Store, PreparedItem, PreparedPerson } from '../../src/store/Store.js';
import type { SearchKind } from '../../src/domain/searchFeed.js';
import { FIXTURES } from '../helpers/paths.js';
import { cortexPackages, edmPackages } from '../search/itemFixtures.js';

export async function fixtureItems(): Promise<PreparedItem[]> {
  // Some EDM records of the fixtures share an id (the later one replaces the earlier): one each.
  return [...new Map([...cortexPackages(), ...(await edmPackages())].map((p) => [p.item.id, p.item])).values()];
}

export function fixturePersons(): PreparedPerson[] {
  const out = new Map<string, PreparedPerson>();
  for (const file of ['entityfacts/culturehub-1222-persons.json', 'lobid-gnd/LobidSearchPersons.json', 'lobid-gnd/LobidPerson.json']) {
    for (const r of readPreparedPersons(readFileSync(`${FIXTURES}persons/${file}`, 'utf8')))
      if (r.kind === 'record') out.set(r.record.id, r.record);
  }
  return [...out.values()];
}

/**
 * Loads the fixtures and a little of everything else a store keeps: items in batches,
 * persons (some referred to by items), a block, keys (one revoked), a harvest state, load runs.
 */
export async function loadEverything(store: Store, items: readonly PreparedItem[], persons: readonly PreparedPerson[]): Promise<void> {
  const withRefs = items.map((item, i) => ({
    ...item,
    refs: [
      ...item.refs,
      ...persons
        .filter((_, j) => j % 7 === i % 7)
        .slice(0, 3)
        .map((p) => p.id),
    ],
  }));
  for (let i = 0; i < withRefs.length; i += 50) await store.upsertItems(withRefs.slice(i, i + 50));
  await store.upsertPersons(persons);
  await store.blockItem(items[2]!.id, 'Rechte ungeklärt');
  await store.createKey('alice', 'a'.repeat(64));
  await store.createKey('bob', 'b'.repeat(64));
  await store.revokeKey('bob');
  // Only Alice's key is active: a revoked key's hash is not handed out for redaction.
  assert.deepEqual(await store.activeKeyHashes(), ['a'.repeat(64)]);
  await store.markKeyUsed('alice', new Date('2024-01-02T03:04:05Z'));
  await store.applyItemChanges([{ kind: 'delete', sourceId: items[4]!.choUri! }], {
    source: '["https://oai.example/","edm",null]',
    state: { highWater: '2024-02-01T00:00:00Z', resumptionToken: null, runFrom: null, runStarted: null },
  });
  await store.recordLoad({
    kind: 'items',
    finishedAt: new Date('2024-03-04T05:06:07Z'),
    records: items.length,
    inserted: items.length,
    updated: 0,
    unchanged: 0,
    deleted: 1,
    problems: 0,
  });
  await store.recordLoad({
    kind: 'persons',
    finishedAt: new Date('2024-03-04T05:06:08Z'),
    records: persons.length,
    inserted: persons.length,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    problems: 2,
  });
}

async function fullScan(store: Store, kind: SearchKind): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  let position: string | null = null;
  for (;;) {
    const batch = await store.readSearchChanges(kind, position, 97);
    assert.ok(!('rescan' in batch));
    for (const c of batch.changes) out.set(c.id, c.body);
    position = batch.position;
    if (batch.done) return out;
  }
}

/** Without the times a store sets itself when it writes (when two stores were loaded apart). */
const timeless = <T extends object>(x: T | undefined) =>
  x && Object.fromEntries(Object.entries(x).filter(([k]) => !['lastModified', 'createdAt', 'updatedAt', 'revokedAt'].includes(k)));

/**
 * Asserts that two stores answer every read alike, for the given item ids and persons.
 * `sameTimes`: also the times the stores set (true for a copy, false for two loads).
 */
export async function assertSameAnswers(
  a: Store,
  b: Store,
  itemIds: readonly string[],
  personIds: readonly string[],
  sameTimes: boolean,
): Promise<void> {
  const t = <T extends object>(x: T | undefined) => (sameTimes ? x : timeless(x));
  assert.equal(await b.countItems(), await a.countItems());
  assert.equal(await b.countPersons(), await a.countPersons());
  assert.deepEqual(await b.listItemIds({ limit: 100_000 }), await a.listItemIds({ limit: 100_000 }));
  for (const id of itemIds) {
    for (const format of ['json', 'xml'] as const)
      assert.deepEqual(t(await b.getItemDocument(id, format)), t(await a.getItemDocument(id, format)), `${id} ${format}`);
    assert.deepEqual(t(await b.getItemHead(id)), t(await a.getItemHead(id)), id);
    assert.deepEqual(await b.getAncestry(id), await a.getAncestry(id), `parents of ${id}`);
    assert.deepEqual(await b.getChildren(id, 0, 1000), await a.getChildren(id, 0, 1000), `children of ${id}`);
  }
  assert.deepEqual(await b.findCycles(itemIds), await a.findCycles(itemIds));
  assert.deepEqual(await b.listProviders(), await a.listProviders());
  assert.deepEqual((await b.listKeys()).map(t), (await a.listKeys()).map(t));
  assert.deepEqual(await b.findActiveKey('a'.repeat(64)), await a.findActiveKey('a'.repeat(64)));
  assert.equal(await b.findActiveKey('b'.repeat(64)), undefined);
  assert.deepEqual((await b.activeKeyHashes()).sort(), (await a.activeKeyHashes()).sort());
  assert.deepEqual((await b.listLoads()).map(t), (await a.listLoads()).map(t));
  assert.deepEqual((await b.listHarvests()).map(t), (await a.listHarvests()).map(t));
  for (const kind of ['item', 'person'] as const) {
    const scan = await fullScan(a, kind);
    assert.deepEqual(new Map([...(await fullScan(b, kind))].sort()), new Map([...scan].sort()), `${kind} scan`);
    const ids = kind === 'item' ? itemIds : personIds;
    assert.deepEqual(await b.readSearchBodies(kind, ids), await a.readSearchBodies(kind, ids), `${kind} bodies`);
  }
}
