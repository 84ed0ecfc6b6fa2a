/**
 * The hierarchy of items (spec 2.3): a node as GET /items/{id}/parents and
 * /items/{id}/children show it, a page of children, and an item's chain of ancestors.
 * How a record names its parent and its position: docs/decisions.md "Hierarchy".
 */
/** One node of GET /items/{id}/parents (spec 2.3). */
export interface HierarchyNode {
  id: string;
  parent: string | null;
  label: string;
  type: string;
  position: string;
  leaf: boolean;
  aggregationEntity: boolean;
}

/** One node of GET /items/{id}/children: a hierarchy node and how many children it has itself. */
export interface ChildNode extends HierarchyNode {
  childCount: number;
}

/** One page of an item's children (GET /items/{id}/children). */
export interface ChildPage {
  /** How many children the item has in all. */
  total: number;
  /** The children from `offset`, at most `rows` of them, in order (see ItemStore.getChildren). */
  nodes: ChildNode[];
}

export interface Ancestry {
  /** The inquired item first, then each ancestor known to the store, up to the root. */
  nodes: HierarchyNode[];
  /** True when the chain came back to an item already in it (a cycle in the data). */
  cycle: boolean;
}
