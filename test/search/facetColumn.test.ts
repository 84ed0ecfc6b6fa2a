/**
 * Single-valued facet columns (src/search/engine/facetColumn.ts) are 1, 2 or 4 bytes per
 * document and widen as values come: counts, filters, field queries and deletes stay exact
 * across the widenings at 256 and 65,536 values, in ordinals written before and after them.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { SearchDocument, SearchRequest } from '../../src/search/engine/types.js';

const schema: Schema = {
  kind: 'thing',
  idField: 'id',
  text: [{ name: 'title', weight: 1 }],
  facets: ['color'],
  numbers: [],
  sortKeys: [],
  relevanceTiebreak: [],
};

const FAR = () => Date.now() + 60_000;

function doc(i: number, color: string | null): SearchDocument {
  return {
    id: `d${i}`,
    text: { title: [i % 2 === 0 ? 'even' : 'odd'] },
    facets: color === null ? {} : { color: [color] },
    numbers: {},
    sort: {},
  };
}

it('counts, filters and deletes are exact across the widenings of a single-valued column', () => {
  const ix = new SearchIndex(schema);
  const expected = new Map<string, Set<string>>();
  const put = (i: number, color: string | null) => {
    ix.upsert(doc(i, color));
    if (color !== null) {
      if (!expected.has(color)) expected.set(color, new Set());
      expected.get(color)!.add(`d${i}`);
    }
  };
  // 'a' on every 7th document from the first on, so it has ordinals of every width
  let i = 0;
  for (; i < 80_000; i++) put(i, i % 7 === 0 ? 'a' : i % 101 === 0 ? null : `v${i}`);
  // about 68,000 values: the column went from 1 to 2 to 4 bytes (near documents 300 and 77,200)
  assert.equal(ix.facets[ix.facetField.get('color')!]!.single!.array.BYTES_PER_ELEMENT, 4);
  // a delete of an early (written at 1 byte) and a late (written at 4 bytes) document of 'a'
  ix.delete('d0');
  expected.get('a')!.delete('d0');
  ix.delete('d79996');
  expected.get('a')!.delete('d79996');
  const search = (req: Partial<SearchRequest>) =>
    ix.search({ query: { kind: 'all' }, sort: { kind: 'id', descending: false }, offset: 0, rows: 100_000, ...req }, FAR());
  const top = search({ rows: 0, facets: [{ field: 'color', limit: 3, mincount: 1, sort: 'count' }] }).facets[0]!.values;
  assert.deepEqual(top[0], { value: 'a', count: expected.get('a')!.size });
  assert.equal(top.length, 3);
  assert.ok(top.slice(1).every((v) => v.count === 1));
  for (const value of ['a', 'v1', 'v300', 'v66000', 'v69999']) {
    const want = [...(expected.get(value) ?? [])].sort();
    // as a request filter, as a field query, and as a filter of a text query's hits
    assert.deepEqual(
      search({ filters: { color: [value] } })
        .ids.slice()
        .sort(),
      want,
      `filter ${value}`,
    );
    assert.deepEqual(
      search({ query: { kind: 'term', field: 'color', text: value } })
        .ids.slice()
        .sort(),
      want,
      `color:${value}`,
    );
    const odd = want.filter((id) => Number(id.slice(1)) % 2 === 1);
    assert.deepEqual(
      search({ query: { kind: 'term', field: null, text: 'odd' }, filters: { color: [value] } })
        .ids.slice()
        .sort(),
      odd,
      `odd + ${value}`,
    );
  }
  // counts among a text query's hits, over every value
  const even = search({
    query: { kind: 'term', field: null, text: 'even' },
    rows: 0,
    facets: [{ field: 'color', limit: -1, mincount: 1, sort: 'index' }],
  }).facets[0]!.values;
  const want = [...expected]
    .map(([value, ids]) => ({ value, count: [...ids].filter((id) => Number(id.slice(1)) % 2 === 0).length }))
    .filter((v) => v.count > 0);
  assert.deepEqual(new Map(even.map((v) => [v.value, v.count])), new Map(want.map((v) => [v.value, v.count])));
});

it('a single-valued column is 1 byte per document below 256 values and 2 below 65,536', () => {
  const ix = new SearchIndex(schema);
  const col = () => ix.facets[ix.facetField.get('color')!]!;
  for (let i = 0; i < 255; i++) ix.upsert(doc(i, `c${i}`));
  assert.equal(col().single!.array.BYTES_PER_ELEMENT, 1);
  ix.upsert(doc(255, 'c255'));
  assert.equal(col().single!.array.BYTES_PER_ELEMENT, 2);
  const counts = ix.search(
    {
      query: { kind: 'all' },
      sort: { kind: 'id', descending: false },
      offset: 0,
      rows: 0,
      facets: [{ field: 'color', limit: -1, mincount: 1, sort: 'index' }],
    },
    FAR(),
  ).facets[0]!.values;
  assert.equal(counts.length, 256);
  assert.ok(counts.every((v) => v.count === 1));
});
