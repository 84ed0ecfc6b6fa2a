/** smallestK against a plain sort, on random data with a fixed seed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smallestK } from '../../src/search/topK.js';

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

test('smallestK returns the k smallest keys in order, honouring after, for many sizes', () => {
  const random = rng(7);
  for (const n of [0, 1, 2, 5, 100, 1000]) {
    const rows = Uint32Array.from({ length: n }, (_, i) => i);
    const keys = Array.from({ length: n }, () => random());
    const sorted = [...rows].sort((a, b) => keys[a]! - keys[b]!);
    for (const k of [0, 1, 3, 10, n, n + 5]) {
      assert.deepEqual(smallestK(rows, (r) => keys[r]!, k), sorted.slice(0, k), `n=${n} k=${k}`);
      const after = n > 4 ? keys[sorted[3]!]! : -Infinity;
      const expected = sorted.filter((r) => keys[r]! > after).slice(0, k);
      assert.deepEqual(smallestK(rows, (r) => keys[r]!, k, after), expected, `n=${n} k=${k} after`);
    }
  }
});
