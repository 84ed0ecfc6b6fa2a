// The EDM and OAI-PMH names the reader acts on, matched by namespace URI and local name,
// never by prefix: the real files bind RDF to `rdf:` or `ns3:` (fixtures/items/cortex/)
// and EDM to `edm:`, and a prefix is only a local abbreviation (XML Namespaces 1.0, 3).
//
// EDM class and property names: the Europeana Data Model Definition (5.2.x), its classes
// and the properties of ore:Proxy (ore:proxyFor, ore:proxyIn, edm:europeanaProxy and
// ore:lineage describe the proxy itself, not the object).

import { NS } from '../../formats/namespaces.js';
import type { XmlElement } from '../../formats/xmlTree.js';

/** OAI-PMH 2.0, section 3.2 (XML response format). */
export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';

export type DescriptionKind =
  | 'cho'
  | 'proxy'
  | 'aggregation'
  | 'europeanaAggregation'
  /** edm:WebResource and every contextual class (edm:Agent, edm:Place, skos:Concept, ...). */
  | 'context';

/** What a child element of rdf:RDF describes. */
export function descriptionKind(namespace: string, local: string): DescriptionKind {
  if (namespace === NS.edm && local === 'ProvidedCHO') return 'cho';
  // edm:Proxy is not in the EDM definition, but real records use it for ore:Proxy (189 of
  // the MIMO records in fixtures/items/edm/mimo/, from Europeana's own test data); read
  // as anything else, their descriptive properties would be lost.
  if ((namespace === NS.ore || namespace === NS.edm) && local === 'Proxy') return 'proxy';
  if (namespace === NS.ore && local === 'Aggregation') return 'aggregation';
  if (namespace === NS.edm && local === 'EuropeanaAggregation') return 'europeanaAggregation';
  return 'context';
}

export function isRdfRoot(namespace: string, local: string): boolean {
  return namespace === NS.rdf && local === 'RDF';
}

/** The value of `rdf:<local>` on an element (about, resource), or null. */
export function rdfAttribute(element: XmlElement, local: string): string | null {
  const attribute = element.attributes.find((a) => a.namespace === NS.rdf && a.local === local);
  return attribute === undefined ? null : attribute.value;
}

/** The element's text children joined; the text of a literal property. */
export function textOf(element: XmlElement): string {
  return element.children.filter((c): c is string => typeof c === 'string').join('');
}

/** The first direct child element with this namespace and local name. */
export function childElement(element: XmlElement, namespace: string, local: string): XmlElement | undefined {
  return element.children.find((c): c is XmlElement => typeof c !== 'string' && c.namespace === namespace && c.local === local);
}

/**
 * Every `rdf:resource` value anywhere inside the element: the links by which the
 * descriptions of one record point at its web resources and contextual entities.
 */
export function resourcesIn(element: XmlElement, into: string[] = []): string[] {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    const resource = rdfAttribute(child, 'resource');
    if (resource !== null) into.push(resource);
    resourcesIn(child, into);
  }
  return into;
}

/** `edm:europeanaProxy` "true" marks the Europeana proxy (EDM Definition, ore:Proxy); absent means the provider's. */
export function isEuropeanaProxy(proxy: XmlElement): boolean {
  const flag = childElement(proxy, NS.edm, 'europeanaProxy');
  return flag !== undefined && textOf(flag).trim() === 'true';
}

/** Properties that say something about the proxy itself, not about the object. */
export function isProxyOnlyProperty(property: XmlElement): boolean {
  return (
    (property.namespace === NS.ore && (property.local === 'proxyFor' || property.local === 'proxyIn' || property.local === 'lineage')) ||
    (property.namespace === NS.edm && property.local === 'europeanaProxy')
  );
}
