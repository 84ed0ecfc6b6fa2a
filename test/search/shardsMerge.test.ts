/**
 * The merge of a scattered search's facet counts (src/search/engine/shards.ts mergeParts):
 * parts listing a few values of a large dictionary (summed over a Map) and parts listing most
 * of a small one (summed over arrays as long as the dictionary) give the counts a plain sum
 * over every part gives, ordered by count then value, or by value, and cut at the limit.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { mergeParts, type FacetPart, type SearchPart } from '../../src/search/engine/shards.js';
import type { FacetRequest, SearchRequest } from '../../src/search/engine/types.js';

let seed = 7;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const name = (id: number) => `v${id}`;

/** `n` parts, each listing `perPart` random ids below `size` with counts 1–3. */
function parts(n: number, perPart: number, size: number): FacetPart[] {
  return Array.from({ length: n }, () => {
    const ids = [...new Set(Array.from({ length: perPart }, () => Math.floor(rnd() * size)))];
    return { ids, values: ids.map(name), counts: ids.map(() => 1 + Math.floor(rnd() * 3)) };
  });
}

function expected(fr: FacetRequest, facetParts: FacetPart[]): Array<{ value: string; count: number }> {
  const sum = new Map<string, number>();
  for (const p of facetParts) p.values.forEach((v, i) => sum.set(v, (sum.get(v) ?? 0) + p.counts[i]!));
  const all = [...sum].map(([value, count]) => ({ value, count })).filter((v) => v.count >= fr.mincount);
  const byValue = (a: { value: string }, b: { value: string }) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
  all.sort(fr.sort === 'count' ? (a, b) => b.count - a.count || byValue(a, b) : byValue);
  return fr.limit === -1 ? all : all.slice(0, fr.limit);
}

it('facet counts of parts summed sparse or dense answer as a plain sum', () => {
  for (const [perPart, size] of [
    [300, 700_000],
    // sparse, with values in several parts
    [2_000, 100_000],
    [900, 1_000],
    [5, 50],
  ] as const) {
    for (const fr of [
      { field: 'f', limit: 10, mincount: 1, sort: 'count' },
      { field: 'f', limit: -1, mincount: 2, sort: 'count' },
      { field: 'f', limit: 25, mincount: 1, sort: 'index' },
    ] satisfies FacetRequest[]) {
      const facetParts = parts(3, perPart, size);
      const searchParts: SearchPart[] = facetParts.map((f) => ({ total: 0, page: [], orders: [], facets: [f], matched: [] }));
      const req = { query: { kind: 'all' }, facets: [fr], offset: 0, rows: 0 } as unknown as SearchRequest;
      const got = mergeParts(req, searchParts, 'x').facets[0]!.values;
      assert.deepEqual(got, expected(fr, facetParts), `${perPart} of ${size}, ${fr.sort} ${fr.limit}`);
    }
  }
});
