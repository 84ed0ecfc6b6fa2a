/**
 * Every hit of a search as JSON Lines (docs/export.md): the bulk export of the CLI
 * (`heritage-api export`, src/cli/commands/export.ts) and of the search routes
 * (`Accept: application/x-ndjson`), in constant memory and resumable.
 *
 * It pages through the engine with a cursor under the id order (ascending, by code point),
 * which is total and stable: while documents are added or deleted between pages, no hit is
 * exported twice and none present throughout is skipped (docs/search-engine.md "Cursors",
 * checked by test/search/itemExactness.test.ts). Each line is one hit's doc as the engine
 * shows it (items: their result doc; persons: the entity doc with its count), so the last
 * line's `id` says where an export stopped: `afterId` starts after it with a cursor made
 * of that id, as the engine makes one from a page's last hit. docs/export.md.
 *
 * Whatever runs the searches (a worker pool, or an IndexHost in-process) is passed in as
 * `run`; this file knows no store and no HTTP.
 */
import type { QueryNode } from '../query/ast.js';
import { encodeCursor } from './engine/order.js';
import { fingerprintOf } from './engine/search.js';
import type { SearchRequest } from './engine/types.js';
import type { EngineAnswer, EngineSearch } from './indexHost.js';
import type { SearchKind } from '../domain/searchFeed.js';

/** Hits per engine search: large enough to cost little per hit, small enough for a short search. */
export const EXPORT_PAGE_ROWS = 1000;

export interface ExportRequest {
  kind: SearchKind;
  query: QueryNode<string>;
  /** Facet filters: values of one facet OR-ed, facets AND-ed (as SearchRequest.filters). */
  filters?: Readonly<Record<string, readonly string[]>>;
  /** Resume: only the hits whose id comes after this one (code point order). */
  afterId?: string | undefined;
  pageRows?: number;
}

/** After each page: the search's total now (it follows the collection) and the lines given so far. */
export interface ExportProgress {
  total: number;
  exported: number;
}

/** The engine request of an export: its query and filters, by id, a cursor page at a time. */
export function exportRequest(req: ExportRequest): SearchRequest {
  return {
    query: req.query,
    ...(req.filters ? { filters: req.filters } : {}),
    sort: { kind: 'id', descending: false },
    offset: 0,
    rows: req.pageRows ?? EXPORT_PAGE_ROWS,
    cursor: '*',
  };
}

/**
 * The cursor of `request` that continues after the document `id`: what the engine answers
 * as nextCursor for a page ending with that id (search.ts: the fingerprint of the search,
 * then the last hit's sort values, here just the id). The id need not exist any more.
 */
export function cursorAfterId(request: SearchRequest, id: string): string {
  return encodeCursor(fingerprintOf(request), [id]);
}

/** One doc as one line: the engine's JSON text, re-serialised in the unlikely case it spans lines. */
function lineOf(doc: string): string {
  return `${doc.includes('\n') || doc.includes('\r') ? JSON.stringify(JSON.parse(doc)) : doc}\n`;
}

/**
 * The export's lines, each ending in "\n", in id order. `onPage` is called after every
 * engine search (for progress). Errors of `run` (a bad query: SearchRequestError) end the
 * generator before its first line.
 */
export async function* exportHits(
  run: (search: EngineSearch) => Promise<EngineAnswer>,
  req: ExportRequest,
  onPage: (progress: ExportProgress) => void = () => {},
): AsyncGenerator<string, ExportProgress> {
  const request = exportRequest(req);
  let cursor = req.afterId === undefined ? '*' : cursorAfterId(request, req.afterId);
  const progress: ExportProgress = { total: 0, exported: 0 };
  for (;;) {
    const answer = await run({ kind: req.kind, request: { ...request, cursor } });
    progress.total = answer.total;
    progress.exported += answer.docs.length;
    onPage(progress);
    for (const doc of answer.docs) yield lineOf(doc);
    // A short page is the last; a full one may be followed by more (or by an empty one).
    if (answer.ids.length < request.rows || answer.nextCursor === undefined || answer.nextCursor === cursor) return progress;
    cursor = answer.nextCursor;
  }
}
