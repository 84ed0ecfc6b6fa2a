// writeXmlDocument: one element of a parsed document (./xmlTree.ts) as a document of its own.
//
// Why: the parts of an item package (`view`, `edm`'s rdf:RDF, `binaries`, ...) are served
// as resources of their own (docs/decisions.md "Parts of a package"). Cut out of the cortex document, an element
// loses the namespace declarations of its ancestors (the real files declare ns3 = RDF and
// ns4 = item on the root), so it is written back from the tree with every namespace it
// uses declared where it is first needed, under the prefix the source wrote. The result
// parses back (parseXml) to the same element: names, namespaces, attributes, text.
//
// An element or attribute whose prefix was not declared in the source (parseXml's
// documented leniency: namespace "") is written without its prefix, in no namespace, as
// parseXml read it; such an attribute is dropped if another one of the element already
// has its local name, since the output must stay well-formed.

import { escapeXmlAttr, escapeXmlText } from './xmlEscape.js';
import { XML_NAMESPACE, type XmlElement } from './xmlTree.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/** prefix ("" for the default namespace) -> namespace URI in scope. */
type Scope = ReadonlyMap<string, string>;

function bind(
  scope: Scope,
  own: Map<string, string> | undefined,
  prefix: string,
  namespace: string,
  decls: string[],
): Map<string, string> | undefined {
  if ((own?.get(prefix) ?? scope.get(prefix) ?? '') === namespace) return own;
  const next = own ?? new Map(scope);
  next.set(prefix, namespace);
  decls.push(prefix === '' ? ` xmlns="${escapeXmlAttr(namespace)}"` : ` xmlns:${prefix}="${escapeXmlAttr(namespace)}"`);
  return next;
}

function write(el: XmlElement, scope: Scope, out: string[]): void {
  const decls: string[] = [];
  let own: Map<string, string> | undefined;
  // An undeclared prefix was read as namespace "": write the element unprefixed, in no namespace.
  const prefix = el.namespace === '' ? '' : el.prefix;
  own = bind(scope, own, prefix, el.namespace, decls);
  const qname = prefix === '' ? el.local : `${prefix}:${el.local}`;
  const attrs: string[] = [];
  const names = new Set<string>();
  for (const a of el.attributes) {
    let name: string;
    if (a.namespace === XML_NAMESPACE) name = `xml:${a.local}`;
    else if (a.namespace === '') name = a.local;
    else {
      // A prefixed attribute whose prefix is taken by another namespace here gets a fresh one.
      let p = a.prefix === '' ? 'ns' : a.prefix;
      for (let n = 1; (own?.get(p) ?? scope.get(p)) !== undefined && (own?.get(p) ?? scope.get(p)) !== a.namespace; n++) p = `ns${n}x`;
      own = bind(scope, own, p, a.namespace, decls);
      name = `${p}:${a.local}`;
    }
    if (names.has(name)) continue;
    names.add(name);
    attrs.push(` ${name}="${escapeXmlAttr(a.value)}"`);
  }
  out.push(`<${qname}${decls.join('')}${attrs.join('')}`);
  if (el.children.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  const inner = own ?? scope;
  for (const child of el.children) {
    if (typeof child === 'string') out.push(escapeXmlText(child));
    else write(child, inner, out);
  }
  out.push(`</${qname}>`);
}

/** The element as a complete XML document, with the declaration of ./hierarchy.ts. */
export function writeXmlDocument(el: XmlElement): string {
  const out = [DECLARATION];
  write(el, new Map(), out);
  return out.join('');
}
