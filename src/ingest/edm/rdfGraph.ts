/**
 * Read access to the rdf:RDF of one EDM record in the DDB form (properties on
 * edm:ProvidedCHO, contextual classes beside it; types.ts), for the parts of
 * the package built from it (spec 2.4).
 *
 * Why a small index instead of XPath: every part asks the same questions
 * ("the literals of dc:title on the CHO", "the class element a reference
 * points at", "its label"), always by namespace URI, never by prefix, since
 * records bind prefixes as they like (`ns3:` is RDF in the real packages).
 */
import { NS } from '../../formats/namespaces.js';
import { XML_NAMESPACE, type XmlElement } from '../../formats/xmlTree.js';
import { RecordError } from '../../formats/recordError.js';

/** Namespaces that appear only here (EBU Core for web resources, RDF Schema). */
export const NS_EBUCORE = 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#';

export const childElements = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => typeof c !== 'string');

export function attribute(el: XmlElement, namespace: string, local: string): string | undefined {
  return el.attributes.find((a) => a.namespace === namespace && a.local === local)?.value;
}

/** rdf:about of a class element (trimmed), or undefined. */
export const aboutOf = (el: XmlElement): string | undefined => attribute(el, NS.rdf, 'about')?.trim() || undefined;

/** rdf:resource of a property element (trimmed), or undefined for a literal. */
export const resourceOf = (el: XmlElement): string | undefined => attribute(el, NS.rdf, 'resource')?.trim() || undefined;

export const langOf = (el: XmlElement): string => attribute(el, XML_NAMESPACE, 'lang')?.trim().toLowerCase() ?? '';

/** The text of a literal property, trimmed; undefined for a reference or an empty element. */
export function literalOf(el: XmlElement): string | undefined {
  if (resourceOf(el) !== undefined) return undefined;
  const text = el.children
    .filter((c): c is string => typeof c === 'string')
    .join('')
    .trim();
  return text === '' ? undefined : text;
}

/** The property elements `ns:local` directly inside a class element, in document order. */
export function props(el: XmlElement | undefined, namespace: string, local: string): XmlElement[] {
  if (el === undefined) return [];
  return childElements(el).filter((c) => c.namespace === namespace && c.local === local);
}

export const literals = (el: XmlElement | undefined, namespace: string, local: string): string[] =>
  props(el, namespace, local)
    .map(literalOf)
    .filter((s): s is string => s !== undefined);

export const resources = (el: XmlElement | undefined, namespace: string, local: string): string[] =>
  props(el, namespace, local)
    .map(resourceOf)
    .filter((s): s is string => s !== undefined);

/** An absolute http(s) URI: what we take for an authority (normdata) identifier. */
export const isHttpUri = (s: string): boolean => /^https?:\/\/[^\s/]+/i.test(s);

/**
 * The label of a literal list, for display: German first (the DDB shows German), then
 * no language tag, then English, then whatever comes first.
 */
export function preferredLabel(elements: XmlElement[]): string | undefined {
  const withText = elements
    .map((el) => ({ lang: langOf(el), text: literalOf(el) }))
    .filter((x): x is { lang: string; text: string } => x.text !== undefined);
  for (const want of ['de', '', 'en']) {
    const hit = withText.find((x) => x.lang === want || (want !== '' && x.lang.startsWith(`${want}-`)));
    if (hit) return hit.text;
  }
  return withText[0]?.text;
}

export class RdfGraph {
  readonly root: XmlElement;
  readonly cho: XmlElement;
  readonly choUri: string;
  /** The ore:Aggregation of this CHO (edm:aggregatedCHO), else the first one. */
  readonly aggregation: XmlElement | undefined;
  private readonly byAbout = new Map<string, XmlElement[]>();

  constructor(root: XmlElement, choUri: string) {
    if (root.namespace !== NS.rdf || root.local !== 'RDF') {
      throw new RecordError(`the record's root is <${root.name}>, expected rdf:RDF`);
    }
    this.root = root;
    for (const el of childElements(root)) {
      const about = aboutOf(el);
      if (about === undefined) continue;
      const list = this.byAbout.get(about);
      if (list) list.push(el);
      else this.byAbout.set(about, [el]);
    }
    const chos = this.classes(NS.edm, 'ProvidedCHO');
    const cho = chos.find((c) => aboutOf(c) === choUri.trim()) ?? chos[0];
    if (cho === undefined) throw new RecordError('the record has no edm:ProvidedCHO');
    this.cho = cho;
    this.choUri = aboutOf(cho) ?? choUri.trim();
    const aggregations = this.classes(NS.ore, 'Aggregation');
    this.aggregation = aggregations.find((a) => resources(a, NS.edm, 'aggregatedCHO').includes(this.choUri)) ?? aggregations[0];
  }

  /** The class elements `ns:local` directly inside rdf:RDF, in document order. */
  classes(namespace: string, local: string): XmlElement[] {
    return childElements(this.root).filter((c) => c.namespace === namespace && c.local === local);
  }

  /** The class element described by `uri`, optionally only of the class `ns:local`. */
  entity(uri: string, namespace?: string, local?: string): XmlElement | undefined {
    return (this.byAbout.get(uri) ?? []).find((el) => namespace === undefined || (el.namespace === namespace && el.local === local));
  }

  /** skos:prefLabel of the entity, falling back to skos:altLabel and foaf:name. */
  labelOf(el: XmlElement | undefined): string | undefined {
    return (
      preferredLabel(props(el, NS.skos, 'prefLabel')) ??
      preferredLabel(props(el, NS.skos, 'altLabel')) ??
      preferredLabel(props(el, NS.foaf, 'name'))
    );
  }

  /** skos:notation values of the entity `uri` (DDB vocabulary codes such as sec_06, time_61900). */
  notationsOf(uri: string): string[] {
    return (this.byAbout.get(uri) ?? []).flatMap((el) => literals(el, NS.skos, 'notation'));
  }

  /** Value of a property for display: its literal, or the label of what it references, or the URI. */
  valueOf(el: XmlElement): { text: string; resource?: string } | undefined {
    const uri = resourceOf(el);
    if (uri === undefined) {
      const text = literalOf(el);
      return text === undefined ? undefined : { text };
    }
    const label = this.labelOf(this.entity(uri));
    return { text: label ?? uri, resource: uri };
  }
}
