/**
 * The two ways a harvest fails, kept apart because the caller reacts differently:
 * an OaiError is the repository answering "no" in the protocol (OAI-PMH 2.0
 * section 3.6), a HarvestHttpError is the transport or the endpoint failing to
 * give a usable OAI-PMH answer at all (section 3.1.2: the two are distinct).
 */

/** An `<error code="...">` in an OAI-PMH response (OAI-PMH 2.0 section 3.6). */
export class OaiError extends Error {
  override readonly name = 'OaiError';
  /** The OAI-PMH error code, e.g. badArgument, badResumptionToken, cannotDisseminateFormat. */
  readonly code: string;
  /** The text of the error element, as the repository wrote it ('' if it gave none). */
  readonly serverMessage: string;
  /** The request that got this answer. */
  readonly url: string;

  constructor(code: string, serverMessage: string, url: string) {
    super(`The OAI-PMH repository answered ${code}${serverMessage ? `: ${serverMessage}` : ''} (request: ${url})`);
    this.code = code;
    this.serverMessage = serverMessage;
    this.url = url;
  }
}

/**
 * The endpoint could not be reached, kept failing after the retries, answered
 * with an HTTP error that is not retried, or answered with something that is
 * not an OAI-PMH response.
 */
export class HarvestHttpError extends Error {
  override readonly name = 'HarvestHttpError';
  /** The HTTP status of the last answer; undefined when there was none (network error, timeout). */
  readonly status?: number;
  readonly url: string;
  /** How many times the request was sent. */
  readonly attempts: number;

  constructor(message: string, details: { url: string; attempts: number; status?: number; cause?: unknown }) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.url = details.url;
    this.attempts = details.attempts;
    if (details.status !== undefined) this.status = details.status;
  }
}
