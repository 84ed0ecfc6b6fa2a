/**
 * Removes API keys from text taken from a request (a URL, a path, an id)
 * before it is logged or echoed (docs/decisions.md "Keys never leak";
 * docs/api.md "Keys in logs and answers": a key is never echoed in a body,
 * link, log line or metric, however the request is written).
 *
 * Two ways, both applied:
 *
 * - By name. A key can hide behind percent-encoded names
 *   (`oauth%5Fconsumer%5Fkey`, `%6Fauth_consumer_key`), upper-case hex,
 *   double encoding, `+`, suffixes (`oauth_consumer_key[]`), repeated
 *   parameters, encoded delimiters inside a value
 *   (`x=1%26oauth_consumer_key%3DKEY`), or in the path when a client writes
 *   `&` or `;` instead of `?`. So the text is cut at every delimiter, each
 *   piece is decoded as often as it decodes, case-folded, and any piece that
 *   names a credential loses its value; a credential name standing alone
 *   (`/oauth_consumer_key/KEY`) loses the piece after it too. A credential is
 *   an OAuth parameter, or a parameter whose name has a word such as `key`,
 *   `token`, `password` or `secret` (`api_key`, `access_token`).
 * - By value. A key sent under any other name, as a bare name (`?KEY`), or
 *   in the path (`/items/KEY/parents`) has no name to find it by: the texts
 *   the request sent as keys, and those that hash to a stored key
 *   (./requestSecrets.ts), are looked for in every piece, decoded, and a
 *   piece that holds one is replaced.
 *
 * Redacting too much in a log line costs nothing; too little leaks a key.
 */

const DELIMITERS = /([?&;/#])/;

/**
 * Names that carry a credential, after decoding and case-folding, anywhere in
 * a piece: the key's own name in any spelling (`oauth_consumer_key`,
 * `oauth_consumer_key[]`), the other OAuth 1.0 parameters (a token or
 * signature is as private), and the names a confused client might try
 * (`api_key`, `consumerKey`).
 */
const CREDENTIAL = /oauth|consumer.?key|api.?key|access.?token/;
/** Words of a parameter name that make it a credential's: `key=`, `token=`, `password=`, `x-api-key=`. */
const CREDENTIAL_WORD =
  /(?:^|[^a-z])(?:key|keys|apikey|token|accesstoken|password|passwd|secret|auth|authorization|signature|credentials?)(?:[^a-z]|$)/;
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

/** Decoded as often as it changes (double, triple encoding). */
export function decodedFully(text: string): string {
  let now = text;
  for (let i = 0; i < 5; i++) {
    const next = decodeOnce(now);
    if (next === now) break;
    now = next;
  }
  return now;
}

/** Decoded as often as it changes, case-folded. */
function readable(text: string): string {
  return decodedFully(text).toLowerCase();
}

/** Whether a decoded, case-folded parameter name (or piece) names a credential. */
function namesCredential(text: string): boolean {
  return CREDENTIAL.test(text) || CREDENTIAL_WORD.test(text);
}

/** Whether a query parameter, by its name, carries a credential (`oauth_consumer_key`, `api_key`, `token`). */
export function isCredentialParameter(name: string): boolean {
  return namesCredential(readable(name));
}

/** Whether the piece, as sent or decoded, holds one of the secrets. */
function holdsSecret(piece: string, secrets: readonly string[]): boolean {
  if (secrets.length === 0) return false;
  const decoded = decodedFully(piece);
  return secrets.some((s) => piece.includes(s) || decoded.includes(s));
}

/**
 * The URL, path or id with every credential value replaced by [redacted]:
 * by name, and by value for each of `secrets` (texts of at least
 * MIN_SECRET_LENGTH characters, ./requestSecrets.ts).
 */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  // The common case, a URL with nothing encoded, no credential name and no secret, costs three tests.
  const lower = url.toLowerCase();
  if (!url.includes('%') && !url.includes('+') && !namesCredential(lower) && !secrets.some((s) => url.includes(s))) return url;
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
    const eq = piece.indexOf('=');
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const nameText = eq < 0 ? text : readable(name);
    if (CREDENTIAL.test(text) || (eq >= 0 && CREDENTIAL_WORD.test(nameText))) {
      if (eq < 0) {
        // A name alone (`/oauth_consumer_key/KEY`): the next piece is its value.
        if (BARE_NAME.test(text)) redactNext = true;
        else parts[i] = REDACTED;
        continue;
      }
      // Keep the name when it is only a name, so that the log still says what was sent.
      parts[i] = BARE_NAME.test(nameText) && !holdsSecret(name, secrets) ? `${name}=${REDACTED}` : REDACTED;
      continue;
    }
    if (holdsSecret(piece, secrets)) parts[i] = eq >= 0 && !holdsSecret(name, secrets) ? `${name}=${REDACTED}` : REDACTED;
  }
  const redacted = parts.join('');
  // A secret written across delimiters (`a/b` sent as a key, then `/items/a/b`): nothing of it is kept.
  return holdsSecret(redacted, secrets) ? REDACTED : redacted;
}

/**
 * The values a URL gives to credential names (decoded; with encoded
 * delimiters decoded and read again), the texts it sends as keys or
 * credentials: `?oauth_consumer_key=K`, `?api_key=K`, `/oauth_consumer_key/K`,
 * `?x=1%26token%3DK`.
 */
export function credentialValues(url: string): string[] {
  // The common case, nothing encoded and no credential name, costs two tests.
  if (!url.includes('%') && !url.includes('+') && !namesCredential(url.toLowerCase())) return [];
  const values: string[] = [];
  const read = (text: string, depth: number) => {
    const parts = text.split(DELIMITERS);
    let valueNext = false;
    for (let i = 0; i < parts.length; i += 2) {
      const piece = parts[i]!;
      const decoded = decodedFully(piece);
      if (valueNext && piece !== '') {
        values.push(piece, decoded);
        valueNext = false;
        continue;
      }
      // An encoded delimiter: read the decoded piece as a URL of its own.
      if (depth < 3 && decoded !== piece && DELIMITERS.test(decoded)) {
        read(decoded, depth + 1);
        continue;
      }
      const eq = piece.indexOf('=');
      if (eq < 0) {
        if (namesCredential(decoded.toLowerCase()) && BARE_NAME.test(decoded.toLowerCase())) valueNext = true;
        continue;
      }
      const nameText = readable(piece.slice(0, eq));
      if (namesCredential(nameText)) {
        const value = piece.slice(eq + 1);
        values.push(value, decodedFully(value));
      }
    }
  };
  read(url, 0);
  return values;
}

/** What `text` may hold of a secret: the secret as sent, and as JSON, HTML/XML and URLs write it. */
function writtenForms(secret: string): string[] {
  // A key (base64url) and most texts are written alike in all of them.
  if (/^[A-Za-z0-9_.~-]*$/.test(secret)) return [secret];
  const forms = new Set([secret]);
  forms.add(JSON.stringify(secret).slice(1, -1));
  const html = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  forms.add(html.replace(/'/g, '&#39;'));
  forms.add(html.replace(/'/g, '&apos;'));
  forms.add(encodeURIComponent(secret));
  forms.add(new URLSearchParams({ x: secret }).toString().slice(2));
  return [...forms];
}

/**
 * The start of a secret that is redacted even when the rest is missing: messages cut
 * what they quote (`fl names '<first 40 characters>'`), and 40 characters of a key are
 * most of it. Shorter starts leave more than 160 bits of a 43-character key unknown.
 */
const PARTIAL = 16;

/**
 * Every occurrence of each secret, in any of its written forms, replaced by
 * [redacted]; so is every run of at least PARTIAL characters the secret begins with.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of writtenForms(secret)) {
      const head = form.slice(0, PARTIAL);
      let at = out.indexOf(head);
      while (at >= 0) {
        let end = at + head.length;
        while (end < out.length && end - at < form.length && out[end] === form[end - at]) end++;
        out = `${out.slice(0, at)}${REDACTED}${out.slice(end)}`;
        at = out.indexOf(head, at + REDACTED.length);
      }
    }
  }
  return out;
}

/** Whether `text` holds any of the secrets, or the start of one (PARTIAL characters), in any written form. */
export function holdsAny(text: string | Buffer, secrets: readonly string[]): boolean {
  return secrets.some((s) => writtenForms(s).some((form) => text.includes(form.slice(0, PARTIAL))));
}
