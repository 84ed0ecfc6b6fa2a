/**
 * OAI-PMH request URLs for HTTP GET (OAI-PMH 2.0 section 3.1.1.1): the base URL
 * followed by `verb` and the arguments, each value percent-encoded.
 */
import { UsageError } from '../../errors.js';

export interface HarvestRequest {
  /** The repository's base URL (OAI-PMH 2.0 section 2.2), without `verb`. */
  baseUrl: string;
  metadataPrefix: string;
  set?: string;
  /** OAI datestamp, YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ (section 3.3.1). */
  from?: string;
  until?: string;
  /**
   * Continue an earlier harvest from this token instead of starting it; the
   * other selection arguments are then not sent (they are encoded in the token).
   */
  resumptionToken?: string;
}

/** The base URL parsed and checked once, so every request is built on a valid http(s) URL. */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`'${baseUrl}' is not a URL: give the OAI-PMH base URL of the repository, e.g. https://example.org/oai.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`'${baseUrl}' is not an http or https URL; OAI-PMH runs over HTTP (OAI-PMH 2.0 section 3.1).`);
  }
  if (url.searchParams.has('verb')) {
    throw new UsageError(
      `'${baseUrl}' already has a verb argument: give the base URL only, without '?verb=...' (OAI-PMH 2.0 section 2.2).`,
    );
  }
  return url;
}

/**
 * `encodeURIComponent` rather than URLSearchParams: the latter writes a space
 * as `+`, and a resumption token must come back to the repository byte for
 * byte (section 3.5); some repositories do not read `+` as a space.
 */
export function oaiUrl(baseUrl: string, args: ReadonlyArray<readonly [string, string | undefined]>): string {
  const url = checkBaseUrl(baseUrl);
  const query = args
    .filter((a): a is readonly [string, string] => a[1] !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  const existing = url.search.replace(/^\?/, '');
  url.hash = '';
  return `${url.origin}${url.pathname}?${existing ? `${existing}&` : ''}${query}`;
}

/** The first ListRecords request: the selection arguments (OAI-PMH 2.0 section 4.5). */
export function listRecordsUrl(request: HarvestRequest): string {
  return oaiUrl(request.baseUrl, [
    ['verb', 'ListRecords'],
    ['metadataPrefix', request.metadataPrefix],
    ['set', request.set],
    ['from', request.from],
    ['until', request.until],
  ]);
}

/**
 * A follow-up ListRecords request. resumptionToken is an exclusive argument
 * (OAI-PMH 2.0 section 4.5): sending metadataPrefix, set, from or until with it
 * is a badArgument, so only the verb and the token go out.
 */
export function resumptionUrl(baseUrl: string, token: string): string {
  return oaiUrl(baseUrl, [
    ['verb', 'ListRecords'],
    ['resumptionToken', token],
  ]);
}
