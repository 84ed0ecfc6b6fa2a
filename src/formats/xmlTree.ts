// parseXml: an XML document as a small, namespace-resolved element tree.
//
// Why: the item package's canonical form is the cortex XML document and its JSON form is
// derived from it by a fixed mapping (docs: /work/shared/spec/decisions.md, "Item package";
// interface.md section 2.4). That mapping needs the elements in document order, exact text
// (no number parsing, no trimming, entities decoded), attributes in document order, and
// namespace URIs rather than the arbitrary prefixes the real files use (`ns3:` is RDF).
//
// How: fast-xml-parser 5 (see notes/measurements.md, "Libraries") with preserveOrder,
// parseTagValue/parseAttributeValue off, trimValues off. Its entity handling is switched
// off and done by xmlLexical.ts, which also adds the well-formedness checks XMLValidator
// lacks. Tag and attribute names get a marker prefix while parsing because the parser
// refuses names such as `constructor` and renames `hasOwnProperty`. Namespaces are
// resolved here from the xmlns / xmlns:p attributes in scope; those attributes are not
// reported as attributes. CDATA sections become text, comments and processing
// instructions are dropped, adjacent text pieces are joined into one string.
//
// Leniency, documented: an undeclared prefix resolves to namespace "" instead of an error
// (fast-xml-parser gives no position for it); a name with two colons is split at the first.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeXmlAttribute, decodeXmlText, findLexicalProblem } from './xmlLexical.js';

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

const MARK = '\u0001';
const unmark = (name: string): string => name.replace(/^\u0001+/, '');

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false, // decoded exactly by xmlLexical.ts
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: 1000,
  transformTagName: (name: string) => MARK + name,
  transformAttributeName: (name: string) => MARK + name,
});

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function checkWellFormed(xml: string): void {
  const lexical = findLexicalProblem(xml);
  const lexicalAt = lexical === null ? null : { ...lineAndColumn(xml, lexical.offset), reason: lexical.reason };
  const validation = XMLValidator.validate(xml, { allowBooleanAttributes: false });
  let structural: { line: number; column: number; reason: string } | null = null;
  // 'InvalidXml' is a whole-document verdict (for example unclosed tags, reported at 1:1);
  // the lexical scan gives a better position for those, so prefer it when it has one.
  if (validation !== true && !(validation.err.code === 'InvalidXml' && lexicalAt !== null)) {
    structural = { line: validation.err.line, column: validation.err.col ?? 1, reason: validation.err.msg };
  }
  const first = [lexicalAt, structural]
    .filter((p): p is { line: number; column: number; reason: string } => p !== null)
    .sort((a, b) => a.line - b.line || a.column - b.column)[0];
  if (first !== undefined) throw new XmlSyntaxError(first.line, first.column, first.reason);
}

type Scope = ReadonlyMap<string, string>; // prefix ("" = default) -> namespace URI

const ROOT_SCOPE: Scope = new Map([['xml', XML_NAMESPACE], ['xmlns', XMLNS_NAMESPACE]]);

function splitName(name: string): { prefix: string; local: string } {
  const colon = name.indexOf(':');
  return colon === -1 ? { prefix: '', local: name } : { prefix: name.slice(0, colon), local: name.slice(colon + 1) };
}

type FxpNode = Record<string, unknown>;

function buildElement(rawName: string, rawAttrs: Record<string, string>, rawChildren: FxpNode[], outer: Scope): XmlElement {
  // Declarations first: they apply to the element's own name and attributes.
  let scope = outer;
  const plain: Array<{ name: string; raw: string }> = [];
  for (const [markedName, raw] of Object.entries(rawAttrs)) {
    const name = unmark(markedName);
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      if (scope === outer) scope = new Map(outer);
      (scope as Map<string, string>).set(name === 'xmlns' ? '' : name.slice(6), decodeXmlAttribute(raw));
    } else {
      plain.push({ name, raw });
    }
  }
  const name = unmark(rawName);
  const { prefix, local } = splitName(name);
  const attributes: XmlAttribute[] = plain.map((a) => {
    const parts = splitName(a.name);
    const namespace = parts.prefix === '' ? '' : (scope.get(parts.prefix) ?? '');
    return { name: a.name, local: parts.local, prefix: parts.prefix, namespace, value: decodeXmlAttribute(a.raw) };
  });
  return {
    name,
    prefix,
    local,
    namespace: scope.get(prefix) ?? '',
    attributes,
    children: buildChildren(rawChildren, scope),
  };
}

function buildChildren(nodes: FxpNode[], scope: Scope): Array<XmlElement | string> {
  const children: Array<XmlElement | string> = [];
  let text: string[] = [];
  const flushText = (): void => {
    if (text.length > 0) children.push(text.join(''));
    text = [];
  };
  for (const node of nodes) {
    for (const key of Object.keys(node)) {
      if (key === ':@') continue;
      const value = node[key];
      if (key === '#text') {
        text.push(decodeXmlText(String(value)));
      } else if (key === '#cdata') {
        for (const piece of value as FxpNode[]) text.push(String(piece['#text'] ?? ''));
      } else {
        flushText();
        const attrs = (node[':@'] ?? {}) as Record<string, string>;
        children.push(buildElement(key, attrs, value as FxpNode[], scope));
      }
    }
  }
  flushText();
  return children;
}

/**
 * Parses a complete XML document and returns its root element.
 * Throws XmlSyntaxError (with 1-based line and column) when it is not well-formed.
 */
export function parseXml(text: string): XmlElement {
  // XML 1.0, 2.11: CR LF and lone CR are read as LF. Offsets below refer to this text.
  const xml = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  checkWellFormed(xml);
  const top = parser.parse(xml) as FxpNode[];
  const root = buildChildren(top, ROOT_SCOPE).find((c): c is XmlElement => typeof c !== 'string');
  if (root === undefined) throw new XmlSyntaxError(1, 1, 'Document has no root element');
  return root;
}
