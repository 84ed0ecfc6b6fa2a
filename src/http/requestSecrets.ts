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
 * - each run of the URL, decoded, that has the shape of our keys (43
 *   characters of base64url, a run of them standing between other characters)
 *   and hashes to an active stored key: `?KEY`, `?KEY=`, `?q=KEY`,
 *   `/items/KEY/parents`, sent with another key or none. This costs a hash
 *   and an indexed lookup per such run, remembered like the key check's
 *   (./auth.ts), and nothing for a URL without one (item ids are shorter);
 *   past MAX_KEY_RUNS runs in one URL, the rest are taken as secrets
 *   unhashed.
 *
 * Texts shorter than MIN_SECRET_LENGTH are not secrets: our keys are 43
 * characters, and replacing every `a` of a body because a client sent
 * `oauth_consumer_key=a` would destroy the answer to protect nothing.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { KNOWN_NAMES, readOAuthHeader } from './oauthHeader.js';
import { credentialValues, decodedFully, holdsAny, redactText } from './redact.js';

/** The shortest text taken as a secret. */
export const MIN_SECRET_LENGTH = 8;
/** The length of our keys: 32 random bytes in base64url (../apiKeys.ts). */
const KEY_LENGTH = 43;
/** Runs of one URL looked up; a URL with more (16 KiB holds 370) is hostile, its extra runs are redacted unasked. */
const MAX_KEY_RUNS = 32;

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

const RUN = /[A-Za-z0-9_-]+/g;

/** The runs of the URL, as sent and decoded, that have the shape of a key. */
export function keyShapedRuns(url: string): string[] {
  const runs = new Set<string>();
  for (const text of new Set([url, decodedFully(url)])) {
    for (const run of text.match(RUN) ?? []) if (run.length === KEY_LENGTH) runs.add(run);
  }
  return [...runs];
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

export function createSecretHooks(isActiveKey: (text: string) => Promise<boolean>): SecretHooks {
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
      const runs = keyShapedRuns(request.originalUrl).filter((r) => !secrets.includes(r));
      if (runs.length === 0) {
        found.set(request, secrets);
        return done();
      }
      const asked = runs.slice(0, MAX_KEY_RUNS);
      Promise.all(asked.map((run) => isActiveKey(run).catch(() => true))).then((active) => {
        // A store that cannot say (it is down) leaves the run redacted: too much costs nothing.
        found.set(request, secretList([...secrets, ...asked.filter((_r, i) => active[i]), ...runs.slice(MAX_KEY_RUNS)]));
        done();
      }, done);
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
