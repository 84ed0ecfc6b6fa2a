/**
 * The byte-bounded cache of rendered and compressed answers and search
 * leaves (src/lruCache.ts): recently used entries outlive unused ones, the
 * budget holds, and a value larger than the budget is not kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruCache } from '../../src/lruCache.js';

const bytes = (s: string) => s.length;

test('the oldest unused entry goes first; a hit keeps an entry', () => {
  const cache = new LruCache<string>(3, bytes);
  cache.set('a', 'A');
  cache.set('b', 'B');
  cache.set('c', 'C');
  assert.equal(cache.get('a'), 'A');
  cache.set('d', 'D'); // b is the oldest unused
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((k) => cache.get(k)),
    ['A', undefined, 'C', 'D'],
  );
  assert.equal(cache.size, 3);
  // a used its second chance to make room for d, so it is now younger than c; all three were used
  // just now: after one round of second chances, c, the oldest, goes.
  cache.set('e', 'E');
  assert.deepEqual(
    ['a', 'c', 'd', 'e'].map((k) => cache.get(k)),
    ['A', undefined, 'D', 'E'],
  );
});

test('without hits it is first in, first out', () => {
  const cache = new LruCache<string>(4, bytes);
  for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) cache.set(k, k.toUpperCase());
  assert.deepEqual(
    ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => cache.get(k)),
    [undefined, undefined, 'C', 'D', 'E', 'F'],
  );
});

test('sizes count: a large value pushes out as many as it needs; one over the budget is not kept', () => {
  const cache = new LruCache<string>(10, bytes);
  cache.set('a', 'aaaa');
  cache.set('b', 'bbbb');
  cache.set('c', 'cccccc'); // 14 > 10: a goes (4 + 6 = 10)
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.get('b'), 'bbbb');
  assert.equal(cache.size, 10);
  cache.set('big', 'x'.repeat(11));
  assert.equal(cache.get('big'), undefined);
  assert.equal(cache.size, 10);
  // Setting a key again replaces its value and its size.
  cache.set('b', 'b');
  assert.equal(cache.get('b'), 'b');
  assert.equal(cache.size, 7);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.equal(cache.get('c'), undefined);
});
