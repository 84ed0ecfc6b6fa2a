/**
 * Writes the cortex XML document of a package built from EDM (docs/decisions.md
 * "Item package": root `cortex` in the cortex namespace, parts in the cortex
 * order), from a small element tree, with the record's rdf:RDF copied in.
 *
 * Why our own writer: the parts are built as trees by separate modules, and
 * the record's rdf:RDF (an XmlElement) must be written back with its
 * namespaces intact whatever prefixes the source used. Every namespace of
 * namespaces.ts is declared once on the root with the prefix jsonToCortex.ts
 * also uses; a namespace we do not know (ebucore, rdfs, ...) is declared on
 * the element that needs it, under its own prefix when that is free. All
 * text and attribute values go through xmlEscape.ts, so any string yields a
 * well-formed document that parses back to the same string.
 */
import { NS, PREFIX, type NamespaceKey } from '../../formats/namespaces.js';
import { escapeXmlAttr, escapeXmlText } from '../../formats/xmlEscape.js';
import { XML_NAMESPACE, type XmlElement } from '../../formats/xmlTree.js';

export interface Attr {
  /** Namespace URI; "" (or absent) for an unqualified attribute. */
  ns?: string;
  name: string;
  value: string;
}

export interface Node {
  ns: string;
  local: string;
  attrs: Attr[];
  children: Child[];
}

/** A child: an element we build, text, or an element of the source record copied as it is. */
export type Child = Node | string | { copy: XmlElement };

export function node(ns: string, local: string, attrs: Attr[] = [], children: Child[] = []): Node {
  return { ns, local, attrs, children };
}

/** An element holding only text ("" gives an empty element). */
export function textNode(ns: string, local: string, value: string, attrs: Attr[] = []): Node {
  return node(ns, local, attrs, value === '' ? [] : [value]);
}

/** An element that stands for null in the JSON form (cortexToJson.ts: xsi:nil="true"). */
export function nilNode(ns: string, local: string): Node {
  return node(ns, local, [{ ns: NS.xsi, name: 'nil', value: 'true' }]);
}

interface Scope {
  readonly prefixes: ReadonlyMap<string, string>; // prefix -> namespace URI
  readonly defaultNs: string;
}

const DECLARED_ON_ROOT = (Object.keys(NS) as NamespaceKey[]).filter((k) => PREFIX[k] !== '' && k !== 'xml');

const ROOT_SCOPE: Scope = {
  prefixes: new Map(DECLARED_ON_ROOT.map((k) => [PREFIX[k], NS[k]])),
  defaultNs: NS.cortex,
};

class Writer {
  readonly out: string[] = [];

  /** The qualified name for (ns, local) in `scope`, adding a declaration to `decls` when needed. */
  private qualify(ns: string, local: string, preferred: string, attribute: boolean, scope: { s: Scope }, decls: string[]): string {
    if (ns === XML_NAMESPACE) return `xml:${local}`;
    if (attribute && ns === '') return local;
    if (!attribute && ns === scope.s.defaultNs) return local;
    for (const [prefix, uri] of scope.s.prefixes) if (uri === ns) return `${prefix}:${local}`;
    if (ns === '') {
      // An element in no namespace below the cortex default namespace: undeclare the default.
      decls.push(' xmlns=""');
      scope.s = { prefixes: scope.s.prefixes, defaultNs: '' };
      return local;
    }
    let prefix = preferred;
    for (let n = 1; prefix === '' || prefix === 'xml' || prefix === 'xmlns' || scope.s.prefixes.has(prefix); n++) prefix = `ns${10 + n}`;
    decls.push(` xmlns:${prefix}="${escapeXmlAttr(ns)}"`);
    scope.s = { prefixes: new Map([...scope.s.prefixes, [prefix, ns]]), defaultNs: scope.s.defaultNs };
    return `${prefix}:${local}`;
  }

  private element(qname: string, attrText: string, children: () => boolean): void {
    this.out.push(`<${qname}${attrText}`);
    const open = this.out.length;
    this.out.push('>');
    const wroteSomething = children();
    if (!wroteSomething) this.out[open] = '/>';
    else this.out.push(`</${qname}>`);
  }

  writeNode(n: Node, outer: Scope, isRoot = false): void {
    const scope = { s: outer };
    const decls: string[] = [];
    if (isRoot) {
      decls.push(` xmlns="${escapeXmlAttr(NS.cortex)}"`);
      for (const k of DECLARED_ON_ROOT) decls.push(` xmlns:${PREFIX[k]}="${escapeXmlAttr(NS[k])}"`);
    }
    const qname = this.qualify(n.ns, n.local, '', false, scope, decls);
    const attrs = n.attrs.map((a) => ` ${this.qualify(a.ns ?? '', a.name, '', true, scope, decls)}="${escapeXmlAttr(a.value)}"`);
    this.element(qname, decls.join('') + attrs.join(''), () => {
      let wrote = false;
      for (const child of n.children) {
        if (typeof child === 'string') {
          if (child !== '') this.out.push(escapeXmlText(child));
          wrote ||= child !== '';
        } else if ('copy' in child) {
          this.writeCopy(child.copy, scope.s);
          wrote = true;
        } else {
          this.writeNode(child, scope.s);
          wrote = true;
        }
      }
      return wrote;
    });
  }

  /** An element of the source record, with its attributes, text and children as they are. */
  writeCopy(el: XmlElement, outer: Scope): void {
    const scope = { s: outer };
    const decls: string[] = [];
    const qname = this.qualify(el.namespace, el.local, el.prefix, false, scope, decls);
    const attrs = el.attributes.map(
      (a) => ` ${this.qualify(a.namespace, a.local, a.prefix, true, scope, decls)}="${escapeXmlAttr(a.value)}"`,
    );
    this.element(qname, decls.join('') + attrs.join(''), () => {
      for (const child of el.children) {
        if (typeof child === 'string') this.out.push(escapeXmlText(child));
        else this.writeCopy(child, scope.s);
      }
      return el.children.some((c) => typeof c !== 'string' || c !== '');
    });
  }
}

/** The complete document for a `cortex` root node. */
export function writeCortex(root: Node): string {
  const writer = new Writer();
  writer.writeNode(root, ROOT_SCOPE, true);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${writer.out.join('')}`;
}
