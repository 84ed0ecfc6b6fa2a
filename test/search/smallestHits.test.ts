/**
 * The top k of src/search/engine/order.ts smallestHits with a tie key (the next component's
 * column, read where coarse keys are equal) against a full sort by the exact order: many
 * equal keys, equal and missing (NaN) tie values, both directions, with and without a cursor.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { compareHits, compareToCursor, numberComponent, smallestHits, type Component } from '../../src/search/engine/order.js';

function random(seed: number): () => number {
  let x = seed;
  return () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

it('smallestHits with a tie key gives the first k hits of the full order, cursor or not', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const next = random(seed);
    const n = 3000;
    const ordinals = 5000;
    // hits: ascending ordinals; scores from a few values, so that most keys tie
    const docs = new Uint32Array(n);
    for (let h = 0, d = 0; h < n; h++) docs[h] = d += 1 + Math.floor(next() * 1.6);
    const scores = Float64Array.from({ length: n }, () => [3, 2, 2, 1][Math.floor(next() * 4)]!);
    // the tie column, by ordinal: few distinct values, some missing
    const column = Float64Array.from({ length: ordinals + n * 3 }, () => (next() < 0.1 ? NaN : Math.floor(next() * 40)));
    const sign = seed % 2 === 0 ? 1 : -1;
    const order: Component[] = [
      numberComponent((h) => scores[h]!, true),
      numberComponent((h) => column[docs[h]!]!, sign === -1),
      numberComponent((h) => docs[h]!, false),
    ];
    const keys = scores.map((s) => -s);
    const full = Array.from({ length: n }, (_, h) => h).sort((a, b) => compareHits(order, a, b));
    for (const k of [1, 20, 100, n + 5]) {
      const got = smallestHits(n, order, k, undefined, () => {}, { keys, afterKey: -Infinity, tie: { values: column, docs, sign } });
      assert.deepEqual(got, full.slice(0, k), `seed ${seed}, k ${k}`);
    }
    // after a cursor: the hits after the one at position 250
    const c = full[250]!;
    const values = order.map((o) => o.value(c));
    const got = smallestHits(n, order, 30, values, () => {}, { keys, afterKey: -scores[c]!, tie: { values: column, docs, sign } });
    assert.deepEqual(got, full.slice(251, 281), `seed ${seed}, after a cursor`);
    assert.ok(got.every((h) => compareToCursor(order, h, values) > 0));
  }
});
