/**
 * GET /items/{id}/children bodies (docs/decisions.md "Children"): the nodes in the shape
 * of `parents` (./hierarchy.ts, docs/decisions.md "Hierarchy"), each with
 * `childCount` so that a tree loads without a request per node, after the
 * number of children in all.
 *
 * JSON: `{"numberOfResults": n, "hierarchy": [node...]}`.
 * XML: `<hierarchy xmlns:ns2="…/item">` holding `<numberOfResults>`, then one
 * `<ns2:hierarchy-node>` per node with unprefixed children, as `parents`
 * writes them (the flag is `isAggregationEntity` there).
 */
import type { ChildPage } from '../../domain/hierarchy.js';
import { HIERARCHY_NAMESPACE, XML_DECLARATION } from './hierarchy.js';
import { escapeXmlText } from '../../formats/xmlEscape.js';

export function childrenToJson(page: ChildPage): string {
  return JSON.stringify({
    numberOfResults: page.total,
    hierarchy: page.nodes.map((n) => ({
      id: n.id,
      parent: n.parent,
      label: n.label,
      type: n.type,
      position: n.position,
      leaf: n.leaf,
      aggregationEntity: n.aggregationEntity,
      childCount: n.childCount,
    })),
  });
}

export function childrenToXml(page: ChildPage): string {
  const count = `<numberOfResults>${page.total}</numberOfResults>`;
  if (page.nodes.length === 0) return `${XML_DECLARATION}<hierarchy>${count}</hierarchy>`;
  const parts = [`${XML_DECLARATION}<hierarchy xmlns:ns2="${HIERARCHY_NAMESPACE}">`, count];
  for (const n of page.nodes) {
    parts.push(
      '<ns2:hierarchy-node>',
      `<id>${escapeXmlText(n.id)}</id>`,
      n.parent === null ? '' : `<parent>${escapeXmlText(n.parent)}</parent>`,
      `<label>${escapeXmlText(n.label)}</label>`,
      `<type>${escapeXmlText(n.type)}</type>`,
      `<position>${escapeXmlText(n.position)}</position>`,
      `<leaf>${n.leaf}</leaf>`,
      `<isAggregationEntity>${n.aggregationEntity}</isAggregationEntity>`,
      `<childCount>${n.childCount}</childCount>`,
      '</ns2:hierarchy-node>',
    );
  }
  parts.push('</hierarchy>');
  return parts.join('');
}
