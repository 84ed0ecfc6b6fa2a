// parseXml: an XML document as a small, namespace-resolved element tree.
//
// Why: the item package's canonical form is the cortex XML document and its JSON form is
// derived from it by a fixed mapping (docs/decisions.md, "Item package";
// spec section 2.4). That mapping needs the elements in document order, exact text
// (no number parsing, no trimming, entities decoded), attributes in document order, and
// namespace URIs rather than the arbitrary prefixes the real files use (`ns3:` is RDF).
//
// How: saxes (a conformant, namespace-aware SAX parser, also used to stream EDM files in
// src/ingest/edm/), building the tree from its events. saxes checks well-formedness itself
// (names, references, characters, nesting, one root), decodes entities, normalises
// attribute whitespace and resolves namespaces; xmlns declarations are not reported as
// attributes. CDATA sections become text, comments and processing instructions are
// dropped, adjacent text pieces are joined into one string. It replaced fast-xml-parser
// plus two extra checking passes at a fifth of the cost of loading a package.
//
// Leniency, documented: an undeclared prefix resolves to namespace "" instead of an error.

import { SaxesParser, type SaxesTagNS } from 'saxes';
import { findXmlProblem } from './xmlProblem.js';
import { MAX_NESTING_DEPTH, tooDeepReason } from './recordLimits.js';

export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

export interface XmlAttribute {
  /** Qualified name as written, e.g. `ns3:about`. */
  name: string;
  local: string;
  prefix: string;
  /** Resolved namespace URI; "" for an unprefixed attribute (XML Namespaces, 6.2). */
  namespace: string;
  /** Normalised and entity-decoded value. */
  value: string;
}

export interface XmlElement {
  /** Qualified name as written, e.g. `ns3:RDF`. */
  name: string;
  prefix: string;
  local: string;
  /** Resolved namespace URI from the xmlns declarations in scope, "" if none. */
  namespace: string;
  attributes: XmlAttribute[];
  /** Child elements and decoded text, in document order; adjacent text is joined. */
  children: Array<XmlElement | string>;
}

/** A document nested deeper than MAX_NESTING_DEPTH (src/formats/recordLimits.ts): refused while it is read. */
export class XmlTooDeepError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
  ) {
    super(tooDeepReason(line, column));
    this.name = 'XmlTooDeepError';
  }
}

/** A document that is not well-formed XML; line and column are 1-based. */
export class XmlSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  readonly reason: string;

  constructor(line: number, column: number, reason: string) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'XmlSyntaxError';
    this.line = line;
    this.column = column;
    this.reason = reason;
  }
}

/** What saxes is told an undeclared prefix means; read back as "" (the documented leniency). */
const UNBOUND = '\u0000unbound';
const ns = (uri: string | undefined): string => (uri === undefined || uri === UNBOUND ? '' : uri);

/** Text and CDATA both become text; a piece next to text already there joins it. */
export function appendText(element: XmlElement | undefined, text: string): void {
  if (element === undefined || text === '') return;
  const last = element.children.length - 1;
  const previous = element.children[last];
  if (typeof previous === 'string') element.children[last] = previous + text;
  else element.children.push(text);
}

/**
 * An element (without children yet) from a saxes open tag: namespace URIs
 * resolved, xmlns declarations not reported as attributes, attributes in
 * document order. Shared with the streaming EDM reader (src/ingest/edm/), so a
 * record read there has exactly the shape parseXml gives.
 */
export function elementFromTag(tag: SaxesTagNS): XmlElement {
  const attributes: XmlAttribute[] = [];
  // Object key order is insertion order for non-numeric keys, and XML names never are numeric.
  for (const a of Object.values(tag.attributes)) {
    if (a.uri !== XMLNS_NAMESPACE)
      attributes.push({ name: a.name, local: a.local, prefix: a.prefix, namespace: ns(a.uri), value: a.value });
  }
  return { name: tag.name, prefix: tag.prefix, local: tag.local, namespace: ns(tag.uri), attributes, children: [] };
}

/** saxes prefixes its messages with "line:column: "; the position is ours to report. */
const reasonOf = (e: Error): string => e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');

/**
 * Parses a complete XML document and returns its root element.
 * Throws XmlSyntaxError (with 1-based line and column) when it is not well-formed,
 * and XmlTooDeepError as soon as an element opens deeper than `maxDepth`.
 */
export function parseXml(text: string, maxDepth = MAX_NESTING_DEPTH): XmlElement {
  // XML 1.0, 2.11: CR LF and lone CR are read as LF. Positions refer to this text.
  const xml = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  // An undeclared prefix resolves to a marker, read back as "" (the documented leniency).
  const parser = new SaxesParser({ xmlns: true, position: true, resolvePrefix: () => UNBOUND });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: XmlSyntaxError | undefined;
  parser.on('opentag', (tag: SaxesTagNS) => {
    // Thrown out of saxes' write(): reading on would cost time quadratic in the depth.
    if (open.length >= maxDepth) throw new XmlTooDeepError(parser.line, Math.max(parser.column, 1));
    const element = elementFromTag(tag);
    const parent = open[open.length - 1];
    if (parent) parent.children.push(element);
    else root ??= element;
    if (!tag.isSelfClosing) open.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) open.pop();
  });
  parser.on('text', (t) => appendText(open[open.length - 1], t));
  parser.on('cdata', (t) => appendText(open[open.length - 1], t));
  // The first error is the one to fix; saxes goes on and may report consequences.
  parser.on('error', (e) => {
    failure ??= new XmlSyntaxError(parser.line, Math.max(parser.column, 1), reasonOf(e));
  });
  parser.write(xml).close();
  if (failure) {
    const better = findXmlProblem(xml);
    throw better ? new XmlSyntaxError(better.line, better.column, better.reason) : failure;
  }
  if (root === undefined) throw new XmlSyntaxError(1, 1, 'Document has no root element');
  return root;
}
