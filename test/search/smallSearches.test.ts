/**
 * Which searches the pool keeps on one worker (src/search/smallSearches.ts; docs/search-engine.md
 * "Small searches stay on one thread"): remembered when a scatter took its workers less than
 * the setting in all, forgotten when a run on one worker takes more than twice it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL } from '../../src/query/ast.js';
import type { EngineSearch } from '../../src/search/indexHost.js';
import { SmallSearches } from '../../src/search/smallSearches.js';

const search = (rows: number): EngineSearch => ({ kind: 'item', request: { query: ALL, sort: { kind: 'relevance' }, offset: 0, rows } });

test('a search is small when its scatter took less than the setting, until a run alone takes more than twice it', () => {
  const small = new SmallSearches(2);
  const key = small.keyOf(search(10))!;
  assert.equal(typeof key, 'string');
  assert.notEqual(small.keyOf(search(11)), key, 'another request, another key');
  assert.notEqual(small.keyOf({ ...search(10), kind: 'person' }), key, 'another kind, another key');
  assert.notEqual(small.keyOf({ ...search(10), fields: true }), key, 'with fields, another key');
  small.scattered(key, 2);
  assert.equal(small.has(key), false, 'a scatter of 2 ms is not small at 2');
  small.scattered(key, 1.9);
  assert.equal(small.has(key), true);
  small.ranAlone(key, 4);
  assert.equal(small.has(key), true, 'twice the setting alone is still small');
  small.ranAlone(key, 4.1);
  assert.equal(small.has(key), false, 'more than twice it: scattered again');
});

test('0 scatters every search; a long request and the oldest of too many are not remembered', () => {
  assert.equal(new SmallSearches(0).keyOf(search(10)), undefined);
  const small = new SmallSearches(2);
  const long: EngineSearch = {
    kind: 'item',
    request: { query: { kind: 'term', field: 'title', text: 'x'.repeat(3000) }, sort: { kind: 'relevance' }, offset: 0, rows: 1 },
  };
  assert.equal(small.keyOf(long), undefined);
  const keys = Array.from({ length: 4097 }, (_, i) => small.keyOf(search(i))!);
  for (const k of keys) small.scattered(k, 0.5);
  assert.equal(small.size, 4096);
  assert.equal(small.has(keys[0]!), false, 'the oldest is forgotten');
  assert.equal(small.has(keys[4096]!), true);
});
