/**
 * The key check as Fastify hooks, and the key the rate limiter counts under
 * (docs/decisions.md "Rate limits": per key, not per header text).
 *
 * The limiter counts the authenticated key, by its name (never the key
 * itself), so that an OAuth 1.0 client that sends a new nonce with every
 * request, and the query and header forms of one key, share one bucket.
 * A request without a valid key (none, malformed, unknown, revoked) counts
 * under its client address, so that guessing keys is limited too; so does
 * a request without a key that auth.anonymousRead lets through. For that
 * the key check must run before the limiter but answer after it: with rate
 * limiting on, the onRequest hook only records the outcome, the limiter
 * (@fastify/rate-limit appends its hook after the route's own onRequest)
 * reads it, and a preParsing hook then answers the key's error. Without
 * rate limiting the onRequest hook answers the error itself, as before.
 */
import type { FastifyRequest, onRequestAsyncHookHandler, preParsingHookHandler } from 'fastify';
import type { KeyedRequest } from './auth.js';

/** name undefined and no error: a request without a key, let through by auth.anonymousRead. */
type Outcome = { name: string | undefined; error?: undefined } | { name?: undefined; error: Error };

export interface AuthHooks {
  /** The route-level key check. */
  onRequest: onRequestAsyncHookHandler;
  /** App-level: answers the error the key check recorded (only when errors are deferred). */
  preParsing: preParsingHookHandler;
  /** What the limiter counts the request under. */
  limitKey(request: FastifyRequest): string;
}

export function createAuthHooks(authenticate: (request: KeyedRequest) => Promise<string | undefined>, deferErrors: boolean): AuthHooks {
  const outcomes = new WeakMap<FastifyRequest, Outcome>();
  return {
    async onRequest(request) {
      try {
        const name = await authenticate(request);
        if (deferErrors) outcomes.set(request, { name });
      } catch (error) {
        if (!deferErrors) throw error;
        outcomes.set(request, { error: error as Error });
      }
    },
    preParsing(request, _reply, payload, done) {
      const error = outcomes.get(request)?.error;
      if (error !== undefined) return done(error);
      done(null, payload);
    },
    limitKey(request) {
      const name = outcomes.get(request)?.name;
      return name !== undefined ? `key:${name}` : `address:${request.ip}`;
    },
  };
}
