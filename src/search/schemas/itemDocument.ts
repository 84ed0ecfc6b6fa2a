/**
 * An item package as a document of `itemSchema` (./itemSchema.ts) for the search engine,
 * with the item's doc in a search result. The package is read by
 * src/formats/itemFields.ts (which the store uses for the stored fields too); this adds
 * the sort keys, folded as the engine compares them.
 *
 * Field list and semantics: docs/search-engine.md ("Item fields").
 */
import { itemFields, itemFieldsFromJson, itemFieldsFromXml, type ItemFields, type ItemResultDoc } from '../../formats/itemFields.js';
import { fold } from '../engine/fold.js';
import type { SearchDocument } from '../engine/types.js';

export interface ItemDocuments {
  search: SearchDocument;
  result: ItemResultDoc;
}

function documentsOf(fields: ItemFields): ItemDocuments {
  const { id, text, facets, numbers, result } = fields;
  const title = text['title']?.[0];
  return {
    search: { id, text, facets, numbers, sort: { title: title === undefined ? null : fold(title), begin_time: numbers.begin_time } },
    result,
  };
}

/**
 * The search document and the result doc of a package in JSON form.
 * `storedId`: the id the package is stored under, when the package itself names none.
 */
export function itemDocuments(pkg: unknown, storedId = ''): ItemDocuments {
  return documentsOf(itemFields(pkg, storedId));
}

/** The same from the stored JSON text; text that is not JSON gives an empty package's documents. */
export function itemDocumentsFromJson(json: string, storedId = ''): ItemDocuments {
  return documentsOf(itemFieldsFromJson(json, storedId));
}

/** The same from the cortex XML; XML that is not well-formed gives an empty package's documents. */
export function itemDocumentsFromXml(xml: string, storedId = ''): ItemDocuments {
  return documentsOf(itemFieldsFromXml(xml, storedId));
}
