/**
 * The OAI-PMH 2.0 ListRecords client: every page of a (selective) harvest,
 * following resumption tokens (OAI-PMH 2.0 sections 3.5 and 4.5).
 * http://www.openarchives.org/OAI/openarchivesprotocol.html
 */
import { checkDateRange } from './datestamp.js';
import { HarvestHttpError, OaiError } from './errors.js';
import type { ClientOptions } from './httpGet.js';
import { oaiExchange } from './oaiExchange.js';
import { checkBaseUrl, listRecordsUrl, resumptionUrl, type HarvestRequest } from './oaiRequest.js';
import { listControl } from './oaiResponse.js';
import { UsageError } from '../../errors.js';

export { HarvestHttpError, OaiError } from './errors.js';
export type { ClientOptions, RetryInfo } from './httpGet.js';
export type { HarvestRequest } from './oaiRequest.js';

export interface OaiPage {
  /** The request that gave this page. */
  url: string;
  /** The whole response, for the EDM reader (without a DOCTYPE declaration). */
  body: string;
  /** Said in the load report when the response's DOCTYPE declaration was dropped. */
  doctypeNote: string | null;
  responseDate: string | null;
  /** The token for the next page; null on the last page. Save it to resume a stopped harvest. */
  resumptionToken: string | null;
  completeListSize: number | null;
  cursor: number | null;
  /** `<record>` elements on this page, deleted ones included. */
  recordCount: number;
}

/**
 * Yields each page of ListRecords until the repository sends an empty (or no)
 * resumptionToken.
 *
 * - The first request carries metadataPrefix, set, from and until; every later
 *   one only the token, since resumptionToken is exclusive (section 4.5).
 *   With `request.resumptionToken`, the harvest starts at that token.
 * - `noRecordsMatch` (section 3.6) is not a failure: nothing changed in the
 *   selection since `from`, which is the normal result of an incremental run.
 *   The generator then yields no page and returns.
 * - Any other OAI-PMH error throws OaiError; a repository that is unreachable,
 *   keeps failing or is not an OAI-PMH endpoint throws HarvestHttpError; a
 *   bad argument (from, until, baseUrl) throws UsageError before any request.
 */
export async function* listRecordsPages(request: HarvestRequest, options: ClientOptions = {}): AsyncGenerator<OaiPage> {
  checkBaseUrl(request.baseUrl);
  if (request.resumptionToken === undefined) {
    if (!request.metadataPrefix)
      throw new UsageError('metadataPrefix is required to start a ListRecords harvest (OAI-PMH 2.0 section 4.5).');
    checkDateRange(request.from, request.until);
  }

  let token = request.resumptionToken ?? null;
  for (;;) {
    const url = token === null ? listRecordsUrl(request) : resumptionUrl(request.baseUrl, token);
    const answer = await oaiExchange(url, 'ListRecords', options);
    if (answer.errors.length > 0) {
      const fatal = answer.errors.find((e) => e.code !== 'noRecordsMatch');
      if (!fatal) return;
      throw new OaiError(fatal.code || '(no code)', fatal.message, url);
    }
    if (answer.verbElement === null) {
      throw new HarvestHttpError(
        `${url} answered with an OAI-PMH response that has neither <ListRecords> nor <error> (OAI-PMH 2.0 section 4.5).`,
        { url, attempts: answer.attempts, status: answer.status },
      );
    }
    const control = listControl(answer.verbElement);
    yield { url, body: answer.body, doctypeNote: answer.doctypeNote, responseDate: answer.responseDate, ...control };
    if (control.resumptionToken === null) return;
    // A repository that hands back the token it was just given would be
    // harvested forever; section 3.5 says each token leads to the next part.
    if (control.resumptionToken === token) {
      throw new HarvestHttpError(
        `${url} returned the same resumptionToken it was sent ('${token}'); stopping instead of looping (OAI-PMH 2.0 section 3.5).`,
        { url, attempts: answer.attempts, status: answer.status },
      );
    }
    token = control.resumptionToken;
  }
}
