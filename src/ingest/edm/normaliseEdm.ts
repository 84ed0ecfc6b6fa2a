// normaliseEdm: one record's descriptions as an rdf:RDF element in the DDB form.
//
// The DDB form (the rdf:RDF inside a cortex package's `edm` part, docs/decisions.md "Item
// package"; fixtures/items/cortex/) has the descriptive properties on edm:ProvidedCHO and
// no ore:Proxy. Europeana's form (fixtures/items/edm/hope-combat/) has them on ore:Proxy:
// the provider's proxy (edm:europeanaProxy false or absent) holds what the data provider
// said, the Europeana proxy (edm:europeanaProxy true) what Europeana added by enrichment.
// The rules, and why:
// - The provider proxies' properties are folded onto the CHO in document order, after
//   the CHO's own properties: they are the provider's description of the object, which
//   is what the DDB form holds and what the package's view and facets are built from.
// - A Europeana proxy property is folded only when neither the CHO nor a provider proxy
//   has a property of the same name. Europeana enriches what the provider gave (a
//   dc:subject linked to a concept, a dc:date read into edm:year or a timespan); where
//   the provider already gave that property, the enrichment is a second copy of the same
//   statement in another form and would show twice. Where the provider gave none (edm:year
//   or a dcterms:temporal only Europeana derived), it is the only value there is.
// - Proxy-only properties (ore:proxyFor, ore:proxyIn, edm:europeanaProxy, ore:lineage)
//   are not folded: they describe the proxy, which is dropped.
// - A property identical to one the CHO already has (same name, attributes and content)
//   is not added twice: RDF statements form a set, so the copy says nothing new.
// - ore:Proxy elements are dropped; everything else (ore:Aggregation,
//   edm:EuropeanaAggregation, edm:WebResource, every contextual class) is kept unchanged.
//   The hierarchy fields travel with the rest: dcterms:isPartOf (HOPE has it in the proxy)
//   and edm:isNextInSequence end up on the CHO (docs/decisions.md "Hierarchy").
// - Whitespace-only text directly inside rdf:RDF, and inside a CHO that received
//   properties, is not kept: in RDF/XML it carries no meaning (spec 2.4: "A key
//   `$` holds whitespace text and carries no meaning"), and indentation around folded
//   properties would be wrong anyway.

import type { XmlElement } from '../../formats/xmlTree.js';
import { descriptionKind, isEuropeanaProxy, isProxyOnlyProperty } from './edmVocabulary.js';

const isWhitespace = (node: XmlElement | string): boolean => typeof node === 'string' && node.trim() === '';

function sameNode(a: XmlElement | string, b: XmlElement | string): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return (
    a.namespace === b.namespace &&
    a.local === b.local &&
    a.attributes.length === b.attributes.length &&
    a.attributes.every((x, i) => {
      const y = b.attributes[i]!;
      return x.namespace === y.namespace && x.local === y.local && x.value === y.value;
    }) &&
    a.children.length === b.children.length &&
    a.children.every((child, i) => sameNode(child, b.children[i]!))
  );
}

const propertyKey = (property: XmlElement): string => `${property.namespace} ${property.local}`;

function propertiesOf(element: XmlElement): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string' && !isProxyOnlyProperty(c));
}

/** The CHO with the proxies' properties folded onto it, by the rules above. */
export function foldProxies(cho: XmlElement, proxies: readonly XmlElement[]): XmlElement {
  const providerProxies = proxies.filter((p) => !isEuropeanaProxy(p));
  const europeanaProxies = proxies.filter((p) => isEuropeanaProxy(p));
  const own = cho.children.filter((c): c is XmlElement => typeof c !== 'string');
  const folded: XmlElement[] = [];
  const add = (property: XmlElement): void => {
    if (own.some((p) => sameNode(p, property)) || folded.some((p) => sameNode(p, property))) return;
    folded.push(property);
  };
  for (const proxy of providerProxies) propertiesOf(proxy).forEach(add);
  const given = new Set([...own, ...folded].map(propertyKey));
  for (const proxy of europeanaProxies) {
    for (const property of propertiesOf(proxy)) if (!given.has(propertyKey(property))) add(property);
  }
  if (folded.length === 0) return cho;
  return { ...cho, children: [...cho.children.filter((c) => !isWhitespace(c)), ...folded] };
}

/**
 * @param shell the source rdf:RDF element (its children are ignored)
 * @param members the record's descriptions in document order, the CHO among them
 * @param cho the record's edm:ProvidedCHO (one of members)
 */
export function normaliseEdm(shell: XmlElement, members: readonly XmlElement[], cho: XmlElement): XmlElement {
  const proxies = members.filter((m) => descriptionKind(m.namespace, m.local) === 'proxy');
  const folded = foldProxies(cho, proxies);
  const children = members.filter((m) => !proxies.includes(m)).map((m) => (m === cho ? folded : m));
  return { ...shell, children };
}
