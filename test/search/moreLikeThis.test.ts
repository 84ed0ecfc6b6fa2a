/**
 * "More like this" leaves out the words too common to compare by (src/search/moreLikeThis.ts
 * withoutCommonWords; docs/decisions.md "More like this"): over the real fixtures, with the
 * floor lowered so that a collection this small has such words, the words kept are exactly
 * those of at most the share of the items, counted here by brute force; facet values stay.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import type { QueryNode } from '../../src/query/ast.js';
import { tokens } from '../../src/search/engine/fold.js';
import { MLT_COMMON_FLOOR, withoutCommonWords } from '../../src/search/moreLikeThis.js';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { createSearchRunner } from '../../src/search/searchPool.js';
import { BACKENDS } from '../helpers/backends.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

for (const backend of BACKENDS) {
  test(`[${backend.name}] the words of more than the share of the items are left out, and only those`, async () => {
    const { store, dispose } = await backend.open();
    const runner = createSearchRunner(store, { ...loadConfig({}).search, workers: 0 });
    try {
      await ingestItems(store, [CORTEX_DIR, `${FIXTURES}items/edm/`], { batchSize: 100 });
      const all: ItemDocuments[] = [];
      let position: string | null = null;
      for (;;) {
        const batch = await store.readSearchChanges('item', position, 10_000);
        if ('rescan' in batch) throw new Error('rescan');
        for (const c of batch.changes) if (c.body !== null) all.push(itemDocumentsFromJson(c.body, c.id));
        position = batch.position;
        if (batch.done) break;
      }
      const words = all.map((d) => new Set(Object.values(d.search.text).flatMap((vs) => vs.flatMap((v) => tokens(v)))));
      const df = (w: string) => words.filter((s) => s.has(w)).length;
      // Every distinct title word of the fixtures, commonest first, and a facet value.
      const titleWords = [...new Set(all.flatMap((d) => tokens(d.result.title)))].sort((a, b) => df(b) - df(a) || (a < b ? -1 : 1));
      const clauses: QueryNode<string>[] = [
        ...titleWords.slice(0, 40).map((text) => ({ kind: 'term' as const, field: 'title', text })),
        { kind: 'term', field: 'type_fct', text: 'mediatype_002' },
      ];
      const kept = await withoutCommonWords((s) => runner.engine(s), clauses, { share: 0.05, floor: 0 });
      const want = clauses.filter((c) => c.kind === 'term' && (c.field === 'type_fct' || df(c.text) <= 0.05 * all.length));
      assert.deepEqual(kept, want);
      assert.ok(want.length < clauses.length - 1, 'some words are that common here');
      assert.ok(want.length > 1, 'and some are not');
      // With the floor as it is, a collection of this size keeps every word.
      assert.ok(all.length < MLT_COMMON_FLOOR);
      assert.deepEqual(await withoutCommonWords((s) => runner.engine(s), clauses), clauses);
    } finally {
      await runner.close();
      await dispose();
    }
  });
}
