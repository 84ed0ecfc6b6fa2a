/**
 * API-key check for every operation (spec section 5, decisions.md
 * "Requests"): the key comes from `Authorization: OAuth ...` or from the
 * query parameter oauth_consumer_key. Missing: 401 with WWW-Authenticate.
 * Unknown or revoked: 403, as on the real service.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { hashApiKey, sameHash } from '../apiKeys.js';
import { ApiError } from '../errors.js';
import type { KeyStore } from '../store/Store.js';
import { readOAuthHeader } from './oauthHeader.js';

export const AUTH_REALM = 'heritage-api';

/** Writing last-used on every request would serialise all requests on the database lock. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** What auth reads of a request: a Fastify request, or the fast path's bare one (./fastPath.ts). */
export interface KeyedRequest {
  headers: IncomingHttpHeaders;
  query?: unknown;
}

function keyFromRequest(request: KeyedRequest): string {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.oauth_consumer_key;
  const header = request.headers.authorization;
  if (header !== undefined) {
    const read = readOAuthHeader(header);
    if (read.kind === 'key') return read.key;
    if (read.kind === 'malformed') throw ApiError.of('malformedAuthorization', read.detail);
    if (read.kind === 'notOAuth' && typeof fromQuery !== 'string') {
      throw ApiError.of('malformedAuthorization', "the scheme is not 'OAuth'");
    }
  }
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  if (Array.isArray(fromQuery)) throw ApiError.of('badRequest', 'oauth_consumer_key is given more than once; send it once.');
  throw ApiError.of('missingApiKey').withHeaders({ 'WWW-Authenticate': `OAuth realm="${AUTH_REALM}"` });
}

/** Distinct keys whose lookup is remembered; beyond it (someone trying random keys) lookups are not kept. */
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * Returns the name of the key's owner, or throws the matching ApiError.
 * Lookups are remembered until the store's data version moves, so that a key
 * created or revoked by `heritage-api keys` (another process) counts from the
 * next request, while a busy server does not query the store on every
 * request (issue #5: it was a seventh of the time of a cached `parents`).
 */
export function createAuthenticator(keys: KeyStore & { dataVersion(): string }): (request: KeyedRequest) => string {
  const lastWritten = new Map<string, number>();
  // The stored hash is kept as bytes too, so that each request decodes only its own.
  const remembered = new Map<string, { name: string; hashBytes: Buffer } | null>();
  let rememberedAt = '';
  const lookUp = (hash: string) => {
    const version = keys.dataVersion();
    if (version !== rememberedAt) {
      remembered.clear();
      rememberedAt = version;
    }
    let found = remembered.get(hash);
    if (found === undefined) {
      const row = keys.findActiveKey(hash);
      found = row ? { name: row.name, hashBytes: Buffer.from(row.keyHash, 'hex') } : null;
      if (remembered.size < MAX_REMEMBERED_KEYS) remembered.set(hash, found);
    }
    return found;
  };
  return (request) => {
    const hash = hashApiKey(keyFromRequest(request));
    const found = lookUp(hash);
    // The index finds the row; the final comparison is constant-time (decisions.md "Requests").
    if (!found || !sameHash(found.hashBytes, hash)) throw ApiError.of('invalidApiKey');
    const now = Date.now();
    if ((lastWritten.get(found.name) ?? 0) + LAST_USED_RESOLUTION_MS < now) {
      lastWritten.set(found.name, now);
      keys.markKeyUsed(found.name, new Date(now));
    }
    return found.name;
  };
}
