import type { Store } from '../store/Store.js';
import type { Engine } from './engine.js';
import type { MediaSource } from './mediaView.js';
import type { Renderer } from './render.js';

/** What the pages read: the store, the search engine, the templates and the media (docs/pages.md "The code"). */
export interface PageDeps {
  store: Pick<
    Store,
    'getItemDocument' | 'getItemHead' | 'getAncestry' | 'getChildren' | 'listLoads' | 'listHarvests' | 'listNewestOaiRecords'
  >;
  engine: Engine;
  render: Renderer;
  /** Where the item's media can be shown from (./mediaView.ts). */
  media: MediaSource;
}
