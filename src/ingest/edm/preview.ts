/**
 * Title, subtitle and media of an item, shared by `preview` and `view`, and
 * the `preview` part (spec 2.4: @type, @media, title, subtitle, thumbnail/@href).
 */
import { NS } from '../../formats/namespaces.js';
import { binaryPath, type Binary } from './binaries.js';
import { node, textNode, type Node } from './cortexWriter.js';
import { literals, props, type RdfGraph } from './rdfGraph.js';

/**
 * The first dc:title of the CHO: the same value the store takes as the hierarchy label
 * (prepareItem.ts), so `parents` and the package agree; else dcterms:alternative; else "".
 */
export function titleOf(graph: RdfGraph): string {
  return literals(graph.cho, NS.dc, 'title')[0] ?? literals(graph.cho, NS.dcterms, 'alternative')[0] ?? '';
}

/**
 * The kind of object, as the real packages' subtitle ("Druckgraphik" in 4XUD...): the
 * first dc:type (its text, or the label of the concept it references), else the first
 * edm:hasType concept's label; "" when the record has neither. (For a part of a book the
 * DDB writes "Erschienen in: <title of the whole>", NF42..., which the record alone
 * does not give.)
 */
export function subtitleOf(graph: RdfGraph): string {
  for (const el of [...props(graph.cho, NS.dc, 'type'), ...props(graph.cho, NS.edm, 'hasType')]) {
    const value = graph.valueOf(el);
    if (value !== undefined && value.text !== value.resource) return value.text;
  }
  return '';
}

export function previewPart(
  itemId: string,
  cortexType: string,
  media: string,
  title: string,
  subtitle: string,
  primary: Binary | undefined,
): Node {
  const children: Node[] = [textNode(NS.cortex, 'title', title), textNode(NS.cortex, 'subtitle', subtitle)];
  if (primary) children.push(node(NS.cortex, 'thumbnail', [{ name: 'href', value: binaryPath(itemId, primary) }]));
  return node(
    NS.cortex,
    'preview',
    [
      { name: 'type', value: cortexType },
      { name: 'media', value: media },
    ],
    children,
  );
}
