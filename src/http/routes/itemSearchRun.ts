/**
 * An item search of GET /search and /search/facets/{facetName} as the search service
 * runs it: the persons the query names first, then the items, the items linked to those
 * persons included (docs/search.md "Names across languages and scripts").
 */
import type { QueryNode } from '../../query/ast.js';
import type { SearchRequest } from '../../search/engine/types.js';
import type { EngineAnswer } from '../../search/indexHost.js';
import { LINK_FACET, linkValues } from '../../search/schemas/linkedPersons.js';
import type { ItemSearch } from '../searchRequest/itemSearch.js';
import type { SearchService } from './searchEngine.js';

export interface ItemSearchRun {
  /** The item request as run: the persons' links added. */
  request: SearchRequest;
  items: EngineAnswer;
  persons: EngineAnswer | undefined;
  /** The items' matched terms but the links added for the persons (no words of the query). */
  highlightedTerms: string[];
}

/** The persons' search, then the item request with their links; `adjust` changes that request. */
export async function linkedItemRequest(
  search: Pick<SearchService, 'engine'>,
  s: ItemSearch,
  adjust: (request: SearchRequest) => SearchRequest = (r) => r,
): Promise<{ request: SearchRequest; persons: EngineAnswer | undefined }> {
  const persons = s.persons ? await search.engine({ kind: 'person', request: s.persons }) : undefined;
  return { request: adjust(s.linkedTo(persons?.ids ?? [])), persons };
}

/** Runs the persons' search, then the items' with their links. */
export async function runItemSearch(
  search: Pick<SearchService, 'engine'>,
  s: ItemSearch,
  adjust?: (request: SearchRequest) => SearchRequest,
): Promise<ItemSearchRun> {
  const { request, persons } = await linkedItemRequest(search, s, adjust);
  const items = await search.engine({ kind: 'item', request });
  const own = new Set(linkTerms(s.request.query));
  const added = new Set((persons?.ids ?? []).flatMap(linkValues));
  const highlightedTerms = items.matchedTerms.filter((t) => own.has(t) || !added.has(t));
  return { request, items, persons, highlightedTerms };
}

/** The texts of the query's own terms on LINK_FACET (a reader may ask for a link): they stay highlighted. */
function linkTerms(node: QueryNode<string>): string[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(linkTerms);
    case 'not':
      return linkTerms(node.child);
    case 'term':
    case 'phrase':
      return node.field === LINK_FACET ? [node.text] : [];
    default:
      return [];
  }
}
