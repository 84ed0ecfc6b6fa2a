/**
 * One OAI-PMH request and its checked answer: the HTTP layer's result turned
 * into either a parsed OAI-PMH response or one of the two harvest errors.
 */
import { dropDoctype } from '../../formats/xmlDoctype.js';
import { HarvestHttpError } from './errors.js';
import { httpGet, type ClientOptions } from './httpGet.js';
import { NotOaiResponse, parseOaiResponse, type OaiResponse } from './oaiResponse.js';

export interface OaiAnswer extends OaiResponse {
  url: string;
  status: number;
  attempts: number;
  /** The body, without its DOCTYPE declaration (src/formats/xmlDoctype.ts). */
  body: string;
  /** What the load report says when a DOCTYPE was dropped; null when there was none. */
  doctypeNote: string | null;
}

/**
 * OAI-PMH errors are reported in a 200 response (section 3.6), but some
 * repositories send them with a 4xx; a parseable OAI-PMH body is taken as the
 * answer either way, so the caller sees badArgument rather than "HTTP 400".
 */
export async function oaiExchange(url: string, verb: string, options: ClientOptions): Promise<OaiAnswer> {
  const answer = await httpGet(url, options);
  const ok = answer.status >= 200 && answer.status <= 299;
  // No DTD is read, and none is passed on to the records built from the page.
  const dropped = dropDoctype(answer.body);
  const body = dropped?.xml ?? answer.body;
  let parsed: OaiResponse;
  try {
    parsed = parseOaiResponse(body, verb);
  } catch (e) {
    if (!(e instanceof NotOaiResponse)) throw e;
    if (!ok) {
      throw new HarvestHttpError(`${url} answered HTTP ${answer.status}${snippet(answer.body)}`, {
        url,
        attempts: answer.attempts,
        status: answer.status,
      });
    }
    throw new HarvestHttpError(
      `${url} does not look like an OAI-PMH endpoint: the answer (HTTP ${answer.status}, ${answer.contentType || 'no Content-Type'}) ` +
        `is not an OAI-PMH response because ${e.message}. Check that the URL is the repository's OAI-PMH base URL.`,
      { url, attempts: answer.attempts, status: answer.status },
    );
  }
  if (!ok && parsed.errors.length === 0) {
    throw new HarvestHttpError(`${url} answered HTTP ${answer.status} with an OAI-PMH response that reports no error.`, {
      url,
      attempts: answer.attempts,
      status: answer.status,
    });
  }
  return { ...parsed, url, status: answer.status, attempts: answer.attempts, body, doctypeNote: dropped?.note ?? null };
}

function snippet(body: string): string {
  const t = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t === '' ? '.' : `: ${t.length > 200 ? `${t.slice(0, 200)}…` : t}`;
}
