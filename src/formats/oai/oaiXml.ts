/**
 * The XML of OAI-PMH 2.0 responses (http://www.openarchives.org/OAI/openarchivesprotocol.html,
 * section 3.2: the envelope; 2.5: the record header; 3.6: errors), written by hand with every
 * value escaped (../xmlEscape.ts). Metadata is passed in as an element already written.
 */
import { escapeXmlAttr, escapeXmlText } from '../xmlEscape.js';

export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const OAI_SCHEMA = 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd';

/** The error codes of section 3.6. */
export type OaiErrorCode =
  | 'badArgument'
  | 'badResumptionToken'
  | 'badVerb'
  | 'cannotDisseminateFormat'
  | 'idDoesNotExist'
  | 'noRecordsMatch'
  | 'noMetadataFormats'
  | 'noSetHierarchy';

export interface OaiErrorItem {
  code: OaiErrorCode;
  message: string;
}

/** Seconds since 1970 as a UTC datestamp at seconds granularity (section 3.3). */
export function utcDatestamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const text = (value: string): string => escapeXmlText(value);

/** `<name>value</name>` with the value escaped. */
export function element(name: string, value: string): string {
  return `<${name}>${escapeXmlText(value)}</${name}>`;
}

/**
 * The envelope around `body`. `request` holds the arguments to echo as attributes; null for
 * badVerb and badArgument, whose responses give the base URL only (section 3.2).
 */
export function oaiDocument(responseDate: Date, baseUrl: string, request: Readonly<Record<string, string>> | null, body: string): string {
  const attributes =
    request === null
      ? ''
      : Object.entries(request)
          .map(([k, v]) => ` ${k}="${escapeXmlAttr(v)}"`)
          .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<OAI-PMH xmlns="${OAI_NS}" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="${OAI_NS} ${OAI_SCHEMA}">` +
    `<responseDate>${responseDate.toISOString().replace(/\.\d{3}Z$/, 'Z')}</responseDate>` +
    `<request${attributes}>${escapeXmlText(baseUrl)}</request>` +
    body +
    '</OAI-PMH>\n'
  );
}

export function errorElements(errors: readonly OaiErrorItem[]): string {
  return errors.map((e) => `<error code="${e.code}">${escapeXmlText(e.message)}</error>`).join('');
}

export interface HeaderFields {
  identifier: string;
  datestamp: number;
  deleted: boolean;
  sets: readonly string[];
}

export function headerElement(h: HeaderFields): string {
  return (
    `<header${h.deleted ? ' status="deleted"' : ''}>${element('identifier', h.identifier)}${element('datestamp', utcDatestamp(h.datestamp))}` +
    h.sets.map((s) => element('setSpec', s)).join('') +
    '</header>'
  );
}

/** A record: its header, and its metadata element unless deleted. */
export function recordElement(h: HeaderFields, metadata: string | undefined): string {
  return `<record>${headerElement(h)}${metadata === undefined ? '' : `<metadata>${metadata}</metadata>`}</record>`;
}

/** The resumptionToken of a list page (section 3.5): empty on the last page of a list that had one. */
export function resumptionTokenElement(token: string | null, cursor: number): string {
  return token === null
    ? `<resumptionToken cursor="${cursor}"/>`
    : `<resumptionToken cursor="${cursor}">${escapeXmlText(token)}</resumptionToken>`;
}
