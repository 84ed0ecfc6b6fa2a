/**
 * Names of facet values (src/search/engine/valueNames.ts): the value of one facet most live
 * documents with a value of another carry, as a brute-force count over the documents finds
 * it, ties to the first by code point; kept between calls, and right again after every kind of
 * change (a new document, one replaced, one deleted).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { SearchDocument } from '../../src/search/engine/types.js';

const schema: Schema = {
  kind: 'thing',
  idField: 'id',
  text: [{ name: 'title', weight: 1 }],
  facets: ['point', 'place'],
  numbers: [],
  sortKeys: [],
  relevanceTiebreak: [],
};

const FAR = () => Date.now() + 60_000;

interface Thing {
  point: string | null;
  places: string[];
}

function doc(id: string, t: Thing): SearchDocument {
  return {
    id,
    text: { title: ['thing'] },
    facets: { ...(t.point === null ? {} : { point: [t.point] }), ...(t.places.length === 0 ? {} : { place: t.places }) },
    numbers: {},
    sort: {},
  };
}

/** The name by counting every live document. */
function expected(things: Map<string, Thing>, point: string): string {
  const counts = new Map<string, number>();
  for (const t of things.values()) if (t.point === point) for (const p of new Set(t.places)) counts.set(p, (counts.get(p) ?? 0) + 1);
  let best = '';
  let most = 0;
  for (const [p, n] of counts) if (n > most || (n === most && p < best)) [best, most] = [p, n];
  return best;
}

it('names each value by the value most of its live documents carry, and follows every change', () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const ix = new SearchIndex(schema);
  const things = new Map<string, Thing>();
  const put = (id: string, t: Thing) => {
    ix.upsert(doc(id, t));
    things.set(id, t);
  };
  const thing = (): Thing => ({
    point: random(10) === 0 ? null : `p${random(12)}`,
    places: Array.from({ length: random(3) }, () => ['Leipzig', 'Lipsk', 'Dresden', 'Ödenburg', 'Aue'][random(5)]!),
  });
  for (let i = 0; i < 600; i++) put(`d${i}`, thing());
  const points = [...Array.from({ length: 12 }, (_, i) => `p${i}`), 'nowhere'];
  const check = (when: string) => {
    for (const p of points) assert.equal(ix.nameOf('point', p, 'place', FAR()), expected(things, p), `${when}: ${p}`);
  };
  check('first');
  check('kept');
  for (let round = 0; round < 30; round++) {
    const id = `d${random(700)}`;
    const change = random(3);
    if (change === 0 && things.has(id)) {
      ix.delete(id);
      things.delete(id);
    } else put(id, thing());
    check(`after change ${round}`);
  }
  // a point none of whose documents has a place, and one all of whose documents are gone
  put('bare', { point: 'p-bare', places: [] });
  assert.equal(ix.nameOf('point', 'p-bare', 'place', FAR()), '');
  put('lone', { point: 'p-lone', places: ['Zwickau'] });
  assert.equal(ix.nameOf('point', 'p-lone', 'place', FAR()), 'Zwickau');
  ix.delete('lone');
  assert.equal(ix.nameOf('point', 'p-lone', 'place', FAR()), '');
});
