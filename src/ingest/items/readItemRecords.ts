/**
 * Reads the item packages in one input file (spec 2.4, docs/decisions.md
 * "Item package"):
 * - a cortex XML document: kept byte for byte as the canonical form;
 * - package JSON (one package, or an array of packages): read keeping
 *   repeated keys, then turned into cortex XML, which becomes canonical.
 * The JSON form served is always derived from the canonical XML, so both
 * representations of an item say the same thing.
 */
import { cortexToJson } from '../../formats/cortexToJson.js';
import { jsonToCortex } from '../../formats/jsonToCortex.js';
import { JsonLimitError, JsonSyntaxError, parsePackageJsonRecords } from '../../formats/packageJson.js';
import { DEFAULT_LIMITS, MAX_NESTING_DEPTH, tooLargeReason, type RecordLimits } from '../../formats/recordLimits.js';
import { dropDoctype } from '../../formats/xmlDoctype.js';
import { parseXml, XmlSyntaxError, XmlTooDeepError, type XmlElement } from '../../formats/xmlTree.js';
import type { ItemChange, PreparedItem } from '../../store/Store.js';
import type { ReadResult } from '../runIngest.js';
import { prepareItem } from './prepareItem.js';
import { RecordError } from '../../formats/recordError.js';

export const CORTEX_NAMESPACE = 'http://www.deutsche-digitale-bibliothek.de/cortex';

export type ItemReadResult =
  /** `note`: what was changed on the way in (a DOCTYPE dropped), for the load report. */
  | { kind: 'item'; item: PreparedItem; position: string; note?: string }
  | { kind: 'error'; reason: string; position: string };

function fromXml(xml: string, root: XmlElement): PreparedItem {
  if (root.local !== 'cortex' || root.namespace !== CORTEX_NAMESPACE) {
    const ns = root.namespace ? ` in namespace ${root.namespace}` : '';
    throw new RecordError(`unknown root element <${root.name}>${ns}; expected <cortex xmlns="${CORTEX_NAMESPACE}"> (a DDB item package) or <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"> (EDM records)`);
  }
  const pkg = cortexToJson(root);
  return prepareItem(pkg, xml, JSON.stringify(pkg));
}

function fromPackageJson(pkg: unknown): PreparedItem {
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) {
    throw new RecordError('a package must be a JSON object with the parts of spec 2.4 (properties, edm, ...)');
  }
  const xml = jsonToCortex(pkg as Record<string, unknown>);
  return fromXml(xml, parseXml(xml));
}

function describe(e: unknown): string {
  if (e instanceof XmlSyntaxError) return `not well-formed XML: ${e.reason}`;
  if (e instanceof JsonSyntaxError) return `not valid JSON: ${e.reason}`;
  if (e instanceof RecordError || e instanceof XmlTooDeepError || e instanceof JsonLimitError) return e.message;
  throw e;
}

/**
 * Packages built from EDM (src/ingest/items/edmItems.ts) nest a few levels deeper
 * than the record they come from (cortex > edm > rdf:RDF), which the EDM reader
 * held to MAX_NESTING_DEPTH already.
 */
export const BUILT_PACKAGE_DEPTH = MAX_NESTING_DEPTH + 8;

/** The packages of one document; a record over the limits is an error, the others are read. */
export function readItemRecords(text: string, limits: RecordLimits = DEFAULT_LIMITS, maxDepth = MAX_NESTING_DEPTH): ItemReadResult[] {
  const start = text.search(/\S/);
  const first = start < 0 ? '' : text[start];
  if (first === '<') {
    // A cortex document is one record. (A file on disk was measured before it was read: parsers.ts.)
    const bytes = text.length * 3 > limits.maxRecordBytes ? Buffer.byteLength(text, 'utf8') : 0;
    if (bytes > limits.maxRecordBytes) return [{ kind: 'error', reason: tooLargeReason(bytes, limits.maxRecordBytes), position: 'document' }];
    // Stored and served as given, but never with a DOCTYPE (src/formats/xmlDoctype.ts).
    const dropped = dropDoctype(text);
    const xml = dropped?.xml ?? text;
    try {
      const item = fromXml(xml, parseXml(xml, maxDepth));
      return [{ kind: 'item', item, position: 'document', ...(dropped ? { note: dropped.note } : {}) }];
    } catch (e) {
      return [{ kind: 'error', reason: describe(e), position: e instanceof XmlSyntaxError ? `line ${e.line}, column ${e.column}` : 'document' }];
    }
  }
  if (first === '{' || first === '[') {
    let parsed: unknown;
    let refused: Map<number, string>;
    try {
      ({ value: parsed, refused } = parsePackageJsonRecords(text, limits));
    } catch (e) {
      return [{ kind: 'error', reason: describe(e), position: e instanceof JsonSyntaxError ? `line ${e.line}, column ${e.column}` : 'document' }];
    }
    const packages = Array.isArray(parsed) ? parsed : [parsed];
    return packages.map((pkg, i) => {
      const position = Array.isArray(parsed) ? `record ${i + 1}` : 'document';
      const tooBig = refused.get(i);
      if (tooBig !== undefined) return { kind: 'error', reason: tooBig, position };
      try {
        return { kind: 'item', item: fromPackageJson(pkg), position };
      } catch (e) {
        return { kind: 'error', reason: describe(e), position };
      }
    });
  }
  return [{ kind: 'error', reason: start < 0 ? 'the file is empty' : 'neither XML nor JSON: expected a cortex XML document or package JSON', position: 'document' }];
}

/** The packages of one document as item changes for a load. */
export function readPackageChanges(text: string, limits: RecordLimits = DEFAULT_LIMITS): ReadResult<ItemChange>[] {
  return readItemRecords(text, limits).flatMap((r): ReadResult<ItemChange>[] => {
    if (r.kind !== 'item') return [r];
    const record: ReadResult<ItemChange> = { kind: 'record', record: { kind: 'upsert', item: r.item }, position: r.position };
    return r.note === undefined ? [record] : [{ kind: 'note', note: r.note, position: r.position }, record];
  });
}
