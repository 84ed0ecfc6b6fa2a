/**
 * Writing the search indexes is crash-safe (docs/search-engine.md "Persistence"): a process
 * that writes generation after generation is killed (SIGKILL) at random moments, 24 times;
 * after each kill the directory holds the last complete generation (or a newer one whose
 * manifest got through), whose files all verify, and an index read from it answers as one
 * built from the store. The next process starts from what the last one left.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parseQuery } from '../../src/query/parse.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { readIndexes } from '../../src/search/indexFiles.js';
import { IndexHost, SCHEMAS, type EngineSearch } from '../../src/search/indexHost.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { SearchKind } from '../../src/domain/searchFeed.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const LOOP = fileURLToPath(new URL('./indexWriteLoop.ts', import.meta.url));
const KILLS = 24;

const searches: EngineSearch[] = (['item', 'person'] as const).flatMap((kind: SearchKind) =>
  ['*:*', 'goethe', 'berlin OR wien', 'schr*'].map((text) => ({
    kind,
    request: {
      query: parseQuery(text, { fields: queryFields(SCHEMAS[kind]) }),
      sort: { kind: 'relevance' as const },
      offset: 0,
      rows: 20,
      facets: SCHEMAS[kind].facets.slice(0, 3).map((field) => ({ field, limit: 5, mincount: 1, sort: 'count' as const })),
    },
  })),
);

async function answers(host: IndexHost): Promise<unknown[]> {
  for (const kind of ['person', 'item'] as const) while (!(await host.refresh(kind, 1000))) continue;
  const out: unknown[] = [];
  for (const s of searches) out.push(await host.search(s, Date.now() + 60_000));
  return out;
}

test(
  `a process writing the indexes, killed at ${KILLS} random moments, leaves a complete generation each time`,
  { timeout: 900_000 },
  async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'heritage-api-index-crash-'));
    const db = join(tmp, 'h.db');
    const dir = join(tmp, 'index');
    const store = openSqliteStore({ path: db });
    try {
      await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
      await ingestEntities(store, [`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`], { batchSize: 500 });
      const expected = await answers(new IndexHost(store));
      const identity = await store.searchIdentity();
      let last = 0;
      for (let kill = 0; kill < KILLS; kill++) {
        const child = spawn(process.execPath, ['--import', 'tsx', LOOP, db, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
        // The first generation of this process written, then a random moment within its next few writes.
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (d: Buffer) => {
            for (const m of d.toString().matchAll(/written (\d+)/g)) last = Math.max(last, Number(m[1]));
            if (last > 0) resolve();
          });
          child.on('exit', (code) => reject(new Error(`the writer exited with ${code}: ${stderr}`)));
        });
        await new Promise((r) => setTimeout(r, Math.random() * 400));
        child.kill('SIGKILL');
        await exited;
        assert.equal(stderr, '', 'the writer read what the one before left without a word');

        const read = await readIndexes(dir, identity);
        assert.deepEqual(read.problems, []);
        assert.ok(read.manifest.generation >= last, `generation ${read.manifest.generation} read, ${last} was complete`);
        last = read.manifest.generation;
        assert.ok(readdirSync(dir).filter((f) => f.startsWith('manifest-') && f.endsWith('.json')).length <= 3);
        const lines: string[] = [];
        const reader = new IndexHost(
          store,
          {},
          { dir, write: false, minGapMs: 0, intervalMs: 0, changes: () => 1, log: (line) => lines.push(line) },
        );
        await reader.open();
        assert.deepEqual(lines, []);
        assert.deepEqual(await answers(reader), expected);
      }
    } finally {
      await store.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
