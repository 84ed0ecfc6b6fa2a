/**
 * The search engine as the pages ask it: one search of one kind, answered with the hits'
 * result docs (src/search/indexHost.ts EngineAnswer). The server passes the search
 * runner's `engine` (src/search/searchPool.ts), as the API's search routes use it.
 */
import type { EngineAnswer, EngineSearch } from '../search/indexHost.js';

export type Engine = (search: EngineSearch) => Promise<EngineAnswer>;
