// jsonToCortex: writes the cortex XML document for an item package given in JSON form.
//
// Why: docs/decisions.md ("Item package") makes the cortex XML canonical; packages we hold as
// JSON (the newer API generation, fixtures/items/cortex/goethe.json, bare_id.json,
// multi_uri.json) still have to
// be served as XML. This is the inverse of cortexToJson.ts: for a package read with
// parsePackageJson, cortexToJson(parseXml(jsonToCortex(pkg))) equals pkg except for these
// differences, which the XML form cannot avoid:
//   1. numbers and booleans become strings (`1` -> "1", `true` -> "true");
//   2. a one-element array becomes its single value; an empty array disappears (no element
//      is written, so its key is absent);
//   3. an object whose only key is `$` becomes that string, and an object with no keys
//      (also one left empty by 2., e.g. `viewers: {viewer: []}`) becomes "";
//   4. a `$` that is whitespace-only is not emitted (parsePackageJson drops it already);
//   5. nested arrays are flattened (an element cannot hold an array of arrays);
//   6. an attribute (`@x`) or `$` whose value is null is omitted;
//   7. characters XML 1.0 cannot carry (C0 controls other than TAB/LF/CR, U+FFFE, U+FFFF,
//      unpaired surrogates) are replaced by U+FFFD (see xmlEscape.ts);
//   8. key order is not kept where XML has its own: attributes come before child
//      elements, and the root's parts are written in the cortex part order
//      (CORTEX_PART_ORDER; unknown parts follow in their JSON order). Key order does not
//      change equality of JSON objects.
// Mapping: `@name` keys are attributes (`@about`, `@resource`, `@datatype` below `edm` and
// `view` get the rdf: prefix, `@lang` becomes xml:lang, the rest are unprefixed), `$` is
// text, other keys are child elements (namespaces from namespaces.ts), an array is one
// element per item, null is an element with xsi:nil="true". A key that is not an XML name
// (or an attribute named xmlns, or an object/array used as an attribute value) cannot be
// written and throws a TypeError.

import {
  CORTEX_PART_ORDER,
  NS,
  PREFIX,
  RDF_ATTRIBUTES,
  RDF_CLASS_NAMESPACES,
  type NamespaceKey,
  rdfElementNamespace,
} from './namespaces.js';
import { escapeXmlAttr, escapeXmlText, isXmlNcName } from './xmlEscape.js';

type Zone =
  | { kind: 'cortex' } // cortex namespace, outside edm and view
  | { kind: 'edm' } // the children of <edm>
  | { kind: 'item' } // below <view>
  | { kind: 'rdf'; className: string | undefined; classLevel: boolean }; // below rdf:RDF

const CORTEX: Zone = { kind: 'cortex' };

const PREFIX_BY_URI = new Map<string, NamespaceKey>((Object.keys(NS) as NamespaceKey[]).map((key) => [NS[key], key]));

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function flatten(items: unknown[], out: unknown[] = []): unknown[] {
  for (const item of items) {
    if (Array.isArray(item)) flatten(item, out);
    else out.push(item);
  }
  return out;
}

class CortexWriter {
  readonly parts: string[] = [];
  readonly used = new Set<NamespaceKey>();

  private qualify(local: string, namespace: string): string {
    const key = PREFIX_BY_URI.get(namespace) ?? 'ddb';
    this.used.add(key);
    const prefix = PREFIX[key];
    return prefix === '' ? local : `${prefix}:${local}`;
  }

  /** Writes one property: one element, or one per item of an array. */
  property(local: string, value: unknown, zone: Zone): void {
    if (!isXmlNcName(local)) throw new TypeError(`JSON key "${local}" is not an XML element name`);
    if (value === undefined) return;
    const items = Array.isArray(value) ? flatten(value) : [value];
    items.forEach((item, index) => this.element(local, item, zone, index, items.length));
  }

  private element(local: string, value: unknown, zone: Zone, index: number, count: number): void {
    const { namespace, inner } = this.place(local, value, zone, index, count);
    const qname = this.qualify(local, namespace);
    if (value === null) {
      this.used.add('xsi');
      this.parts.push(`<${qname} ${PREFIX.xsi}:nil="true"/>`);
      return;
    }
    if (!isPlainObject(value)) {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a scalar: objects were refused above
      const text = escapeXmlText(String(value));
      this.parts.push(text === '' ? `<${qname}/>` : `<${qname}>${text}</${qname}>`);
      return;
    }
    const rdfAttributes = zone.kind !== 'cortex';
    this.parts.push(`<${qname}${this.attributes(value, rdfAttributes)}`);
    const start = this.parts.length;
    this.parts.push('>');
    this.content(Object.keys(value), value, inner);
    if (this.parts.length === start + 1) this.parts[start] = '/>';
    else this.parts.push(`</${qname}>`);
  }

  /** The element's namespace and the zone of its children. */
  private place(local: string, value: unknown, zone: Zone, index: number, count: number): { namespace: string; inner: Zone } {
    switch (zone.kind) {
      case 'cortex':
        if (local === 'edm') return { namespace: NS.cortex, inner: { kind: 'edm' } };
        if (local === 'view') return { namespace: NS.cortex, inner: { kind: 'item' } };
        return { namespace: NS.cortex, inner: CORTEX };
      case 'edm':
        return local === 'RDF'
          ? { namespace: NS.rdf, inner: { kind: 'rdf', className: undefined, classLevel: true } }
          : { namespace: NS.cortex, inner: CORTEX };
      case 'item':
        return { namespace: NS.item, inner: zone };
      case 'rdf': {
        const isClass = zone.classLevel || Object.hasOwn(RDF_CLASS_NAMESPACES, local);
        const namespace = rdfElementNamespace(local, { className: zone.className, value, index, count });
        return { namespace, inner: { kind: 'rdf', className: isClass ? local : zone.className, classLevel: false } };
      }
    }
  }

  attributes(obj: Record<string, unknown>, rdfAttributes: boolean): string {
    let out = '';
    for (const key of Object.keys(obj)) {
      if (!key.startsWith('@')) continue;
      const local = key.slice(1);
      if (!isXmlNcName(local) || local === 'xmlns') throw new TypeError(`JSON key "${key}" is not an XML attribute name`);
      const value = obj[key];
      if (value === null || value === undefined) continue;
      if (typeof value === 'object') throw new TypeError(`attribute "${key}" must have a string, number or boolean value`);
      let name = local;
      if (local === 'lang') name = 'xml:lang';
      else if (rdfAttributes && RDF_ATTRIBUTES.has(local)) name = this.qualify(local, NS.rdf);
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a scalar: objects were refused above
      out += ` ${name}="${escapeXmlAttr(String(value))}"`;
    }
    return out;
  }

  /** Child elements and `$` text of an object, in the given key order. */
  content(keys: string[], obj: Record<string, unknown>, zone: Zone): void {
    for (const key of keys) {
      if (key.startsWith('@')) continue;
      const value = obj[key];
      if (key === '$') {
        if (value === null || value === undefined) continue;
        if (typeof value === 'object') throw new TypeError('"$" must have a string, number or boolean value');
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a scalar: objects were refused above
        const text = escapeXmlText(String(value));
        if (text !== '') this.parts.push(text);
        continue;
      }
      this.property(key, value, zone);
    }
  }
}

/** The root's keys: the cortex parts in their canonical order, then any others. */
function rootKeyOrder(pkg: Record<string, unknown>): string[] {
  const keys = Object.keys(pkg);
  const known = CORTEX_PART_ORDER.filter((k) => Object.hasOwn(pkg, k));
  return [...known, ...keys.filter((k) => !CORTEX_PART_ORDER.includes(k))];
}

/** The complete cortex XML document for an item package in JSON form. */
export function jsonToCortex(pkg: Record<string, unknown>): string {
  const writer = new CortexWriter();
  writer.content(rootKeyOrder(pkg), pkg, CORTEX);
  const attributes = writer.attributes(pkg, false);
  let declarations = ` xmlns="${NS.cortex}"`;
  for (const key of Object.keys(NS) as NamespaceKey[]) {
    if (writer.used.has(key) && PREFIX[key] !== '' && key !== 'xml') {
      declarations += ` xmlns:${PREFIX[key]}="${escapeXmlAttr(NS[key])}"`;
    }
  }
  const body = writer.parts.join('');
  const root = body === '' ? `<cortex${declarations}${attributes}/>` : `<cortex${declarations}${attributes}>${body}</cortex>`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${root}`;
}
