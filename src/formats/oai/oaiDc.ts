/**
 * The OAI-PMH `oai_dc` format of a package (OAI-PMH 2.0 section 3.4: every repository
 * disseminates unqualified Dublin Core), mapped from the package's EDM (docs/oai-pmh.md
 * "oai_dc"): the fifteen DC elements the ProvidedCHO carries as they are, the DC terms
 * refinements and EDM properties onto the element they refine (dcterms:created → date,
 * dcterms:spatial → coverage, edm:type → type, …), the Aggregation's rights, landing page
 * and data provider, and the ProvidedCHO's URI as an identifier. A value that is a resource
 * is the skos:prefLabel (or other label) of the contextual entity the graph gives for it,
 * else its URI. Language tags are kept.
 */
import { NS } from '../namespaces.js';
import { escapeXmlAttr, escapeXmlText } from '../xmlEscape.js';
import { parseXml, XML_NAMESPACE, type XmlElement } from '../xmlTree.js';

export const OAI_DC_NS = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
export const OAI_DC_SCHEMA = 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd';

const DC_ELEMENTS = [
  'title',
  'creator',
  'subject',
  'description',
  'publisher',
  'contributor',
  'date',
  'type',
  'format',
  'identifier',
  'source',
  'language',
  'relation',
  'coverage',
  'rights',
] as const;
type DcElement = (typeof DC_ELEMENTS)[number];

/** Properties of the ProvidedCHO beyond dc:*, by namespace and local name, onto the DC element they refine. */
const REFINEMENTS: ReadonlyArray<[string, string, DcElement]> = [
  [NS.dcterms, 'alternative', 'title'],
  [NS.dcterms, 'created', 'date'],
  [NS.dcterms, 'issued', 'date'],
  [NS.dcterms, 'temporal', 'coverage'],
  [NS.dcterms, 'spatial', 'coverage'],
  [NS.dcterms, 'extent', 'format'],
  [NS.dcterms, 'medium', 'format'],
  [NS.dcterms, 'isPartOf', 'relation'],
  [NS.dcterms, 'hasPart', 'relation'],
  [NS.dcterms, 'provenance', 'description'],
  [NS.dcterms, 'tableOfContents', 'description'],
  [NS.edm, 'type', 'type'],
];

/** Properties of the Aggregation. */
const AGGREGATION: ReadonlyArray<[string, string, DcElement]> = [
  [NS.edm, 'rights', 'rights'],
  [NS.dc, 'rights', 'rights'],
  [NS.edm, 'isShownAt', 'identifier'],
  [NS.edm, 'dataProvider', 'publisher'],
];

const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';

const LABELS: ReadonlyArray<[string, string]> = [
  [NS.skos, 'prefLabel'],
  [RDFS, 'label'],
  [NS.foaf, 'name'],
  [NS.dc, 'title'],
];

const elements = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => typeof c !== 'string');
const textOf = (el: XmlElement): string => el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
const attr = (el: XmlElement, namespace: string, local: string) =>
  el.attributes.find((a) => a.namespace === namespace && a.local === local)?.value;

interface Value {
  text: string;
  lang: string | undefined;
}

function child(el: XmlElement | undefined, namespace: string, local: string): XmlElement | undefined {
  return el === undefined ? undefined : elements(el).find((c) => c.namespace === namespace && c.local === local);
}

/** The package's rdf:RDF, undefined when it has none. */
function rdfOf(root: XmlElement): XmlElement | undefined {
  return child(child(root, NS.cortex, 'edm'), NS.rdf, 'RDF');
}

/** The label of the resource `uri` in the graph, in the first language it has. */
function labelOf(rdf: XmlElement, uri: string): Value | undefined {
  for (const node of elements(rdf)) {
    if (attr(node, NS.rdf, 'about') !== uri) continue;
    for (const [ns, local] of LABELS) {
      const label = child(node, ns, local);
      if (label !== undefined && textOf(label).trim() !== '')
        return { text: textOf(label).trim(), lang: attr(label, XML_NAMESPACE, 'lang') };
    }
  }
  return undefined;
}

function valueOf(rdf: XmlElement, property: XmlElement): Value | undefined {
  const resource = attr(property, NS.rdf, 'resource');
  if (resource !== undefined) return labelOf(rdf, resource) ?? { text: resource, lang: undefined };
  // A nested description: its label.
  const nested = elements(property)[0];
  if (nested !== undefined) {
    const about = attr(nested, NS.rdf, 'about');
    for (const [ns, local] of LABELS) {
      const label = child(nested, ns, local);
      if (label !== undefined) return { text: textOf(label).trim(), lang: attr(label, XML_NAMESPACE, 'lang') };
    }
    return about === undefined ? undefined : { text: about, lang: undefined };
  }
  const text = textOf(property).trim();
  return text === '' ? undefined : { text, lang: attr(property, XML_NAMESPACE, 'lang') };
}

/** The oai_dc:dc element of the package whose cortex XML is `xml`; undefined when it has no EDM ProvidedCHO. */
export function oaiDcElement(xml: string): string | undefined {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch {
    return undefined;
  }
  const rdf = rdfOf(root);
  const cho = rdf === undefined ? undefined : child(rdf, NS.edm, 'ProvidedCHO');
  if (rdf === undefined || cho === undefined) return undefined;
  const out = new Map<DcElement, Value[]>(DC_ELEMENTS.map((e) => [e, []]));
  const add = (element: DcElement, value: Value | undefined) => {
    if (value === undefined) return;
    const list = out.get(element)!;
    if (!list.some((v) => v.text === value.text && v.lang === value.lang)) list.push(value);
  };
  const about = attr(cho, NS.rdf, 'about');
  for (const property of elements(cho)) {
    if (property.namespace === NS.dc && (DC_ELEMENTS as readonly string[]).includes(property.local))
      add(property.local as DcElement, valueOf(rdf, property));
    const refined = REFINEMENTS.find(([ns, local]) => property.namespace === ns && property.local === local);
    if (refined !== undefined) add(refined[2], valueOf(rdf, property));
  }
  if (about !== undefined) add('identifier', { text: about, lang: undefined });
  for (const aggregation of elements(rdf).filter((e) => e.namespace === NS.ore && e.local === 'Aggregation')) {
    for (const property of elements(aggregation)) {
      const mapped = AGGREGATION.find(([ns, local]) => property.namespace === ns && property.local === local);
      if (mapped !== undefined) add(mapped[2], valueOf(rdf, property));
    }
  }
  const parts: string[] = [];
  for (const [element, values] of out) {
    for (const v of values) {
      const lang = v.lang === undefined || v.lang === '' ? '' : ` xml:lang="${escapeXmlAttr(v.lang)}"`;
      parts.push(`<dc:${element}${lang}>${escapeXmlText(v.text)}</dc:${element}>`);
    }
  }
  return (
    `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${NS.dc}" xmlns:xsi="${NS.xsi}" ` +
    `xsi:schemaLocation="${OAI_DC_NS} ${OAI_DC_SCHEMA}">${parts.join('')}</oai_dc:dc>`
  );
}
