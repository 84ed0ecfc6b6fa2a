/**
 * Hierarchy derived at load time, for every backend (docs/decisions.md
 * "Hierarchy").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BACKENDS, loadPackages, preparedItem } from '../helpers/backends.js';
import type { TestPackage } from '../helpers/packages.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';

for (const backend of BACKENDS) {
  test(`[${backend.name}] chain of depth 12: parents lists the item and all 11 ancestors, root last`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const chain: TestPackage[] = Array.from({ length: 12 }, (_, i) => ({
        id: `LEVEL${i}`,
        title: `Level ${i}`,
        htype: 'htype_007',
        position: String(i),
        ...(i > 0 ? { parent: `LEVEL${i - 1}` } : {}),
      }));
      // Children before parents: the order of loading must not matter.
      await loadPackages(store, [...chain].reverse());
      const a = (await store.getAncestry('LEVEL11'))!;
      assert.equal(a.cycle, false);
      assert.deepEqual(
        a.nodes.map((n) => n.id),
        Array.from({ length: 12 }, (_, i) => `LEVEL${11 - i}`),
      );
      assert.deepEqual(a.nodes[0], {
        id: 'LEVEL11',
        parent: 'LEVEL10',
        label: 'Level 11',
        type: 'htype_007',
        position: '11',
        leaf: true,
        aggregationEntity: false,
      });
      assert.deepEqual(a.nodes[11], {
        id: 'LEVEL0',
        parent: null,
        label: 'Level 0',
        type: 'htype_007',
        position: '0',
        leaf: false,
        aggregationEntity: false,
      });
      assert.ok(
        a.nodes.slice(1).every((n) => !n.leaf),
        'every ancestor has a child',
      );
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] a root item has an empty hierarchy; an unknown item has none`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await loadPackages(store, [{ id: 'ROOT', title: 'Root' }]);
      assert.deepEqual(await store.getAncestry('ROOT'), { nodes: [], cycle: false });
      assert.equal(await store.getAncestry('NOPE'), undefined);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] orphan: the parent is not in the store, the chain ends at the item`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await loadPackages(store, [{ id: 'ORPHAN', title: 'Orphan', parent: 'MISSINGPARENT', position: '3' }]);
      assert.deepEqual((await store.getAncestry('ORPHAN'))!.nodes, [
        { id: 'ORPHAN', parent: 'MISSINGPARENT', label: 'Orphan', type: '', position: '3', leaf: true, aggregationEntity: false },
      ]);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] leaf reflects the whole store: loading a child later makes its parent a non-leaf`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await loadPackages(store, [
        { id: 'P', title: 'Parent' },
        { id: 'C1', title: 'Child 1', parent: 'P' },
      ]);
      assert.equal((await store.getAncestry('C1'))!.nodes[0]!.leaf, true);
      await loadPackages(store, [{ id: 'GC', title: 'Grandchild', parent: 'C1' }]);
      const nodes = (await store.getAncestry('GC'))!.nodes;
      assert.deepEqual(
        nodes.map((n) => [n.id, n.leaf]),
        [
          ['GC', true],
          ['C1', false],
          ['P', false],
        ],
      );
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] siblings loaded in reverse order keep their own positions and the same parent`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const siblings = [5, 4, 3, 2, 1].map((n) => ({ id: `SIB${n}`, title: `Sibling ${n}`, parent: 'VOL', position: String(n) }));
      await loadPackages(store, [...siblings, { id: 'VOL', title: 'Volume', htype: 'htype_007', aggregationEntity: true }]);
      for (const n of [1, 2, 3, 4, 5]) {
        assert.deepEqual((await store.getAncestry(`SIB${n}`))!.nodes, [
          { id: `SIB${n}`, parent: 'VOL', label: `Sibling ${n}`, type: '', position: String(n), leaf: true, aggregationEntity: false },
          { id: 'VOL', parent: null, label: 'Volume', type: 'htype_007', position: '-1', leaf: false, aggregationEntity: true },
        ]);
      }
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] a cycle in the input is reported at load and the chain stops where it repeats`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await loadPackages(store, [
        { id: 'CYA', title: 'A', parent: 'CYC' },
        { id: 'CYB', title: 'B', parent: 'CYA' },
        { id: 'CYC', title: 'C', parent: 'CYB' },
        { id: 'BELOW', title: 'Below', parent: 'CYA' },
      ]);
      // What a load reports (src/ingest/ingestItems.ts asks for the cycles of the ids it loaded).
      const cycles = await store.findCycles(['CYA', 'CYB', 'CYC', 'BELOW']);
      assert.equal(cycles.length, 1);
      const loop = cycles[0]!;
      assert.equal(loop[0], loop[loop.length - 1], 'a cycle ends where it starts');
      assert.deepEqual(new Set(loop), new Set(['CYA', 'CYB', 'CYC']));
      const a = (await store.getAncestry('BELOW'))!;
      assert.equal(a.cycle, true);
      assert.deepEqual(
        a.nodes.map((n) => n.id),
        ['BELOW', 'CYA', 'CYC', 'CYB'],
      );
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] the real chapter package: hierarchy fields from its EDM`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.upsertItems([preparedItem(readFileSync(`${CORTEX_DIR}${CHAPTER_ID}.xml`, 'utf8'))]);
      assert.deepEqual((await store.getAncestry(CHAPTER_ID))!.nodes, [
        {
          id: CHAPTER_ID,
          parent: 'X25Y2NE7RRBGD2YT36TYQTUNSDGJVBFR',
          label: 'XI. * * *',
          type: 'htype_018',
          position: 'DMDLOG_0013',
          leaf: true,
          aggregationEntity: false,
        },
      ]);
      // Its parent arrives later: the chain then reaches it, and the parent is not a leaf.
      await loadPackages(store, [{ id: 'X25Y2NE7RRBGD2YT36TYQTUNSDGJVBFR', title: 'Beyträge zur Naturgeschichte; 1', htype: 'htype_007' }]);
      const nodes = (await store.getAncestry(CHAPTER_ID))!.nodes;
      assert.deepEqual(
        nodes.map((n) => [n.id, n.parent, n.leaf]),
        [
          [CHAPTER_ID, 'X25Y2NE7RRBGD2YT36TYQTUNSDGJVBFR', true],
          ['X25Y2NE7RRBGD2YT36TYQTUNSDGJVBFR', null, false],
        ],
      );
    } finally {
      await dispose();
    }
  });
}
