/**
 * `*:*` pages and cursors ordered among candidates from the rank groups (src/search/engine/
 * rankLists.ts, search.ts byRankCandidates) against a brute-force order of every live
 * document: by relevance (all scores 0, so the title tiebreak, then the id), by title,
 * missing titles last, and by id, with duplicates, half-ranked new documents, replacements
 * and deletes.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { SearchDocument, SearchRequest, SearchSort } from '../../src/search/engine/types.js';

const schema: Schema = {
  kind: 'thing',
  idField: 'id',
  text: [{ name: 'title', weight: 5 }],
  facets: ['color'],
  numbers: [],
  sortKeys: [{ name: 'title', type: 'string', queryable: true }],
  relevanceTiebreak: [{ key: 'title', descending: false }],
};

const FAR = () => Date.now() + 60_000;

it('pages and cursors of *:* by relevance, by title and by id are those of a full sort, through new, replaced and deleted documents', () => {
  let x = 99;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8;
  const titles = Array.from({ length: 700 }, (_, k) => `t${(k * 37) % 701}`);
  const ix = new SearchIndex(schema);
  const docs = new Map<string, string | null>();
  const put = (id: string) => {
    const title = next() % 20 === 0 ? null : titles[next() % titles.length]!;
    docs.set(id, title);
    const doc: SearchDocument = { id, text: { title: title ? [title] : [] }, facets: {}, numbers: {}, sort: { title } };
    ix.upsert(doc);
  };
  for (let i = 0; i < 6000; i++) put(`d${i}`);
  ix.refreshOrders(1);
  const expected = () =>
    [...docs]
      .sort(
        ([a, ta], [b, tb]) => (ta === tb ? 0 : ta === null ? 1 : tb === null ? -1 : compareCodePoints(ta, tb)) || compareCodePoints(a, b),
      )
      .map(([id]) => id);
  const byId = () => [...docs.keys()].sort(compareCodePoints);
  const check = (label: string) => {
    for (const sort of [
      { kind: 'relevance' },
      { kind: 'key', key: 'title', descending: false },
      { kind: 'id', descending: false },
    ] as SearchSort[]) {
      const want = sort.kind === 'id' ? byId() : expected();
      const request = (rest: Partial<SearchRequest>): SearchRequest => ({ query: { kind: 'all' }, sort, offset: 0, rows: 50, ...rest });
      for (const offset of [0, 50, 333]) {
        assert.deepEqual(
          ix.search(request({ offset }), FAR()).ids,
          want.slice(offset, offset + 50),
          `${label}, ${sort.kind}, offset ${offset}`,
        );
      }
      // a cursor walk through every document, missing titles and all
      const seen: string[] = [];
      for (let cursor = '*'; ;) {
        const page = ix.search(request({ cursor, rows: 250 }), FAR());
        seen.push(...page.ids);
        if (page.ids.length === 0) break;
        cursor = page.nextCursor!;
      }
      assert.deepEqual(seen, want, `${label}, ${sort.kind}, cursor walk`);
    }
  };
  check('after a refresh');
  for (let i = 6000; i < 6300; i++) put(`d${i}`); // half-ranked: not in the groups
  for (let i = 0; i < 300; i++) put(`d${next() % 6000}`); // replaced: new ordinals
  for (let i = 0; i < 200; i++) {
    const id = `d${next() % 6300}`;
    if (ix.delete(id)) docs.delete(id);
  }
  check('with new, replaced and deleted documents since');
});
