/**
 * A write of the indexes follows any change within search.indexWriteSeconds, also when no
 * further change comes (docs/search-engine.md "Persistence"): a pool's workers take changes
 * only as the pool's batches come, so the last change of a load, or the changes a start
 * catches up with, must not wait on disk for a next one; otherwise every start replays them
 * again, and the more so the longer the store sits between loads.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { manifestsIn, type IndexManifest } from '../../src/search/indexFiles.js';
import { createSearchRunner, SearchPool } from '../../src/search/searchPool.js';
import { BACKENDS } from '../helpers/backends.js';
import { CORTEX_DIR, GOETHE_ID } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

/** A write follows a change after this long; sooner only after many changes (5 % of the documents). */
const INTERVAL_MS = 2_000;

/** The newest generation on disk newer than `after`, once there is one (within 60 s). */
async function generationAfter(dir: string, after: number): Promise<IndexManifest> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const newest = (await manifestsIn(dir))[0];
    if (newest !== undefined && newest.generation > after)
      return JSON.parse(await readFile(join(dir, newest.file), 'utf8')) as IndexManifest;
    assert.ok(Date.now() < deadline, `a generation after ${after} is written within 60 s though no further change comes`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] a pool writes the indexes within indexWriteSeconds of a lone change, and of a start that caught up`, async () => {
    const { store, dispose } = await backend.open();
    const dir = tempDir('pool-write-idle');
    const config = loadConfig({ flags: { search: { workers: 2, indexPollMs: 20 } } }).search;
    const files = { dir, intervalMs: INTERVAL_MS, minGapMs: 0 };
    let pool = createSearchRunner(store, config, { indexFiles: files, log: () => {} });
    try {
      assert.ok(pool instanceof SearchPool);
      await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
      pool.start();
      // The first build is written at once.
      const first = await generationAfter(dir, 0);

      // One change, well within INTERVAL_MS of that write, and none after it.
      await store.blockItem(GOETHE_ID, 'test');
      const second = await generationAfter(dir, first.generation);
      assert.notEqual(second.kinds.item.position, first.kinds.item.position, 'the second generation holds the change');
      assert.equal(second.kinds.item.documents, first.kinds.item.documents - 1);

      // A change while no pool runs; a new pool starts from the second generation, catches up,
      // and writes what it caught up with though nothing changes after.
      await pool.close();
      await store.unblockItem(GOETHE_ID);
      pool = createSearchRunner(store, config, { indexFiles: files, log: () => {} });
      pool.start();
      const third = await generationAfter(dir, second.generation);
      assert.notEqual(third.kinds.item.position, second.kinds.item.position, 'the third generation holds the change');
      assert.equal(third.kinds.item.documents, first.kinds.item.documents);
    } finally {
      await pool.close();
      await dispose();
    }
  });
}
