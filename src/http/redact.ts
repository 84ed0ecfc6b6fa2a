/**
 * Removes API keys from text taken from a request (a URL, a path, an id)
 * before it is logged or echoed in a message (docs/decisions.md "Keys
 * never leak": however the request is written).
 *
 * A key can hide behind percent-encoded names (`oauth%5Fconsumer%5Fkey`,
 * `%6Fauth_consumer_key`), upper-case hex, double encoding, `+`, suffixes
 * (`oauth_consumer_key[]`), repeated parameters, encoded delimiters inside a
 * value (`x=1%26oauth_consumer_key%3DKEY`), or in the path when a client
 * writes `&` or `;` instead of `?`. So the text is cut at every delimiter,
 * each piece is decoded as often as it decodes, case-folded, and any piece
 * that names a credential loses its value; a credential name standing alone
 * (`/oauth_consumer_key/KEY`) loses the piece after it too. Redacting too
 * much in a log line costs nothing; too little leaks a key.
 */

const DELIMITERS = /([?&;/#])/;

/**
 * Names that carry a credential, after decoding and case-folding: the key's
 * own name in any spelling (`oauth_consumer_key`, `oauth_consumer_key[]`),
 * the other OAuth 1.0 parameters (a token or signature is as private), and
 * the names a confused client might try (`api_key`, `consumerKey`).
 */
const CREDENTIAL = /oauth|consumer.?key|api.?key|access.?token/;
/** A piece that is only such a name, with nothing that could be a key in it. */
const BARE_NAME = /^[a-z_.\-[\] ]{1,24}$/;

export const REDACTED = '[redacted]';

/** `%XX` sequences decoded one level; invalid ones left as they are (never throws). */
function decodeOnce(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      // Not UTF-8: byte by byte as Latin-1, enough to read a name.
      return run.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/** Decoded as often as it changes (double, triple encoding), case-folded. */
function readable(text: string): string {
  let now = text;
  for (let i = 0; i < 5; i++) {
    const next = decodeOnce(now);
    if (next === now) break;
    now = next;
  }
  return now.toLowerCase();
}

/** The URL, path or id with every credential value replaced by [redacted]. */
export function redactUrl(url: string): string {
  // The common case, a URL with nothing encoded and no credential name, costs two tests.
  if (!url.includes('%') && !url.includes('+') && !CREDENTIAL.test(url.toLowerCase())) return url;
  const parts = url.split(DELIMITERS);
  let redactNext = false;
  for (let i = 0; i < parts.length; i += 2) {
    const piece = parts[i]!;
    if (redactNext && piece !== '') {
      parts[i] = REDACTED;
      redactNext = false;
      continue;
    }
    const text = readable(piece);
    if (!CREDENTIAL.test(text)) continue;
    const eq = piece.indexOf('=');
    if (eq < 0) {
      // A name alone (`/oauth_consumer_key/KEY`): the next piece is its value.
      if (BARE_NAME.test(text)) redactNext = true;
      else parts[i] = REDACTED;
      continue;
    }
    // Keep the name when it is only a name, so that the log still says what was sent.
    const name = piece.slice(0, eq);
    parts[i] = BARE_NAME.test(readable(name)) ? `${name}=${REDACTED}` : REDACTED;
  }
  return parts.join('');
}
