/**
 * Reads the API key from `Authorization: OAuth ...`.
 *
 * Real DDB clients send a full OAuth 1.0 parameter list, so the header is
 * parsed as RFC 5849 section 3.5.1 describes it: the scheme `OAuth`, then
 * comma-separated `name="value"` pairs with percent-encoded values and an
 * optional `realm`. We take oauth_consumer_key and ignore the rest
 * (docs/decisions.md "API keys").
 */

export type OAuthHeaderResult =
  { kind: 'key'; key: string } | { kind: 'noKey' } | { kind: 'notOAuth' } | { kind: 'malformed'; detail: string };

const NAME = /[A-Za-z0-9_.~-]+/y;
const SPACE = /[ \t]*/y;

/**
 * The parameters RFC 5849 defines. Only these are named in a message: a
 * client that writes `Authorization: OAuth <key>` sends its key where a
 * name belongs, and no message may echo a key (docs/decisions.md "Keys never
 * leak").
 */
export const KNOWN_NAMES: ReadonlySet<string> = new Set([
  'realm',
  'oauth_consumer_key',
  'oauth_token',
  'oauth_signature_method',
  'oauth_signature',
  'oauth_timestamp',
  'oauth_nonce',
  'oauth_version',
  'oauth_callback',
  'oauth_verifier',
  'oauth_body_hash',
]);

/** How a message refers to a parameter: by name when it is one of RFC 5849's, else by position. */
function named(name: string, at: number): string {
  return KNOWN_NAMES.has(name) ? `'${name}'` : `the parameter at character ${at + 1}`;
}

function skipSpace(text: string, at: number): number {
  SPACE.lastIndex = at;
  SPACE.exec(text);
  return SPACE.lastIndex;
}

export function readOAuthHeader(header: string): OAuthHeaderResult {
  const scheme = /^\s*OAuth(?:\s+|$)/i.exec(header);
  if (!scheme) return { kind: 'notOAuth' };
  const params = new Map<string, string>();
  let at = scheme[0].length;
  while (at < header.length) {
    NAME.lastIndex = at;
    const start = at;
    const name = NAME.exec(header)?.[0];
    if (!name) return { kind: 'malformed', detail: `expected a parameter name at character ${at + 1}` };
    at = skipSpace(header, at + name.length);
    if (header[at] !== '=') {
      const what = KNOWN_NAMES.has(name) ? `'${name}'` : 'the parameter name';
      const hint = KNOWN_NAMES.has(name) ? '' : ` at character ${start + 1} (write oauth_consumer_key="<API key>", not the key alone)`;
      return { kind: 'malformed', detail: `expected '=' after ${what}${hint}` };
    }
    at = skipSpace(header, at + 1);
    if (header[at] !== '"') return { kind: 'malformed', detail: `the value of ${named(name, start)} must be in double quotes` };
    const end = header.indexOf('"', at + 1);
    if (end < 0) return { kind: 'malformed', detail: `the value of ${named(name, start)} has no closing quote` };
    let value: string;
    try {
      const raw = header.slice(at + 1, end);
      value = raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch {
      return { kind: 'malformed', detail: `the value of ${named(name, start)} is not valid percent-encoding` };
    }
    if (params.has(name)) return { kind: 'malformed', detail: `${named(name, start)} is given twice` };
    params.set(name, value);
    at = skipSpace(header, end + 1);
    if (at >= header.length) break;
    if (header[at] !== ',') return { kind: 'malformed', detail: `expected ',' between parameters at character ${at + 1}` };
    at = skipSpace(header, at + 1);
  }
  const key = params.get('oauth_consumer_key');
  if (key === undefined) return { kind: 'noKey' };
  if (key === '') return { kind: 'malformed', detail: 'oauth_consumer_key is empty' };
  return { kind: 'key', key };
}
