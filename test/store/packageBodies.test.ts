/**
 * Package bodies come back from the store byte for byte as they were loaded,
 * however the backend keeps them (compressed on disk), and
 * a brotli form a backend hands over is of exactly those bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { itemStoredFieldsJson } from '../../src/formats/itemFields.js';
import type { ItemChange, PreparedItem, Store } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { FIXTURES } from '../helpers/paths.js';

/** The store, with every package it is handed noted on the way in (the last version of each). */
function noting(store: Store, seen: Map<string, PreparedItem>): Store {
  const note = (item: PreparedItem) => seen.set(item.id, item);
  return {
    ...store,
    upsertItems: async (items) => {
      items.forEach(note);
      return await store.upsertItems(items);
    },
    applyItemChanges: async (changes: readonly ItemChange[], harvest) => {
      for (const c of changes) if (c.kind === 'upsert') note(c.item);
      return await store.applyItemChanges(changes, harvest);
    },
  };
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] every fixture package's JSON and XML come back byte for byte`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const loaded = new Map<string, PreparedItem>();
      const summary = await ingestItems(noting(store, loaded), [`${FIXTURES}items`], {
        batchSize: 200,
        edm: { ingestDate: new Date('2026-11-24T12:00:00Z'), providersFingerprint: '' },
      });
      assert.equal(summary.problems.length, 0, JSON.stringify(summary.problems.slice(0, 3)));
      assert.ok(loaded.size > 1000, `the fixtures hold over 1,000 packages, ${loaded.size} were loaded`);
      assert.equal(await store.countItems(), loaded.size);
      let brotliForms = 0;
      for (const item of loaded.values()) {
        for (const format of ['json', 'xml'] as const) {
          const doc = await store.getItemDocument(item.id, format);
          assert.ok(doc, `${item.id} ${format}`);
          const expected = Buffer.from(item[format], 'utf8');
          assert.ok(doc.body.equals(expected), `${item.id} ${format}: the body differs from what was loaded`);
          // Read twice: the second may come from a cache of decoded bodies.
          assert.ok((await store.getItemDocument(item.id, format))!.body.equals(expected), `${item.id} ${format}, read again`);
          assert.equal(doc.etag, item.etag);
          if (doc.brotli !== undefined) {
            brotliForms++;
            assert.ok(brotliDecompressSync(doc.brotli).equals(expected), `${item.id} ${format}: the brotli form is of another body`);
          }
        }
        // What a search answer shows of it: its stored fields, made from the package as loaded.
        assert.equal(
          (await store.readSearchBodies('item', [item.id]))[0],
          itemStoredFieldsJson(item.json, item.id),
          `${item.id}: the stored fields`,
        );
      }
      assert.ok(brotliForms === 0 || brotliForms === 2 * loaded.size, 'a backend hands over the brotli form of every body or of none');
    } finally {
      await dispose();
    }
  });
}
