/**
 * Closing a search host while it writes its indexes to disk (src/search/hostedIndexes.ts
 * close, searchPool.ts closeWorker): close resolves once the write under way has ended, so a
 * process that ends after it leaves a whole generation and no file half written; and nothing
 * is written after it.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { HostedIndexes } from '../../src/search/hostedIndexes.js';
import { manifestsIn, readIndexes } from '../../src/search/indexFiles.js';
import { createSearchRunner } from '../../src/search/searchPool.js';
import { BACKENDS } from '../helpers/backends.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';
import { cortexPackages } from './itemFixtures.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;
const LIMITS = { maxClauses: 1024, maxExpansionsPerTerm: 1000, maxExpansionsPerQuery: 10_000 };

for (const backend of BACKENDS) {
  test(`[${backend.name}] a host closed while it writes its indexes resolves once the generation is whole, and writes no more`, async () => {
    const { store, dispose } = await backend.open();
    const dir = tempDir('hosted-close');
    try {
      await store.upsertItems(cortexPackages().map((p) => p.item));
      await ingestEntities(store, [EF], { batchSize: 500 });
      let built: () => void = () => {};
      const done = new Promise<void>((resolve) => (built = resolve));
      const hosted = new HostedIndexes(
        store,
        { limits: LIMITS, indexSliceMs: 50, indexPollMs: 20, indexFiles: { dir, write: true, intervalMs: 0, minGapMs: 0 } },
        () => built(),
        () => {},
      );
      // Keeps the process alive while the passes (on unref'd timers) build.
      const alive = setTimeout(() => {}, 120_000);
      hosted.start();
      // The pass that finishes the build starts the first write right after it says so.
      await done;
      clearTimeout(alive);
      await hosted.close();
      const read = await readIndexes(dir, await store.searchIdentity());
      assert.deepEqual(read.problems, []);
      assert.equal(read.manifest.generation, 1);
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        [],
        'no file is left half written',
      );
      // Changes after close are not written.
      await store.blockItem(cortexPackages()[0]!.item.id, 'test');
      await hosted.close();
      assert.deepEqual(
        (await manifestsIn(dir)).map((m) => m.generation),
        [1],
      );
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] a pool closed while its writer writes leaves no file half written`, async () => {
    const { store, dispose } = await backend.open();
    const dir = tempDir('pool-close');
    try {
      await store.upsertItems(cortexPackages().map((p) => p.item));
      await ingestEntities(store, [EF], { batchSize: 500 });
      const config = loadConfig({ flags: { search: { workers: 2, indexPollMs: 20 } } }).search;
      const pool = createSearchRunner(store, config, { indexFiles: { dir, intervalMs: 0, minGapMs: 0 }, log: () => {} });
      pool.start();
      // A first generation, then changes that keep the writer writing generation after generation.
      const deadline = Date.now() + 120_000;
      while ((await manifestsIn(dir)).length === 0) {
        assert.ok(Date.now() < deadline, 'a generation is written');
        await new Promise((r) => setTimeout(r, 20));
      }
      const ids = cortexPackages().map((p) => p.item.id);
      for (const id of ids) await store.blockItem(id, 'test');
      // Closed as soon as a later generation is being written (a file of it on its way) or has been.
      const first = (await manifestsIn(dir))[0]!.generation;
      while (!readdirSync(dir).some((f) => f.endsWith('.tmp')) && (await manifestsIn(dir))[0]!.generation === first) {
        assert.ok(Date.now() < deadline, 'the changes are written');
        await new Promise((r) => setImmediate(r));
      }
      await pool.close();
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        [],
        'no file is left half written',
      );
      const read = await readIndexes(dir, await store.searchIdentity());
      assert.deepEqual(read.problems, []);
    } finally {
      await dispose();
    }
  });
}
