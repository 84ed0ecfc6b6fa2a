/**
 * One copy per process (docs/search-engine.md "One copy per process"): index hosts of one
 * store that start from a generation read once into shared memory answer as a host built from
 * the store; after the writer writes a newer generation, a host goes over to it
 * (IndexHost.rebase), catches up and still answers as a fresh build; and no host ever writes
 * the shared bytes, whatever changes it applies.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { parseQuery } from '../../src/query/parse.js';
import { queryFields, type Schema } from '../../src/search/engine/schema.js';
import { readSharedIndexes, type SharedIndexes } from '../../src/search/indexFiles.js';
import { IndexHost, type EngineSearch } from '../../src/search/indexHost.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';
import { BACKENDS } from '../helpers/backends.js';
import { CORTEX_DIR, FIXTURES, GOETHE_ID } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const FAR = () => Date.now() + 60_000;

function searches(): EngineSearch[] {
  const q = (schema: Schema, text: string) => parseQuery(text, { fields: queryFields(schema) });
  const out: EngineSearch[] = [];
  for (const text of ['*:*', 'goethe', 'brief OR instrument', 'title:b*', 'NOT goethe'])
    for (const sort of [{ kind: 'relevance' as const }, { kind: 'id' as const, descending: true }])
      out.push({
        kind: 'item',
        request: {
          query: q(itemSchema, text),
          sort,
          offset: 0,
          rows: 50,
          facets: ['type_fct', 'place_fct'].map((field) => ({ field, limit: 10, mincount: 1, sort: 'count' as const })),
        },
      });
  for (const text of ['*:*', 'friedell', 'e*'])
    out.push({ kind: 'person', request: { query: q(personSchema, text), sort: { kind: 'relevance' }, offset: 0, rows: 50 } });
  return out;
}

async function caughtUp(host: IndexHost): Promise<void> {
  for (const kind of ['person', 'item'] as const) while (!(await host.refresh(kind, 1000))) continue;
}

async function answers(host: IndexHost): Promise<unknown[]> {
  await caughtUp(host);
  const out: unknown[] = [];
  for (const s of searches()) out.push(await host.search(s, FAR()));
  return out;
}

function unchanged(image: SharedIndexes): void {
  for (const kind of ['item', 'person'] as const) {
    const bytes = new Uint8Array(image.buffers[kind]);
    for (const s of image.manifest.kinds[kind].sections)
      assert.equal(crc32(bytes.subarray(s.offset, s.offset + s.bytes)), s.crc32, `${kind} section ${s.name} as written`);
  }
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] hosts over one shared generation answer as a build from the store, go over to a newer one, and never write it`, async () => {
    const { store, dispose } = await backend.open();
    const dir = tempDir('shared-host');
    try {
      await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
      await ingestEntities(store, [`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`], { batchSize: 500 });
      const log: string[] = [];
      const persistence = { dir, minGapMs: 0, intervalMs: 0, changes: () => 1, log: (line: string) => log.push(line) };
      // The writer builds from the store and writes generation 1.
      const writer = new IndexHost(store, {}, { ...persistence, write: true, read: false });
      await caughtUp(writer);
      assert.equal(await writer.write(), true);
      const first = await readSharedIndexes(dir, await store.searchIdentity());
      const image1: SharedIndexes = { manifest: first.manifest, buffers: first.buffers };
      const reader = new IndexHost(store, {}, { ...persistence, write: false, shared: async () => image1 });
      assert.deepEqual(await answers(reader), await answers(new IndexHost(store)));

      // Changes: items loaded, one blocked; the reader applies them over the shared image.
      await ingestItems(store, [`${FIXTURES}items/edm/`], { batchSize: 100 });
      await store.blockItem(GOETHE_ID, 'test');
      const fresh = await answers(new IndexHost(store));
      assert.deepEqual(await answers(reader), fresh);
      unchanged(image1);

      // The writer writes generation 2; the reader goes over to it and catches up.
      await caughtUp(writer);
      assert.equal(await writer.write(), true);
      assert.equal(writer.generation, 2);
      const second = await readSharedIndexes(dir, await store.searchIdentity());
      const image2: SharedIndexes = { manifest: second.manifest, buffers: second.buffers };
      const before = reader.index('item');
      await store.unblockItem(GOETHE_ID);
      reader.rebase(image2);
      const after = await answers(reader);
      assert.notEqual(reader.index('item'), before, 'the reader holds the index restored over generation 2');
      assert.deepEqual(after, await answers(new IndexHost(store)));
      assert.deepEqual(log, []);
      unchanged(image1);
      unchanged(image2);
    } finally {
      await dispose();
    }
  });
}
