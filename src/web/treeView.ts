/**
 * The hierarchy browser's tree (docs/pages.md "Paths"): an item's collection from its root,
 * each level on the way to the item opened (its first `rows` children), every other node
 * closed, with a link that opens it as a tree of its own. Works without JavaScript: a
 * level opens by following a link.
 */
import type { Store } from '../store/Store.js';
import type { HierarchyNode } from '../domain/hierarchy.js';

export interface TreeNode {
  id: string;
  label: string;
  childCount: number;
  /** The item the tree was asked for. */
  current: boolean;
  /** Its children are listed (a node on the way to the item). */
  open: boolean;
  children: TreeNode[];
  /** Children beyond those listed. */
  more: number;
}

/**
 * `path`: the root first, down to the item (the reversed ancestry; a root alone when the item
 * has no parents). Costs one page of children per level of the path.
 */
export async function treeOf(
  store: Pick<Store, 'getChildren'>,
  path: ReadonlyArray<Pick<HierarchyNode, 'id' | 'label'>>,
  rows: number,
): Promise<TreeNode> {
  const itemId = path[path.length - 1]!.id;
  const build = async (level: number): Promise<TreeNode> => {
    const n = path[level]!;
    const next = path[level + 1];
    const page = (await store.getChildren(n.id, 0, rows)) ?? { total: 0, nodes: [] };
    const node: TreeNode = {
      id: n.id,
      label: n.label || n.id,
      childCount: page.total,
      current: n.id === itemId,
      open: true,
      children: [],
      more: Math.max(0, page.total - page.nodes.length),
    };
    for (const c of page.nodes) {
      if (next !== undefined && c.id === next.id) node.children.push(await build(level + 1));
      else
        node.children.push({
          id: c.id,
          label: c.label || c.id,
          childCount: c.childCount,
          current: false,
          open: false,
          children: [],
          more: 0,
        });
    }
    // The next level down the path lies beyond the first page of children: shown after them.
    if (next !== undefined && !page.nodes.some((c) => c.id === next.id)) node.children.push(await build(level + 1));
    return node;
  };
  return build(0);
}
