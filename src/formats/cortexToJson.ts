// cortexToJson: the JSON form of an item package, derived from its cortex XML.
//
// Why: docs/decisions.md ("Item package") makes the cortex XML canonical and the JSON form a
// fixed mapping of it; spec 2.4 shows the resulting shape. The mapping, element by
// element:
// - an element with xsi:nil="true" (or "1") is `null`;
// - an element with neither attributes nor child elements is its text, verbatim (an empty
//   element is "");
// - otherwise an object: attributes first, in document order, as `@<local name>` (prefix
//   dropped, `ns3:about` -> `@about`; the xsi:nil attribute itself is not emitted; when
//   two attributes share a local name the first wins); then child elements by local name
//   (prefix dropped), in order of first occurrence, repeated names (adjacent or not)
//   merged into one array in document order; then `$` with the text when the text is not
//   whitespace-only (all text pieces joined).
// The root element's object is the result, without a wrapping key.
//
// Linear in the size of the tree: one Map per element, no repeated scans.

import type { XmlElement } from './xmlTree.js';
import { NS } from './namespaces.js';
import { isXmlWhitespace, setOwn } from './jsonValues.js';

function isNil(el: XmlElement): boolean {
  return el.attributes.some((a) => a.namespace === NS.xsi && a.local === 'nil' && (a.value.trim() === 'true' || a.value.trim() === '1'));
}

function elementValue(el: XmlElement): unknown {
  if (isNil(el)) return null;
  const attributes = el.attributes.filter((a) => !(a.namespace === NS.xsi && a.local === 'nil'));
  const elements: XmlElement[] = [];
  const texts: string[] = [];
  for (const child of el.children) {
    if (typeof child === 'string') texts.push(child);
    else elements.push(child);
  }
  const text = texts.join('');
  if (attributes.length === 0 && elements.length === 0) return text;

  const out: Record<string, unknown> = {};
  for (const a of attributes) {
    const key = `@${a.local}`;
    if (!Object.hasOwn(out, key)) setOwn(out, key, a.value);
  }
  const groups = new Map<string, unknown[]>();
  for (const child of elements) {
    const values = groups.get(child.local);
    if (values === undefined) groups.set(child.local, [elementValue(child)]);
    else values.push(elementValue(child));
  }
  for (const [key, values] of groups) setOwn(out, key, values.length === 1 ? values[0] : values);
  if (!isXmlWhitespace(text)) out['$'] = text;
  return out;
}

/** The JSON form of a cortex package (or of any element, by the same mapping). */
export function cortexToJson(root: XmlElement): Record<string, unknown> {
  const value = elementValue(root);
  if (value !== null && typeof value === 'object') return value as Record<string, unknown>;
  // A root without attributes or children: keep meaningful text under `$`.
  return typeof value === 'string' && !isXmlWhitespace(value) ? { $: value } : {};
}
