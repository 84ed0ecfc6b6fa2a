/**
 * Error bodies, docs/decisions.md "Errors": JSON `{status, name, message}` (plus
 * `requestId` on a 500), or the same children in
 * `<error xmlns="http://www.deutsche-digitale-bibliothek.de/error">` when the
 * client asked for XML. Never a stack trace.
 */
import { escapeXmlText } from '../../formats/xmlEscape.js';
import { XML_DECLARATION } from './hierarchy.js';

export const ERROR_NAMESPACE = 'http://www.deutsche-digitale-bibliothek.de/error';

export interface ErrorBody {
  status: number;
  name: string;
  message: string;
  requestId?: string;
}

export function errorToJson(e: ErrorBody): string {
  return JSON.stringify(e);
}

export function errorToXml(e: ErrorBody): string {
  const requestId = e.requestId === undefined ? '' : `<requestId>${escapeXmlText(e.requestId)}</requestId>`;
  return (
    `${XML_DECLARATION}<error xmlns="${ERROR_NAMESPACE}">` +
    `<status>${e.status}</status><name>${escapeXmlText(e.name)}</name>` +
    `<message>${escapeXmlText(e.message)}</message>${requestId}</error>`
  );
}
