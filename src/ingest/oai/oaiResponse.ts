/**
 * Reads the control part of an OAI-PMH response (OAI-PMH 2.0 section 3.2):
 * responseDate, error elements, the resumptionToken of a list response and the
 * number of records. The records' metadata is left unparsed (a stop node): it
 * is read later, from the page body, by the EDM reader.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface OaiErrorElement {
  code: string;
  message: string;
}

export interface OaiResponse {
  responseDate: string | null;
  /** Every `<error>`; section 3.6 allows several in one response. */
  errors: OaiErrorElement[];
  /** The verb element (ListRecords, Identify, ...) when present, parsed without the metadata. */
  verbElement: Record<string, unknown> | null;
}

export interface ListControl {
  /** null when the element is absent or empty: the list is complete (section 3.5). */
  resumptionToken: string | null;
  completeListSize: number | null;
  cursor: number | null;
  recordCount: number;
}

/** The body is not an OAI-PMH response; `reason` says what it is instead. */
export class NotOaiResponse extends Error {}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Repositories differ in prefixes (`oai:OAI-PMH` vs a default namespace);
  // the control elements are matched by local name.
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  stopNodes: ['*.metadata', '*.about'],
  isArray: (name) => name === 'record' || name === 'error',
});

export function parseOaiResponse(body: string, verb: string): OaiResponse {
  // The usual wrong URL is a repository's web page; saying so beats quoting
  // the XML validator's complaint about an unclosed <br>.
  if (/^\uFEFF?\s*(<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html[\s>])/i.test(body)) throw new NotOaiResponse('it is an HTML page');
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    throw new NotOaiResponse(`it is not well-formed XML (line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg})`);
  }
  const doc = parser.parse(body) as Record<string, unknown>;
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('!'));
  const root = doc['OAI-PMH'];
  if (!isObject(root)) {
    throw new NotOaiResponse(rootName ? `its root element is <${rootName}>, not <OAI-PMH>` : 'it has no root element');
  }
  const errors = asArray(root['error']).map((e) =>
    isObject(e) ? { code: String((e['@code'] as string | undefined) ?? ''), message: text(e) } : { code: '', message: String(e) },
  );
  const verbElement = root[verb];
  return {
    responseDate: typeof root['responseDate'] === 'string' ? root['responseDate'] : null,
    errors,
    // `<ListRecords/>` parses to '' (no children); it is present but empty.
    verbElement: isObject(verbElement) ? verbElement : verbElement === '' ? {} : null,
  };
}

/** The flow-control state of a list response (OAI-PMH 2.0 section 3.5). */
export function listControl(listElement: Record<string, unknown>): ListControl {
  const token = listElement['resumptionToken'];
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the XML parser gives a scalar or an element object
  const tokenText = token === undefined ? '' : isObject(token) ? text(token) : String(token);
  return {
    resumptionToken: tokenText === '' ? null : tokenText,
    completeListSize: isObject(token) ? integer(token['@completeListSize']) : null,
    cursor: isObject(token) ? integer(token['@cursor']) : null,
    recordCount: asArray(listElement['record']).length,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asArray(v: unknown): unknown[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function text(element: Record<string, unknown>): string {
  const t = element['#text'];
  return typeof t === 'string' ? t.trim() : '';
}

function integer(v: unknown): number | null {
  return typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : null;
}
