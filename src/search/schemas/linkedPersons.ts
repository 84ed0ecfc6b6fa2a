/**
 * Names across languages and scripts (docs/search.md "Names across languages and scripts"):
 * the item query widened to the items linked to the persons the query names. The persons
 * are those of the person index whose preferred or variant name holds the query's words
 * (`Гёте`, `Gete, Jōhan Wolfgang fon` find Goethe: the GND's variant names are indexed
 * folded, so Cyrillic and Greek letters lose their diacritics as Latin ones do); an item
 * is linked to a person when its `affiliate_fct_normdata` names the person's GND URI. A
 * facet clause scores nothing (docs/search-engine.md "Semantics"), so an item found only
 * through the link ranks below every item whose text matches.
 */
import { and, or, type QueryNode } from '../../query/ast.js';
import { canonicalGndUri } from '../../domain/person.js';

/** How many of the persons a query names (by relevance) link their items: those GET /search shows. */
export const LINKED_PERSONS = 10;

/** The item facet that links an item to a person (the GND URIs of its persons). */
export const LINK_FACET = 'affiliate_fct_normdata';

/**
 * The values of LINK_FACET that name a person: a GND URI in the http form the DDB writes
 * and in the https form; any other URI as it is.
 */
export function linkValues(personId: string): string[] {
  const gnd = canonicalGndUri(personId);
  return gnd === null ? [personId] : [gnd, gnd.replace(/^http:/, 'https:')];
}

/** The query, OR the items linked to any of `personIds`; the query itself when there are none. */
export function withLinkedPersons(query: QueryNode<string>, personIds: readonly string[]): QueryNode<string> {
  const values = [...new Set(personIds.flatMap(linkValues))];
  if (values.length === 0) return query;
  return or([query, ...values.map((text): QueryNode<string> => ({ kind: 'term', field: LINK_FACET, text }))]);
}

/**
 * The persons an item query names (GET /search's `entities`, whose items it links): those
 * whose preferred or variant name holds the query's free words (terms, phrases and
 * prefixes without a field, outside NOT), combined as the query combines them; none when
 * the query has no free words.
 */
export function personNamesQuery(node: QueryNode<string>): QueryNode<string> | undefined {
  switch (node.kind) {
    case 'term':
    case 'phrase':
    case 'prefix':
      if (node.field !== null) return undefined;
      return or([
        { ...node, field: 'preferredName' },
        { ...node, field: 'variantName' },
      ]);
    case 'and':
    case 'or': {
      const parts = node.children.map(personNamesQuery).filter((c): c is QueryNode<string> => c !== undefined);
      if (parts.length === 0) return undefined;
      return node.kind === 'and' ? and(parts) : or(parts);
    }
    default:
      return undefined;
  }
}
