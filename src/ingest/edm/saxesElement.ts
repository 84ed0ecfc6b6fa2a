// Building the project's XmlElement tree (src/formats/xmlTree.ts) from saxes events, so
// that a record read by the streaming EDM reader has exactly the shape parseXml gives for
// the same element: namespace URIs resolved, xmlns declarations not reported as
// attributes, attributes in document order, entities decoded, CDATA as text, comments and
// processing instructions dropped, adjacent text joined into one string.

import type { SaxesTagNS } from 'saxes';
import { XMLNS_NAMESPACE, type XmlElement } from '../../formats/xmlTree.js';

export function elementFromTag(tag: SaxesTagNS): XmlElement {
  const attributes = [];
  // Object key order is insertion order for non-numeric keys, and XML names never are
  // numeric, so this is document order.
  for (const attribute of Object.values(tag.attributes)) {
    if (attribute.uri === XMLNS_NAMESPACE) continue;
    attributes.push({
      name: attribute.name,
      local: attribute.local,
      prefix: attribute.prefix,
      namespace: attribute.uri,
      value: attribute.value,
    });
  }
  return { name: tag.name, prefix: tag.prefix, local: tag.local, namespace: tag.uri, attributes, children: [] };
}

/** Text and CDATA both become text; a piece next to text already there joins it. */
export function appendText(element: XmlElement, text: string): void {
  if (text === '') return;
  const last = element.children.length - 1;
  const previous = element.children[last];
  if (typeof previous === 'string') element.children[last] = previous + text;
  else element.children.push(text);
}
