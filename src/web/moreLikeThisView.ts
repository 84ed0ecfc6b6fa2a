/**
 * "Similar items" on the item page (docs/pages.md "Similar items"): the first items of the
 * engine's "more like this" for the item (src/search/moreLikeThis.ts, the comparison of
 * GET /search/mlt with its default fields), shown as the results show hits. Rendered by its
 * own partial (`@similar`, ./exploreTemplates.ts).
 */
import { MLT_DEFAULT_FIELDS, moreLikeThis } from '../search/moreLikeThis.js';
import type { Frame } from './frame.js';
import { hitsOf, parseDocs, type ResultDoc } from './hits.js';
import type { PageDeps } from './pageDeps.js';

export const SIMILAR_ROWS = 6;

/** The similar items; none when the index does not hold the item yet or cannot answer now (the page needs only the store). */
export async function similarItems(deps: Pick<PageDeps, 'engine' | 'media'>, f: Frame, id: string) {
  // the page shows no count of them: the engine need not make every hit (SearchRequest.count)
  const like = await moreLikeThis(deps.engine, { id, fields: MLT_DEFAULT_FIELDS, offset: 0, rows: SIMILAR_ROWS, count: false }).catch(
    () => undefined,
  );
  return like === undefined ? [] : hitsOf(deps.media, f, parseDocs<ResultDoc>(like));
}
