// The parts of an OAI-PMH 2.0 response the EDM reader turns into results: a record's
// `header` (section 2.5) and an `error` element (section 3.6).
// http://www.openarchives.org/OAI/openarchivesprotocol.html
//
// The reader does not follow resumption tokens or check the verb: that is the
// harvester's job (src/ingest/oai/). It reads a response body like any other input, so
// that a page saved to disk loads the same as one fetched live.

import type { XmlElement } from '../../formats/xmlTree.js';
import { OAI_NS, textOf } from './edmVocabulary.js';
import type { OaiHeader } from './types.js';

function oaiChildren(element: XmlElement, local: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string' && c.namespace === OAI_NS && c.local === local);
}

/** Section 2.5: identifier (exactly one), datestamp (exactly one), setSpec (any), status="deleted". */
export function readOaiHeader(header: XmlElement): OaiHeader {
  const identifier = oaiChildren(header, 'identifier')[0];
  const datestamp = oaiChildren(header, 'datestamp')[0];
  const status = header.attributes.find((a) => a.namespace === '' && a.local === 'status');
  return {
    identifier: identifier === undefined ? '' : textOf(identifier).trim(),
    datestamp: datestamp === undefined ? null : textOf(datestamp).trim(),
    deleted: status?.value === 'deleted',
    sets: oaiChildren(header, 'setSpec').map((s) => textOf(s).trim()),
  };
}

/** What each error code of section 3.6 means, for a response that gives no message. */
const ERROR_MEANINGS: Readonly<Record<string, string>> = {
  badArgument: 'the request has an illegal or missing argument, or an argument repeated',
  badResumptionToken: 'the resumptionToken is invalid or expired',
  badVerb: 'the verb is illegal, missing or repeated',
  cannotDisseminateFormat: 'the metadataPrefix is not supported by the item or the repository',
  idDoesNotExist: 'the identifier is unknown or illegal in this repository',
  noRecordsMatch: 'the combination of from, until, set and metadataPrefix gives an empty list',
  noMetadataFormats: 'there are no metadata formats for the item',
  noSetHierarchy: 'the repository does not support sets',
};

/** `OAI-PMH error <code>: <message>`, with the meaning from section 3.6 when the message is empty. */
export function readOaiError(error: XmlElement): string {
  const code = error.attributes.find((a) => a.namespace === '' && a.local === 'code')?.value ?? '';
  const message = textOf(error).replace(/\s+/g, ' ').trim() || ERROR_MEANINGS[code] || 'no message given';
  return `OAI-PMH error ${code || '(no code)'}: ${message}`;
}
