/**
 * GET /items/{id}/parents bodies, spec 2.3 and docs/decisions.md "Hierarchy".
 *
 * XML: `<hierarchy>` holding one `<ns2:hierarchy-node>` per node, ns2 bound
 * to HIERARCHY_NAMESPACE; children unprefixed; `parent` omitted for the root;
 * the flag is `isAggregationEntity` there. Consumers match on the namespace
 * URI, so it is part of the contract (docs/api.md).
 */
import type { HierarchyNode } from '../../domain/hierarchy.js';
import { escapeXmlText } from '../../formats/xmlEscape.js';

export const HIERARCHY_NAMESPACE = 'http://www.deutsche-digitale-bibliothek.de/item';
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

export function hierarchyToJson(nodes: readonly HierarchyNode[]): string {
  // Property order follows spec 2.3: id, parent, label, type, position, leaf, aggregationEntity.
  return JSON.stringify({
    hierarchy: nodes.map((n) => ({
      id: n.id,
      parent: n.parent,
      label: n.label,
      type: n.type,
      position: n.position,
      leaf: n.leaf,
      aggregationEntity: n.aggregationEntity,
    })),
  });
}

export function hierarchyToXml(nodes: readonly HierarchyNode[]): string {
  if (nodes.length === 0) return `${XML_DECLARATION}<hierarchy/>`;
  const parts = [`${XML_DECLARATION}<hierarchy xmlns:ns2="${HIERARCHY_NAMESPACE}">`];
  for (const n of nodes) {
    parts.push(
      '<ns2:hierarchy-node>',
      `<id>${escapeXmlText(n.id)}</id>`,
      n.parent === null ? '' : `<parent>${escapeXmlText(n.parent)}</parent>`,
      `<label>${escapeXmlText(n.label)}</label>`,
      `<type>${escapeXmlText(n.type)}</type>`,
      `<position>${escapeXmlText(n.position)}</position>`,
      `<leaf>${n.leaf}</leaf>`,
      `<isAggregationEntity>${n.aggregationEntity}</isAggregationEntity>`,
      '</ns2:hierarchy-node>',
    );
  }
  parts.push('</hierarchy>');
  return parts.join('');
}
