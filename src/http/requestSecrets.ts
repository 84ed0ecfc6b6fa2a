/**
 * The secrets of a request, for redaction by value (./redact.ts; docs/api.md
 * "Keys in logs and answers"): the texts it sent as keys, and the texts of
 * its URL that are active stored keys.
 *
 * Keys are stored only as SHA-256 hashes (../apiKeys.ts), so no list of keys
 * exists to look for. What a request can leak is what it carries, so its
 * secrets are:
 *
 * - what it sent as a key or credential: the value of `oauth_consumer_key`
 *   and of any credential-named parameter (`api_key`, `token`, ...) in the
 *   query or the path, and from the Authorization header the key of a
 *   well-formed OAuth header, or every token of one that cannot be read
 *   (`OAuth KEY`, `Bearer KEY`, `Basic` user and password), right or wrong;
 * - each stretch of 43 base64url characters in the URL, as sent and decoded
 *   (the shape of our keys), that hashes to an active stored key: `?KEY`,
 *   `?KEY=`, `?q=KEY`, `/items/KEY/parents`, and a key glued to up to 32
 *   characters on either side of it in a longer run (`?q=xyzKEY`, a window of
 *   the run), sent with another key or none.
 *   The active keys' hashes are held in memory per data version (a few: one
 *   per client; ./auth.ts), so this costs a SHA-256 per window and nothing for
 *   a URL without a run of 43 (item ids are shorter); past MAX_WINDOWS
 *   windows in one URL, the runs not yet looked at are taken as secrets whole.
 *   A key buried deeper in a run is not looked for: no client writes one so.
 *
 * Texts shorter than MIN_SECRET_LENGTH are not secrets: our keys are 43
 * characters, and replacing every `a` of a body because a client sent
 * `oauth_consumer_key=a` would destroy the answer to protect nothing.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { KNOWN_NAMES, readOAuthHeader } from './oauthHeader.js';
import { hashApiKey } from '../apiKeys.js';
import { credentialValues, decodedFully, holdsAny, redactText } from './redact.js';

/** The shortest text taken as a secret. */
export const MIN_SECRET_LENGTH = 8;
/** The length of our keys: 32 random bytes in base64url (../apiKeys.ts). */
const KEY_LENGTH = 43;
/**
 * Windows of one URL hashed (about two microseconds each): a run gives at most 2 × GLUED, an
 * OAI-PMH resumption token one such run; a URL with more is hostile, and its runs past these
 * are redacted unasked.
 */
const MAX_WINDOWS = 1024;

const SCHEMES = new Set(['oauth', 'bearer', 'basic', 'digest', 'token']);

/** The tokens of an Authorization header that may be a key: each text between spaces, commas, '=' and quotes. */
function headerSecrets(header: string): string[] {
  const read = readOAuthHeader(header);
  if (read.kind === 'key') return [read.key];
  if (read.kind === 'noKey') return [];
  const out: string[] = [];
  const basic = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (basic) out.push(...Buffer.from(basic[1]!, 'base64').toString('utf8').split(':'));
  for (const token of header.split(/[\s,="']+/)) {
    if (token === '' || SCHEMES.has(token.toLowerCase()) || KNOWN_NAMES.has(token)) continue;
    out.push(token, decodedFully(token));
  }
  return out;
}

/** Distinct texts of at least MIN_SECRET_LENGTH characters, longest first (so a longer one is replaced whole). */
function secretList(texts: Iterable<string>): string[] {
  return [...new Set([...texts].filter((t) => t.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/** What the request sent as keys or credentials, in the URL and the Authorization header. */
export function sentSecrets(url: string, authorization: string | undefined): string[] {
  const texts = credentialValues(url);
  if (authorization !== undefined) texts.push(...headerSecrets(authorization));
  return secretList(texts);
}

const RUN = /[A-Za-z0-9_-]{43,}/g;

/** The runs of the URL, as sent and decoded, long enough to hold a key. */
export function keyLongRuns(url: string): string[] {
  const runs = new Set<string>();
  for (const text of new Set([url, decodedFully(url)])) for (const run of text.match(RUN) ?? []) runs.add(run);
  return [...runs];
}

/** How far from either end of a longer run a key is looked for: `?q=xyz<key>`, `/items/<key>Z9`. */
const GLUED = 32;

/** Where a key may start in a run: every place in one up to 43 + 2 × GLUED long, else near either end. */
function keyStarts(length: number): number[] {
  const last = length - KEY_LENGTH;
  if (last < 2 * GLUED) return Array.from({ length: last + 1 }, (_v, i) => i);
  return [...Array.from({ length: GLUED }, (_v, i) => i), ...Array.from({ length: GLUED }, (_v, i) => last - GLUED + 1 + i)];
}

/**
 * The keys of `hashes` in the runs, each window of KEY_LENGTH at a place keyStarts names
 * hashed; the runs past MAX_WINDOWS windows in all are returned whole (too much redacted
 * costs nothing: only a hostile URL has that many).
 */
export function keysInRuns(runs: readonly string[], hashes: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let budget = MAX_WINDOWS;
  for (const run of runs) {
    const starts = keyStarts(run.length);
    if (starts.length > budget) {
      out.push(run);
      continue;
    }
    budget -= starts.length;
    for (const i of starts) {
      const window = run.slice(i, i + KEY_LENGTH);
      if (hashes.has(hashApiKey(window))) out.push(window);
    }
  }
  return out;
}

export interface SecretHooks {
  /** App-level: finds the request's secrets (looking up key-shaped runs) before anything answers it. */
  onRequest: onRequestHookHandler;
  /** App-level, before compression: every secret in the body and in link headers replaced by [redacted]. */
  onSend: onSendHookHandler;
  /** The request's secrets; for a request no onRequest hook saw (refused before routing), those it sent. */
  of(request: FastifyRequest): readonly string[];
}

/** Headers that hold a URL or text made from the request. */
const TEXT_HEADERS = ['location', 'content-location', 'link'];

export function createSecretHooks(activeKeyHashes: () => Promise<ReadonlySet<string>>): SecretHooks {
  const found = new WeakMap<FastifyRequest, readonly string[]>();
  const sent = (request: FastifyRequest) => sentSecrets(request.originalUrl, request.headers.authorization);
  const of = (request: FastifyRequest) => found.get(request) ?? sent(request);
  const redactHeaders = (reply: FastifyReply, secrets: readonly string[]) => {
    for (const name of TEXT_HEADERS) {
      const value = reply.getHeader(name);
      if (typeof value === 'string' && holdsAny(value, secrets)) reply.header(name, redactText(value, secrets));
    }
  };
  return {
    of,
    onRequest(request, _reply, done) {
      const secrets = sent(request);
      const runs = keyLongRuns(request.originalUrl).filter((r) => !secrets.includes(r));
      if (runs.length === 0) {
        found.set(request, secrets);
        return done();
      }
      activeKeyHashes().then(
        (hashes) => {
          found.set(request, hashes.size === 0 ? secrets : secretList([...secrets, ...keysInRuns(runs, hashes)]));
          done();
        },
        () => {
          // A store that cannot say (it is down) leaves every run redacted: too much costs nothing.
          found.set(request, secretList([...secrets, ...runs]));
          done();
        },
      );
    },
    onSend(request, reply, payload, done) {
      const secrets = of(request);
      if (secrets.length === 0) return done(null, payload);
      redactHeaders(reply, secrets);
      if (typeof payload === 'string') return done(null, holdsAny(payload, secrets) ? redactText(payload, secrets) : payload);
      if (Buffer.isBuffer(payload) && holdsAny(payload, secrets)) return done(null, redactText(payload.toString('utf8'), secrets));
      // Streams are stored files (packages, binaries): nothing of the request is in them.
      done(null, payload);
    },
  };
}
