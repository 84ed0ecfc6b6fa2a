/**
 * The records of a ListRecords page in the `ddb` format of heritage-api's own OAI-PMH
 * provider (docs/oai-pmh.md "Formats"): each record's metadata is a whole item package, a
 * cortex document. Read with the header's identifier as the package's source id (so that a
 * later `status="deleted"` removes it, OAI-PMH 2.0 section 2.5.1).
 *
 * A package is taken as the bytes the page carries, after the XML declaration every
 * package writer of heritage-api (and the DDB's own files) puts first: a package harvested
 * from a store is then byte for byte the one stored there, with the same ETag, and a
 * harvest into a store that has it already leaves it unchanged. A page whose metadata
 * cannot be cut out so (another layout) is read from its parsed form instead.
 */
import { DEFAULT_LIMITS, type RecordLimits } from '../../formats/recordLimits.js';
import { parseXml, XmlSyntaxError, type XmlElement } from '../../formats/xmlTree.js';
import { writeXmlDocument } from '../../formats/xmlWrite.js';
import { readOaiHeader } from '../edm/oaiEnvelope.js';
import { OAI_NS } from '../edm/edmVocabulary.js';
import { readItemRecords } from '../items/readItemRecords.js';
import type { ItemChange } from '../../store/Store.js';
import type { ReadResult } from '../runIngest.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const METADATA_START = /<((?:[A-Za-z_][\w.-]*:)?)metadata(?:\s[^>]*)?>/g;

const oaiChildren = (el: XmlElement, local: string) =>
  el.children.filter((c): c is XmlElement => typeof c !== 'string' && c.namespace === OAI_NS && c.local === local);

/** The text inside each <metadata> of the page, in order. */
function metadataTexts(page: string): string[] {
  const out: string[] = [];
  METADATA_START.lastIndex = 0;
  for (let m = METADATA_START.exec(page); m !== null; m = METADATA_START.exec(page)) {
    const start = m.index + m[0].length;
    const end = page.indexOf(`</${m[1]}metadata>`, start);
    if (end < 0) break;
    out.push(page.slice(start, end).trim());
    METADATA_START.lastIndex = end;
  }
  return out;
}

export function readPackagePage(page: string, limits: RecordLimits = DEFAULT_LIMITS): Array<ReadResult<ItemChange>> {
  let root: XmlElement;
  try {
    root = parseXml(page);
  } catch (e) {
    if (e instanceof XmlSyntaxError)
      return [{ kind: 'error', reason: `the page is not well-formed XML: ${e.reason}`, position: `line ${e.line}, column ${e.column}` }];
    throw e;
  }
  const records = oaiChildren(root, 'ListRecords').flatMap((l) => oaiChildren(l, 'record'));
  const texts = metadataTexts(page);
  const withMetadata = records.filter((r) => oaiChildren(r, 'metadata').length > 0);
  // The cut is trusted only when it found one text per record with metadata.
  const raw = texts.length === withMetadata.length ? texts : undefined;
  const out: Array<ReadResult<ItemChange>> = [];
  let next = 0;
  for (const record of records) {
    const headerEl = oaiChildren(record, 'header')[0];
    const header = headerEl === undefined ? undefined : readOaiHeader(headerEl);
    const position = `record ${header?.identifier || out.length + 1}`;
    const metadata = oaiChildren(record, 'metadata')[0];
    const text = metadata === undefined ? undefined : raw?.[next++];
    if (header === undefined || header.identifier === '') {
      out.push({ kind: 'error', reason: 'the record has no header identifier', position });
      continue;
    }
    if (header.deleted) {
      out.push({ kind: 'record', record: { kind: 'delete', sourceId: header.identifier }, position });
      continue;
    }
    const element = metadata?.children.find((c): c is XmlElement => typeof c !== 'string');
    if (element === undefined) {
      out.push({ kind: 'error', reason: 'the record has no metadata', position });
      continue;
    }
    const document = text !== undefined && text.startsWith('<') ? `${DECLARATION}${text}` : writeXmlDocument(element);
    const [read] = readItemRecords(document, limits);
    if (read?.kind === 'item')
      out.push({ kind: 'record', record: { kind: 'upsert', item: { ...read.item, sourceId: header.identifier } }, position });
    else out.push({ kind: 'error', reason: read?.kind === 'error' ? read.reason : 'no package in the metadata', position });
  }
  return out;
}
