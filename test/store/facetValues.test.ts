/** The facet value table of the SQLite search index (src/store/sqlite/facetValues.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FacetValues } from '../../src/store/sqlite/facetValues.js';

test('values come back by id and are found by value, non-ASCII and beyond the BMP included', () => {
  // Code point order, as SQLite's BINARY collation sorts UTF-8: U+FF21 (Ａ) before U+1D400 (𝐀),
  // although JavaScript's < (UTF-16 units) would put the surrogate pair first.
  const sorted = ['', 'Berlin', 'Bremen', 'Köln', 'München', 'Zürich', 'Ａ', '𝐀'];
  const values = new FacetValues();
  sorted.forEach((v, i) => assert.equal(values.push(v), i));
  values.seal();
  assert.equal(values.size, sorted.length);
  assert.deepEqual(sorted.map((_, i) => values.get(i)), sorted);
  assert.deepEqual(sorted.map((v) => values.find(v)), sorted.map((_, i) => i));
  for (const missing of ['A', 'Berlin ', 'Kolin', 'Zz', '𝐁', 'Bre']) assert.equal(values.find(missing), undefined, missing);
});

test('a large table grows past its first buffers', () => {
  const values = new FacetValues();
  const all = Array.from({ length: 50_000 }, (_, i) => `value ${String(i).padStart(6, '0')} ${'x'.repeat(i % 7)}`);
  for (const v of all) values.push(v);
  values.seal();
  assert.equal(values.get(49_999), all[49_999]);
  assert.equal(values.find(all[31_337]!), 31_337);
});
