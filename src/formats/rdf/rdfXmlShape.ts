/**
 * Whether an rdf:RDF element keeps to the striping of the RDF/XML grammar (RDF 1.1 XML Syntax,
 * section 7.2): node elements hold property elements and no text, and a property element holds
 * either text or exactly one node element (unless its rdf:parseType says otherwise).
 *
 * Why: the RDF/XML parser (./rdfXmlQuads.ts) reads past some breaches of it (a property element
 * with two node elements, or text beside one) and still gives triples, where a conformant
 * processor (Raptor, rdflib) refuses the document. A package whose `edm` part was made from a
 * JSON form (docs/decisions.md "The JSON form") can be of that kind: its EDM is XML but not RDF,
 * and no syntax may then claim to hold "its graph" (docs/linked-data.md).
 */
import { NS } from '../namespaces.js';
import type { XmlElement } from '../xmlTree.js';

const elements = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => typeof c !== 'string');
const hasText = (el: XmlElement): boolean => el.children.some((c) => typeof c === 'string' && c.trim() !== '');
const rdfAttribute = (el: XmlElement, local: string): string | undefined =>
  el.attributes.find((a) => a.namespace === NS.rdf && a.local === local)?.value;

/** What breaks the grammar first, as a sentence; undefined when the element keeps to it. */
export function rdfXmlShapeProblem(rdf: XmlElement): string | undefined {
  if (hasText(rdf)) return 'rdf:RDF holds text beside its node elements';
  for (const node of elements(rdf)) {
    const problem = nodeProblem(node);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function nodeProblem(node: XmlElement): string | undefined {
  if (hasText(node)) return `the node element ${node.name} holds text`;
  return propertiesProblem(node);
}

function propertiesProblem(node: XmlElement): string | undefined {
  for (const property of elements(node)) {
    const problem = propertyProblem(property);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function propertyProblem(property: XmlElement): string | undefined {
  const parseType = rdfAttribute(property, 'parseType');
  const children = elements(property);
  if (parseType === 'Literal') return undefined;
  if (parseType === 'Resource') return hasText(property) ? `the property element ${property.name} holds text` : propertiesProblem(property);
  if (parseType !== undefined) {
    // Collection and other types: a sequence of node elements.
    if (hasText(property)) return `the property element ${property.name} holds text`;
    for (const node of children) {
      const problem = nodeProblem(node);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (children.length === 0) return undefined;
  if (children.length > 1) return `the property element ${property.name} holds ${children.length} node elements; it may hold one`;
  if (hasText(property)) return `the property element ${property.name} holds text beside a node element`;
  if (rdfAttribute(property, 'resource') !== undefined || rdfAttribute(property, 'nodeID') !== undefined)
    return `the property element ${property.name} names its object and holds a node element too`;
  return nodeProblem(children[0]!);
}
