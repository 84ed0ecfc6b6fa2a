/**
 * exportHits (src/search/exportHits.ts), the bulk export's pager shared by the CLI and the
 * search routes: every hit once in id order whatever the page size, a start after any id
 * (one that is not there included), items added and deleted between pages, errors.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SearchRequestError } from '../../src/search/engine/errors.js';
import { exportHits, type ExportRequest } from '../../src/search/exportHits.js';
import { IndexHost, type EngineSearch } from '../../src/search/indexHost.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexPackages } from './itemFixtures.js';

const all: ExportRequest = { kind: 'item', query: { kind: 'all' } };

async function lines(gen: AsyncGenerator<string, unknown>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of gen) out.push(line);
  return out;
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] exportHits: every hit once in id order, any page size, after any id, while the collection changes`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const packages = cortexPackages().map((p) => p.item);
      await store.upsertItems(packages);
      const host = new IndexHost(store);
      while (!(await host.refresh('item', 1000)));
      const searches: EngineSearch[] = [];
      const run = async (s: EngineSearch) => {
        searches.push(s);
        return await host.search(s, Date.now() + 60_000);
      };
      const ids = packages.map((p) => p.id).sort();
      const whole = await lines(exportHits(run, all));
      assert.deepEqual(
        whole.map((l) => (JSON.parse(l) as { id: string }).id),
        ids,
      );
      assert.ok(
        whole.every((l) => l.endsWith('}\n') && l.indexOf('\n') === l.length - 1),
        'one line a doc',
      );
      assert.equal(searches.length, 1, 'a short page is the last');

      for (const pageRows of [1, 2, ids.length]) {
        searches.length = 0;
        const progress: number[] = [];
        assert.deepEqual(
          await lines(exportHits(run, { ...all, pageRows }, (p) => progress.push(p.exported))),
          whole,
          `pages of ${pageRows}`,
        );
        assert.ok(searches.every((s) => s.request.sort.kind === 'id' && s.request.rows === pageRows));
        assert.equal(progress.at(-1), ids.length);
      }
      // after an id that is there, and after one that is not (a deleted item's)
      assert.deepEqual(await lines(exportHits(run, { ...all, afterId: ids[1]!, pageRows: 2 })), whole.slice(2));
      assert.deepEqual(await lines(exportHits(run, { ...all, afterId: `${ids[1]!}0` })), whole.slice(2));
      assert.deepEqual(await lines(exportHits(run, { ...all, afterId: '\u{10FFFF}' })), []);

      // Between pages of one: the first item is blocked once seen, the last before it is reached.
      let page = 0;
      const changing = async (s: EngineSearch) => {
        if (page++ === 1) {
          await store.blockItem(ids[0]!, 'seen already');
          await store.blockItem(ids.at(-1)!, 'not yet seen');
          while (!(await host.refresh('item', 1000)));
        }
        return await host.search(s, Date.now() + 60_000);
      };
      const got = await lines(exportHits(changing, { ...all, pageRows: 1 }));
      assert.deepEqual(got, whole.slice(0, -1));
    } finally {
      await dispose();
    }
  });
}

test('exportHits: an error of the search ends the export before its first line', async () => {
  const run = async () => {
    throw new SearchRequestError("Unknown facet 'town'.");
  };
  const gen = exportHits(run, { ...all, filters: { town: ['Berlin'] } });
  await assert.rejects(gen.next(), SearchRequestError);
});
