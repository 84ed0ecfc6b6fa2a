/**
 * Resumption tokens of the OAI-PMH provider (OAI-PMH 2.0 section 3.5; docs/oai-pmh.md
 * "Resumption tokens"): the list's selection and where the next page starts, as JSON, with
 * an HMAC-SHA256 of it. Opaque to harvesters, and tamper-evident: a token not made by this
 * key, or changed in any byte, does not decode, and the caller answers badResumptionToken.
 * They do not expire: the position is a record number that never changes (src/store/oaiRecords.ts),
 * so a token holds as long as the store (and the key) does.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type ListVerb = 'ListRecords' | 'ListIdentifiers';

export type TokenState =
  | {
      verb: ListVerb;
      metadataPrefix: string;
      set?: string | undefined;
      /** Datestamp bounds in seconds, inclusive. */
      from?: number | undefined;
      until?: number | undefined;
      /** The last record num served. */
      after: number;
      /** Records served before the next page. */
      cursor: number;
    }
  | { verb: 'ListSets'; after: string; cursor: number };

/** Longer tokens are not ours: refused before any work. */
const MAX_TOKEN_LENGTH = 4096;
const MAC_LENGTH = 22;

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`oai-pmh-token\n${payload}`).digest('base64url').slice(0, MAC_LENGTH);
}

export function encodeToken(state: TokenState, secret: string): string {
  const payload = Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const optionalCount = (v: unknown) => v === undefined || isCount(v);

/** The state of a token made with `secret`; undefined for anything else. */
export function decodeToken(token: string, secret: string): TokenState | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(mac(secret, payload), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  // Made by this key, so well-formed; checked all the same, since a key can leak.
  if (typeof state !== 'object' || state === null) return undefined;
  const s = state as Record<string, unknown>;
  if (s.verb === 'ListSets')
    return typeof s.after === 'string' && isCount(s.cursor) ? { verb: 'ListSets', after: s.after, cursor: s.cursor } : undefined;
  if (s.verb !== 'ListRecords' && s.verb !== 'ListIdentifiers') return undefined;
  if (typeof s.metadataPrefix !== 'string' || !isCount(s.after) || !isCount(s.cursor) || !optionalCount(s.from) || !optionalCount(s.until))
    return undefined;
  if (s.set !== undefined && typeof s.set !== 'string') return undefined;
  return {
    verb: s.verb,
    metadataPrefix: s.metadataPrefix,
    set: s.set,
    from: s.from,
    until: s.until,
    after: s.after,
    cursor: s.cursor,
  };
}
