/**
 * One refresh of the ranks per node (docs/search-engine.md "One copy per node"): replicas of a
 * pool's stream, given its batches in one order as the pool gives them, where one (the writer)
 * refreshes the ranks at a catch-up into shared memory and the others take that refresh
 * (IndexHost.rankSharing, adoptRanks), hold one copy of the refreshed ranks, number them as a
 * replica that refreshes its own, and answer every order alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchChange, SearchFeedStore } from '../../src/domain/searchFeed.js';
import { parseQuery } from '../../src/query/parse.js';
import type { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { queryFields } from '../../src/search/engine/schema.js';
import type { SearchRequest, SearchSort } from '../../src/search/engine/types.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';

const FAR = () => Date.now() + 60_000;

/** As a replica of the pool is given (searchJob.ts replicaJobs): it reads no feed and shows no hit here. */
const noFeed: SearchFeedStore = {
  readSearchChanges: () => Promise.reject(new Error('a replica reads no change feed')),
  readSearchBodies: () => Promise.reject(new Error('not read in this test')),
  searchIdentity: () => Promise.reject(new Error('not read in this test')),
};

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'ä', 'ö'];
function person(i: number): SearchChange {
  let name = '';
  for (let x = (i * 7919) % 100_003; name.length < 8; x = Math.floor(x / SYLLABLES.length) + 3) name += SYLLABLES[x % SYLLABLES.length];
  return {
    id: `http://d-nb.info/gnd/${(i * 104_729) % 1_000_003}`,
    body: JSON.stringify({ type: 'person', preferredName: `${name} ${i % 97}`, variantName: [], count: i % 5 }),
  };
}
const people = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => person(from + k));

function requests(): SearchRequest[] {
  const q = (text: string) => parseQuery(text, { fields: queryFields(personSchema) });
  const sorts: SearchSort[] = [
    { kind: 'id', descending: false },
    { kind: 'id', descending: true },
    { kind: 'key', key: 'preferredName', descending: false },
    { kind: 'key', key: 'preferredName', descending: true },
    { kind: 'relevance' },
  ];
  const out: SearchRequest[] = [];
  for (const sort of sorts)
    for (const text of ['*:*', 'ka*', '17 OR 30', 'preferredName:[lo TO ru]'])
      for (const offset of [0, 300]) out.push({ query: q(text), sort, offset, rows: 20 });
  return out;
}

function answers(ix: SearchIndex): unknown[] {
  const out: unknown[] = requests().map((r) => ix.search(r, FAR()));
  out.push(ix.suggest('ka', 10), ix.suggest('ö', 10));
  return out;
}

const orders = (ix: SearchIndex) => [ix.idRanks, ix.sortRanks[0]!];

test("replicas take the writer's refresh of the ranks: one copy in shared memory, the same numbers, the same answers", () => {
  const shares: Array<Parameters<IndexHost['adoptRanks']>> = [];
  const writer = new IndexHost(noFeed);
  writer.rankSharing = { share: true, onShared: (kind, stream, refreshes) => shares.push([kind, stream, refreshes]) };
  const replicas = [new IndexHost(noFeed), new IndexHost(noFeed)];
  for (const r of replicas) r.rankSharing = { share: false, onShared: () => assert.fail('only the writer shares') };
  const own = new IndexHost(noFeed); // refreshes its own, as without a generation on disk
  const all = [writer, ...replicas, own];
  let at = 0;
  const batch = (changes: SearchChange[], done: boolean) => {
    at++;
    for (const h of all) h.apply('person', changes, `p:${at}`, done);
  };
  /** What the pool does with the writer's refresh: hands it to every other replica, behind what it sent before. */
  const forward = (to: IndexHost[]) => {
    for (const s of shares.splice(0)) for (const h of to) h.adoptRanks(...s);
  };

  for (const h of all) h.begin('person', null, 'rescan', 1);
  batch(people(0, 800), false);
  batch(people(800, 1600), true); // the catch-up: 1,600 half-ranked, past the 1,024 a catch-up refreshes
  assert.equal(shares.length, 1, 'the writer shared its refresh once');
  const [kind, stream, refreshes] = shares[0]!;
  assert.deepEqual([kind, stream, refreshes.map((r) => r.key).sort()], ['person', 1, [-1, 0]]);
  // a refresh of another stream is not taken
  for (const h of replicas) h.adoptRanks('person', 2, refreshes);
  for (const h of replicas) for (const r of orders(h.index('person'))) assert.equal(r.stale, 1600);
  forward([replicas[0]!]);
  batch(people(1600, 1700), false); // the second replica is behind: it takes the refresh after newer documents
  shares.push(['person', 1, refreshes]);
  forward([replicas[1]!]);
  batch([...people(1700, 1750), { id: person(10).id, body: null }, person(3)], true);

  const writerIx = writer.index('person');
  for (const h of replicas) {
    const ix = h.index('person');
    orders(ix).forEach((r, k) => {
      assert.equal(r.rank.array.buffer, orders(writerIx)[k]!.rank.array.buffer, 'the one copy in shared memory');
      const mine = orders(own.index('person'))[k]!;
      assert.deepEqual(r.rank.array.subarray(0, ix.ordinals), mine.rank.array.subarray(0, ix.ordinals), 'numbered as a refresh of its own');
      assert.equal(r.stale, mine.stale);
    });
  }
  assert.ok(orders(writerIx)[0]!.rank.array.buffer instanceof SharedArrayBuffer);
  assert.ok(!(orders(own.index('person'))[0]!.rank.array.buffer instanceof SharedArrayBuffer));
  const expected = answers(own.index('person'));
  for (const h of [writer, ...replicas]) assert.deepEqual(answers(h.index('person')), expected);

  // A new stream: the refresh of the old one is not taken by the new index.
  for (const h of all) h.begin('person', null, 'rescan', 2);
  batch(people(0, 1200), true);
  assert.equal(shares.length, 1, 'the new stream is refreshed and shared once');
  for (const h of replicas) h.adoptRanks('person', 1, refreshes);
  for (const h of replicas)
    for (const r of orders(h.index('person'))) assert.notEqual(r.rank.array.buffer, refreshes[0]!.ranks.rank.buffer);
  forward(replicas);
  for (const h of replicas)
    orders(h.index('person')).forEach((r, k) => assert.equal(r.rank.array.buffer, orders(writer.index('person'))[k]!.rank.array.buffer));
  const again = answers(own.index('person'));
  for (const h of [writer, ...replicas]) assert.deepEqual(answers(h.index('person')), again);
});
