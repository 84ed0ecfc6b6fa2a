/**
 * What the search routes need of the search service: the engine's search and
 * suggestions, as the search runner gives them (src/search/searchPool.ts runs the engine
 * in its workers). The routes read their parameters with ../searchRequest/. Errors: the
 * service throws the search's coded errors (src/errorCodes.ts), answered by
 * ../errorMapping.ts (a 400 for a request the engine cannot answer, a 503 past the time
 * budget).
 */
import type { EngineAnswer, EngineSearch } from '../../search/indexHost.js';
import type { SearchKind } from '../../domain/searchFeed.js';

export interface SearchService {
  engine(search: EngineSearch): Promise<EngineAnswer>;
  suggest(kind: SearchKind, prefix: string, limit: number): Promise<string[]>;
}
