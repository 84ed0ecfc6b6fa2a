import { frame, itemPath, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { itemView } from './itemView.js';
import { format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { treeOf } from './treeView.js';

const TREE_ROWS = 50;
const TREE_LEVELS = 20;

/** The hierarchy tree of an item (docs/pages.md): its ancestors open down to it. */
export async function treePage(deps: PageDeps, id: string, req: PageRequest): Promise<PageAnswer> {
  const { store, render } = deps;
  const f = frame(`${itemPath(id)}/tree`, req, (t) => t.tree);
  const ancestry = await store.getAncestry(id);
  if (ancestry === undefined) return problemPage(render, f, 404, f.t.notFound, format(f.t.itemNotFound, { id }));
  // Root first; the chain is cut at TREE_LEVELS (a deeper one still opens from its items' own trees).
  // A root's ancestry is empty (it has no parents): the tree starts at the item itself.
  const path: Array<{ id: string; label: string }> =
    ancestry.nodes.length > 0 ? [...ancestry.nodes].reverse().slice(-TREE_LEVELS) : [{ id, label: await titleOf(store, id) }];
  const root = await treeOf(store, path, TREE_ROWS);
  const itemLabel = path[path.length - 1]!.label || id;
  return {
    status: 200,
    html: render('tree', {
      ...f,
      root,
      itemPath,
      itemHref: f.link(itemPath(id)),
      itemLabel,
      description: format(f.t.treeDescription, { title: itemLabel }),
    }),
  };
}

async function titleOf(store: PageDeps['store'], id: string): Promise<string> {
  const doc = await store.getItemDocument(id, 'json');
  return doc === undefined || doc.blockedReason !== null ? id : itemView(id, JSON.parse(doc.body.toString('utf8'))).title;
}
