/**
 * One search over every worker of the pool (docs/search-engine.md "Shards", "One copy per
 * node"): the pool reads the change feed once and hands every worker the same batches, so a
 * search scattered in shards over them answers as the main thread does over the same store,
 * byte for byte (facets, sorts, pages, cursor walks), also after changes and after the
 * workers went over to a newer generation on disk.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { parseQuery } from '../../src/query/parse.js';
import { queryFields, type Schema } from '../../src/search/engine/schema.js';
import type { SearchSort } from '../../src/search/engine/types.js';
import type { EngineSearch } from '../../src/search/indexHost.js';
import { manifestsIn } from '../../src/search/indexFiles.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';
import { createSearchRunner, SearchPool, type SearchRunner } from '../../src/search/searchPool.js';
import { BACKENDS } from '../helpers/backends.js';
import { CORTEX_DIR, FIXTURES, GOETHE_ID, HOPE_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const q = (schema: Schema, text: string) => parseQuery(text, { fields: queryFields(schema) });

const SORTS: SearchSort[] = [
  { kind: 'relevance' },
  { kind: 'id', descending: true },
  { kind: 'key', key: 'title', descending: false },
  { kind: 'random', seed: '7' },
];

function searches(): EngineSearch[] {
  const out: EngineSearch[] = [];
  for (const text of ['*:*', 'goethe', 'brief OR instrument', 'title:b*', 'NOT goethe', 'flöte', 'instrumnet'])
    for (const sort of SORTS)
      out.push({
        kind: 'item',
        request: {
          query: q(itemSchema, text),
          sort,
          offset: 3,
          rows: 20,
          facets: [
            { field: 'type_fct', limit: 10, mincount: 1, sort: 'count' },
            { field: 'place_fct', limit: -1, mincount: 0, sort: 'index' },
          ],
          spellcheck: { minHits: 5, text },
        },
        fields: sort.kind === 'id',
      });
  out.push({
    kind: 'item',
    request: { query: q(itemSchema, '*:*'), sort: { kind: 'relevance' }, offset: 0, rows: 5, filters: { type_fct: ['mediatype_002'] } },
  });
  for (const text of ['*:*', 'friedell', 'e*'])
    out.push({ kind: 'person', request: { query: q(personSchema, text), sort: { kind: 'relevance' }, offset: 0, rows: 50 } });
  return out;
}

/** Every page of `search` by cursor, `rows` at a time. */
async function walk(runner: SearchRunner, search: EngineSearch, rows: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor = '*';
  for (;;) {
    const answer = await runner.engine({ ...search, request: { ...search.request, rows, offset: 0, cursor } });
    pages.push(answer.ids);
    if (answer.nextCursor === cursor) return pages;
    cursor = answer.nextCursor!;
  }
}

/** The pool answers every search as the main thread does, each one scattered over the workers. */
async function sameAnswers(pool: SearchPool, main: SearchRunner, what: string): Promise<void> {
  for (const s of searches()) {
    // A search runs on one worker while another is busy (a write, a new stream starting: seconds
    // on a busy machine): asked again until one of its answers was scattered, every answer compared.
    const before = pool.scattered;
    const deadline = Date.now() + 120_000;
    while (pool.scattered === before) {
      assert.ok(Date.now() < deadline, `${what}: scattered over the workers`);
      assert.deepEqual(await pool.engine(s), await main.engine(s), `${what}: ${JSON.stringify(s.request.query)}`);
      if (pool.scattered === before) await new Promise((r) => setTimeout(r, 20));
    }
  }
  for (const sort of SORTS) {
    const s: EngineSearch = { kind: 'item', request: { query: q(itemSchema, 'instrument OR goethe'), sort, offset: 0, rows: 50 } };
    const pages = await walk(pool, s, 50);
    assert.deepEqual(pages, await walk(main, s, 50), `${what}: cursor walk by ${sort.kind}`);
    assert.ok(pages.length > 3, `${what}: several pages`);
  }
}

/**
 * Both have caught up with a load (a search's own refresh is one slice; the rest comes in the
 * background): the same total of `*:*` on both, three times in a row.
 */
async function caughtUp(pool: SearchRunner, main: SearchRunner): Promise<void> {
  const all: EngineSearch = {
    kind: 'item',
    request: { query: q(itemSchema, '*:*'), sort: { kind: 'id', descending: false }, offset: 0, rows: 0 },
  };
  const deadline = Date.now() + 120_000;
  for (let same = 0; same < 3;) {
    assert.ok(Date.now() < deadline, 'both caught up with the changes');
    same = (await pool.engine(all)).total === (await main.engine(all)).total ? same + 1 : 0;
    await new Promise((r) => setTimeout(r, 200));
  }
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] a search scattered over the workers answers as one thread, after changes and after a new generation too`, async () => {
    const { store, dispose } = await backend.open();
    const dir = tempDir('pool-scatter');
    // scatterMinMs 0: every search is scattered, however small (else a search asked again runs on one worker).
    const config = loadConfig({ flags: { search: { workers: 3, shards: 3, indexPollMs: 20, scatterMinMs: 0 } } }).search;
    // Written after any change, so that the workers go over to new generations during the test.
    const pool = createSearchRunner(store, config, { indexFiles: { dir, intervalMs: 0, minGapMs: 0 }, log: () => {} });
    const main = createSearchRunner(store, { ...config, workers: 0 });
    try {
      assert.ok(pool instanceof SearchPool);
      await ingestItems(store, [CORTEX_DIR, `${FIXTURES}items/edm/mimo/`], { batchSize: 100 });
      await ingestEntities(store, [`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`], { batchSize: 500 });
      pool.start();
      // Every worker built: a search is scattered.
      const deadline = Date.now() + 120_000;
      while (pool.scattered === 0) {
        assert.ok(Date.now() < deadline, 'every worker builds its index');
        await pool.engine(searches()[0]!);
      }
      await sameAnswers(pool, main, 'built from the store');

      await ingestItems(store, [HOPE_DIR], { batchSize: 100 });
      await store.blockItem(GOETHE_ID, 'test');
      await caughtUp(pool, main);
      await sameAnswers(pool, main, 'after changes');

      // A generation written since the changes (search.indexWriteSeconds 0): the workers went over to it.
      while ((await manifestsIn(dir)).length === 0) {
        assert.ok(Date.now() < deadline, 'a generation is written');
        await new Promise((r) => setTimeout(r, 50));
      }
      await store.unblockItem(GOETHE_ID);
      await caughtUp(pool, main);
      await sameAnswers(pool, main, 'after a new generation');
    } finally {
      await pool.close();
      await main.close();
      await dispose();
    }
  });
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] the writer's refresh of the ranks is taken by the other workers, and every order answers as one thread`, async () => {
    const { store, dispose } = await backend.open();
    const dir = tempDir('pool-ranks');
    const config = loadConfig({ flags: { search: { workers: 2, shards: 2, indexPollMs: 20, scatterMinMs: 0 } } }).search;
    const pool = createSearchRunner(store, config, { indexFiles: { dir, intervalMs: 600_000, minGapMs: 600_000 }, log: () => {} });
    const main = createSearchRunner(store, { ...config, workers: 0 });
    try {
      assert.ok(pool instanceof SearchPool);
      await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
      pool.start();
      const deadline = Date.now() + 120_000;
      while (pool.scattered === 0) {
        assert.ok(Date.now() < deadline, 'every worker builds its index');
        await pool.engine(searches()[0]!);
      }
      // 1,222 new persons: a catch-up past the 1,024 new ranks it refreshes
      await ingestEntities(store, [`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`], { batchSize: 500 });
      const all: EngineSearch = {
        kind: 'person',
        request: { query: q(personSchema, '*:*'), sort: { kind: 'relevance' }, offset: 0, rows: 0 },
      };
      while (pool.ranksShared === 0 || (await pool.engine(all)).total !== 1222) {
        assert.ok(Date.now() < deadline, "the writer's refresh is shared");
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const text of ['*:*', 'e*', 'friedell OR maria'])
        for (const sort of [
          { kind: 'id', descending: false },
          { kind: 'id', descending: true },
          { kind: 'key', key: 'preferredName', descending: false },
          { kind: 'key', key: 'preferredName', descending: true },
          { kind: 'relevance' },
        ] as SearchSort[]) {
          const s: EngineSearch = { kind: 'person', request: { query: q(personSchema, text), sort, offset: 0, rows: 100 } };
          const before: number = pool.scattered;
          assert.deepEqual(await pool.engine(s), await main.engine(s), `${text} by ${JSON.stringify(sort)}`);
          assert.equal(pool.scattered, before + 1, 'scattered over both workers');
          assert.deepEqual(await walk(pool, s, 100), await walk(main, s, 100), `${text} by ${JSON.stringify(sort)}, every page`);
        }
    } finally {
      await pool.close();
      await main.close();
      await dispose();
    }
  });
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] a search too small to scatter runs on one worker once it was scattered, with the same answer`, async () => {
    const { store, dispose } = await backend.open();
    // Every search is small below a minute of its workers' time.
    const config = loadConfig({ flags: { search: { workers: 2, shards: 2, indexPollMs: 20, scatterMinMs: 60_000 } } }).search;
    const pool = createSearchRunner(store, config, { log: () => {} });
    const main = createSearchRunner(store, { ...config, workers: 0 });
    try {
      assert.ok(pool instanceof SearchPool);
      await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
      pool.start();
      const [first, second] = searches();
      // Once both workers are built, the first search is scattered ...
      const deadline = Date.now() + 120_000;
      while (pool.scattered === 0) {
        assert.ok(Date.now() < deadline, 'every worker builds its index');
        assert.deepEqual(await pool.engine(first!), await main.engine(first!));
      }
      // ... and then runs on one worker, answering the same.
      for (let i = 0; i < 3; i++) assert.deepEqual(await pool.engine(first!), await main.engine(first!), 'on one worker');
      assert.equal(pool.scattered, 1, 'asked again, a small search is not scattered');
      // Another search is scattered the first time it is asked.
      assert.deepEqual(await pool.engine(second!), await main.engine(second!));
      assert.equal(pool.scattered, 2, 'a search not asked before is scattered');
    } finally {
      await pool.close();
      await main.close();
      await dispose();
    }
  });
}
