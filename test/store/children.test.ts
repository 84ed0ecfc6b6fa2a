/**
 * Children of an item, for every backend (docs/decisions.md "Children"): order by
 * position, then label, then id; paging; child counts; positions from
 * edm:isNextInSequence agree with those `parents` shows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, loadPackages } from '../helpers/backends.js';
import type { TestPackage } from '../helpers/packages.js';

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} children: numeric positions by value, then other positions, then none; ties by label, then id`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await loadPackages(store, [
        { id: 'ROOT', title: 'Root', htype: 'htype_020' },
        { id: 'C10', title: 'Ten', position: '10', parent: 'ROOT' },
        { id: 'C2', title: 'Two', position: '2', parent: 'ROOT', htype: 'htype_007', aggregationEntity: true },
        { id: 'C2B', title: 'Also two', position: '2', parent: 'ROOT' },
        { id: 'CX', title: 'Appendix', position: 'A', parent: 'ROOT' },
        { id: 'CN2', title: 'Same', parent: 'ROOT' },
        { id: 'CN1', title: 'Same', parent: 'ROOT' },
        { id: 'CN0', title: 'Earlier label', parent: 'ROOT' },
        { id: 'G1', title: 'Grandchild 1', position: '1', parent: 'C2' },
        { id: 'G2', title: 'Grandchild 2', position: '2', parent: 'C2' },
      ]);
      const page = (await store.getChildren('ROOT', 0, 100))!;
      assert.equal(page.total, 7);
      assert.deepEqual(
        page.nodes.map((n) => n.id),
        ['C2B', 'C2', 'C10', 'CX', 'CN0', 'CN1', 'CN2'],
      );
      assert.deepEqual(page.nodes[1], {
        id: 'C2',
        parent: 'ROOT',
        label: 'Two',
        type: 'htype_007',
        position: '2',
        leaf: false,
        aggregationEntity: true,
        childCount: 2,
      });
      assert.deepEqual(page.nodes[6], {
        id: 'CN2',
        parent: 'ROOT',
        label: 'Same',
        type: '',
        position: '-1',
        leaf: true,
        aggregationEntity: false,
        childCount: 0,
      });
      // Pages cut the same order and never overlap.
      const pages = await Promise.all([0, 3, 6].map(async (offset) => (await store.getChildren('ROOT', offset, 3))!));
      assert.deepEqual(
        pages.flatMap((p) => p.nodes.map((n) => n.id)),
        page.nodes.map((n) => n.id),
      );
      assert.ok(pages.every((p) => p.total === 7));
      assert.deepEqual(await store.getChildren('ROOT', 7, 3), { total: 7, nodes: [] });
      assert.deepEqual(await store.getChildren('ROOT', 2, 0), { total: 7, nodes: [] });
    } finally {
      await dispose();
    }
  });

  test(`${b} children: an item without children has none; an unknown item is undefined`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await loadPackages(store, [{ id: 'LONE', title: 'Alone' }]);
      assert.deepEqual(await store.getChildren('LONE', 0, 20), { total: 0, nodes: [] });
      assert.equal(await store.getChildren('NOPE', 0, 20), undefined);
    } finally {
      await dispose();
    }
  });

  test(`${b} children: positions from edm:isNextInSequence, in order, as parents shows them`, async () => {
    const { store, dispose } = await backend.open();
    try {
      // A sequence of 40 pages without ddb:hierarchyPosition, loaded in reverse, labels against the order.
      const pages: TestPackage[] = Array.from({ length: 40 }, (_, i) => ({
        id: `PAGE${String(i).padStart(2, '0')}`,
        title: `Page ${40 - i}`,
        parent: 'BOOK',
        ...(i > 0 ? { previous: `PAGE${String(i - 1).padStart(2, '0')}` } : {}),
      }));
      await loadPackages(store, [{ id: 'BOOK', title: 'Book' }, ...pages.reverse()]);
      const page = (await store.getChildren('BOOK', 0, 1000))!;
      assert.equal(page.total, 40);
      assert.deepEqual(
        page.nodes.map((n) => n.id),
        Array.from({ length: 40 }, (_, i) => `PAGE${String(i).padStart(2, '0')}`),
      );
      for (const node of page.nodes) {
        assert.equal(node.position, (await store.getAncestry(node.id))!.nodes[0]!.position, node.id);
      }
      assert.equal(page.nodes[0]!.position, '1');
      assert.equal(page.nodes[39]!.position, '40');
    } finally {
      await dispose();
    }
  });

  test(`${b} children: a sequence that loops gives the positions parents gives, and ends`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await loadPackages(store, [
        { id: 'BOX', title: 'Box' },
        { id: 'LA', title: 'A', parent: 'BOX', previous: 'LC' },
        { id: 'LB', title: 'B', parent: 'BOX', previous: 'LA' },
        { id: 'LC', title: 'C', parent: 'BOX', previous: 'LB' },
        { id: 'OUT', title: 'After a missing page', parent: 'BOX', previous: 'MISSING' },
      ]);
      const page = (await store.getChildren('BOX', 0, 10))!;
      assert.equal(page.total, 4);
      for (const node of page.nodes) assert.equal(node.position, (await store.getAncestry(node.id))!.nodes[0]!.position, node.id);
      assert.equal(page.nodes.find((n) => n.id === 'OUT')!.position, '2');
    } finally {
      await dispose();
    }
  });
}
