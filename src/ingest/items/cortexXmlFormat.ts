/**
 * A cortex XML document (spec 2.4, docs/decisions.md "Item package"): one package, kept
 * byte for byte as the canonical form. An input format of `ingest items` (./itemFormats.ts).
 */
import { cortexToJson } from '../../formats/cortexToJson.js';
import { RecordError } from '../../formats/recordError.js';
import { tooLargeReason, type RecordLimits } from '../../formats/recordLimits.js';
import { dropDoctype } from '../../formats/xmlDoctype.js';
import { parseXml, XmlSyntaxError, type XmlElement } from '../../formats/xmlTree.js';
import type { PreparedItem } from '../../store/Store.js';
import type { DocumentFormat, ItemReadResult } from './itemFormats.js';
import { prepareItem } from './prepareItem.js';
import { describeReadError } from './readProblem.js';

export const CORTEX_NAMESPACE = 'http://www.deutsche-digitale-bibliothek.de/cortex';

/** The package of a cortex document already parsed (package JSON turned into cortex XML comes here too). */
export function fromXml(xml: string, root: XmlElement): PreparedItem {
  if (root.local !== 'cortex' || root.namespace !== CORTEX_NAMESPACE) {
    const ns = root.namespace ? ` in namespace ${root.namespace}` : '';
    throw new RecordError(
      `unknown root element <${root.name}>${ns}; expected <cortex xmlns="${CORTEX_NAMESPACE}"> (a DDB item package) or <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"> (EDM records)`,
    );
  }
  const pkg = cortexToJson(root);
  return prepareItem(pkg, xml, JSON.stringify(pkg));
}

/** The first character that is not white space. */
export function firstCharacter(text: string): string {
  const start = text.search(/\S/);
  return start < 0 ? '' : text[start]!;
}

export const cortexXmlFormat: DocumentFormat = {
  name: 'cortex-xml',
  sniff: (head) => firstCharacter(head) === '<',
  read: 'document',
  readDocument(text: string, limits: RecordLimits, maxDepth: number): ItemReadResult[] {
    // A cortex document is one record. (A file on disk was measured before it was read: parsers.ts.)
    const bytes = text.length * 3 > limits.maxRecordBytes ? Buffer.byteLength(text, 'utf8') : 0;
    if (bytes > limits.maxRecordBytes)
      return [{ kind: 'error', reason: tooLargeReason(bytes, limits.maxRecordBytes), position: 'document' }];
    // Stored and served as given, but never with a DOCTYPE (src/formats/xmlDoctype.ts).
    const dropped = dropDoctype(text);
    const xml = dropped?.xml ?? text;
    try {
      const item = fromXml(xml, parseXml(xml, maxDepth));
      return [{ kind: 'item', item, position: 'document', ...(dropped ? { note: dropped.note } : {}) }];
    } catch (e) {
      return [
        {
          kind: 'error',
          reason: describeReadError(e),
          position: e instanceof XmlSyntaxError ? `line ${e.line}, column ${e.column}` : 'document',
        },
      ];
    }
  },
};
