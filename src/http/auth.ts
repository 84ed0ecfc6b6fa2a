/**
 * API-key check for every operation (spec section 5, docs/decisions.md
 * "API keys"): the key comes from `Authorization: OAuth ...` or from the
 * query parameter oauth_consumer_key. Missing: 401 with WWW-Authenticate.
 * Unknown or revoked: 403, as on the real service. With auth.anonymousRead
 * (docs/decisions.md "Anonymous reads") a request without a key is let through; one with a key
 * is checked as always.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { hashApiKey, sameHash } from '../apiKeys.js';
import { ApiError } from '../errors.js';
import type { KeyStore } from '../store/Store.js';
import { readOAuthHeader } from './oauthHeader.js';

export const AUTH_REALM = 'heritage-api';

/** Writing last-used on every request would serialise all requests on the database lock. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** What auth reads of a request: a Fastify request, or Node's own in the fast path (./fastPath.ts). */
export interface KeyedRequest {
  headers: IncomingHttpHeaders;
  query?: unknown;
  /** The connection it came on; the check of its header is remembered for that connection. */
  socket?: object;
}

/**
 * The key, and whether it came from the Authorization header (which then decides alone);
 * undefined when none was sent and anonymous reads are allowed.
 */
function keyFromRequest(request: KeyedRequest, anonymousRead: boolean): { key: string; fromHeader: boolean } | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.oauth_consumer_key;
  const header = request.headers.authorization;
  if (header !== undefined) {
    const read = readOAuthHeader(header);
    if (read.kind === 'key') return { key: read.key, fromHeader: true };
    if (read.kind === 'malformed') throw ApiError.of('malformedAuthorization', read.detail);
    if (read.kind === 'notOAuth' && typeof fromQuery !== 'string') {
      throw ApiError.of('malformedAuthorization', "the scheme is not 'OAuth'");
    }
  }
  if (typeof fromQuery === 'string' && fromQuery !== '') return { key: fromQuery, fromHeader: false };
  if (Array.isArray(fromQuery)) throw ApiError.of('badRequest', 'oauth_consumer_key is given more than once; send it once.');
  if (anonymousRead) return undefined;
  throw ApiError.of('missingApiKey').withHeaders({ 'WWW-Authenticate': `OAuth realm="${AUTH_REALM}"` });
}

/** Distinct keys whose lookup is remembered; beyond it (someone trying random keys) lookups are not kept. */
const MAX_REMEMBERED_KEYS = 10_000;

export interface AuthOptions {
  /** auth.anonymousRead: a request without a key is let through as anonymous (docs/decisions.md "Anonymous reads"). */
  anonymousRead: boolean;
}

/** The key check, and the active keys' hashes (for redaction by value, ./requestSecrets.ts). */
export type Authenticator = ((request: KeyedRequest) => Promise<string | undefined>) & {
  /** The hashes of the active stored keys, read again when the store's data version moves. */
  activeKeyHashes(): Promise<ReadonlySet<string>>;
};

/**
 * Returns the name of the key's owner, or undefined for a request without a
 * key when anonymous reads are allowed, or throws the matching ApiError. A
 * key that is sent is always checked: an unknown or revoked one is a 403
 * even when no key is needed, so that a client learns its key is wrong.
 * Lookups are remembered until the store's data version moves, so that a key
 * created or revoked by `heritage-api keys` (another process) counts from the
 * next request, while a busy server does not query the store on every
 * request (the bench measured it at a seventh of the time of a cached `parents`).
 *
 * A keep-alive client sends the same Authorization header on every request
 * of a connection, so the connection remembers the header it last proved
 * valid, and the data version then, and skips the parsing and the hash
 * (measured at two thirds of the fast path's own time). It compares the new
 * header only with that connection's own earlier one, so it tells a client
 * nothing about anyone else's key; the header lives as long as the
 * connection, in memory only.
 */
export function createAuthenticator(
  keys: Pick<KeyStore, 'findActiveKey' | 'markKeyUsed' | 'activeKeyHashes'> & { dataVersion(): Promise<string> },
  options: AuthOptions = { anonymousRead: false },
): Authenticator {
  const lastWritten = new Map<string, number>();
  // The stored hash is kept as bytes too, so that each request decodes only its own.
  const remembered = new Map<string, { name: string; hashBytes: Buffer } | null>();
  let rememberedAt = '';
  const byConnection = new WeakMap<object, { header: string; version: string; name: string }>();
  const lookUp = async (hash: string) => {
    const version = await keys.dataVersion();
    if (version !== rememberedAt) {
      remembered.clear();
      rememberedAt = version;
    }
    let found = remembered.get(hash);
    if (found === undefined) {
      const row = await keys.findActiveKey(hash);
      found = row ? { name: row.name, hashBytes: Buffer.from(row.keyHash, 'hex') } : null;
      if (remembered.size < MAX_REMEMBERED_KEYS) remembered.set(hash, found);
    }
    return found;
  };
  const check = async (request: KeyedRequest): Promise<{ name: string; fromHeader: boolean } | undefined> => {
    const sent = keyFromRequest(request, options.anonymousRead);
    if (sent === undefined) return undefined;
    const { key, fromHeader } = sent;
    const hash = hashApiKey(key);
    const found = await lookUp(hash);
    // The index finds the row; the final comparison is constant-time (docs/decisions.md "API keys").
    if (!found || !sameHash(found.hashBytes, hash)) throw ApiError.of('invalidApiKey');
    return { name: found.name, fromHeader };
  };
  const authenticate = async (request: KeyedRequest): Promise<string | undefined> => {
    const connection = request.socket;
    const header = request.headers.authorization;
    let name: string;
    const memo = connection === undefined ? undefined : byConnection.get(connection);
    if (memo !== undefined && memo.header === header && memo.version === (await keys.dataVersion())) {
      name = memo.name;
    } else {
      const checked = await check(request);
      if (checked === undefined) return undefined;
      name = checked.name;
      // Only a key from the header: a header without one leaves the query string to decide.
      // rememberedAt is the version the key was checked at.
      if (connection !== undefined && checked.fromHeader) byConnection.set(connection, { header: header!, version: rememberedAt, name });
    }
    const now = Date.now();
    if ((lastWritten.get(name) ?? 0) + LAST_USED_RESOLUTION_MS < now) {
      lastWritten.set(name, now);
      await keys.markKeyUsed(name, new Date(now));
    }
    return name;
  };
  let hashes: { version: string; set: ReadonlySet<string> } | undefined;
  const activeKeyHashes = async () => {
    const version = await keys.dataVersion();
    if (hashes?.version !== version) hashes = { version, set: new Set(await keys.activeKeyHashes()) };
    return hashes.set;
  };
  return Object.assign(authenticate, { activeKeyHashes });
}
