/**
 * Validators of answers that are made from several records or by a search
 * (docs/decisions.md "Validators and caching"): `parents`, `children`, `/institutions`, `/entities`
 * and, once they exist, the item searches. Packages and their parts have
 * validators of their own (the package's ETag and Last-Modified,
 * ./packageAnswers.ts, ./partAnswers.ts).
 *
 * The ETag of such an answer is a digest of its body, weak (RFC 9110
 * section 8.8.1): the same for the identity and the compressed forms, which
 * are the same content (@fastify/compress compresses these per response).
 * Why a digest rather than the data version and the request: the data
 * version starts anew with the server (Store.dataVersion), so after a
 * restart it could name other data; a digest is true by construction, and a
 * client's 304 then saves the transfer. The cost is one SHA-256 of the body,
 * once per cached body (hierarchies, children, institutions) or per answer
 * (searches, whose answers are not cached). No Last-Modified: no one time
 * says when such an answer last changed (`leaf`, counts and hits follow
 * other records), so If-Modified-Since is not answered with 304 here.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notModifiedByTag } from './conditional.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's 200 answers get a digest ETag, Cache-Control and 304 (./validators.ts). */
    digestValidators?: boolean;
  }
}

/** The opaque part of the weak ETag of a body. */
export function bodyTag(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 27);
}

/** The ETag header value of that tag. */
export const weakEtag = (tag: string): string => `W/"${tag}"`;

/** A body and its validator, as the caches of rendered answers keep them. */
export interface TaggedBody {
  body: Buffer;
  /** The ETag header value (weak). */
  etag: string;
  /** Its opaque part, for If-None-Match. */
  tag: string;
}

export function tagged(body: Buffer): TaggedBody {
  const tag = bodyTag(body);
  return { body, etag: weakEtag(tag), tag };
}

/**
 * Sends a tagged body, or 304 when the request's If-None-Match names it,
 * with Cache-Control and the ETag either way (RFC 9110 section 15.4.5: a 304
 * carries the validators and Cache-Control a 200 would).
 */
export function sendTagged(request: FastifyRequest, reply: FastifyReply, answer: TaggedBody, cacheControl: string): FastifyReply {
  reply.header('Cache-Control', cacheControl).header('ETag', answer.etag);
  // A 304 carries no representation metadata but the validators (RFC 9110 section 15.4.5).
  if (notModifiedByTag(request, answer.tag)) return reply.removeHeader('Content-Type').code(304).send();
  return reply.send(answer.body);
}

/**
 * For routes whose answers are made per request (searches): an onSend hook
 * that gives a 200 answer of a route with `config.digestValidators` a
 * digest ETag and Cache-Control, and turns it into a 304 when If-None-Match
 * names it. Registered before @fastify/compress, so it sees the body before
 * compression.
 */
export function addDigestValidators(app: FastifyInstance, cacheControl: string): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config?.digestValidators !== true || reply.statusCode !== 200) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const tag = bodyTag(payload);
    reply.header('Cache-Control', cacheControl).header('ETag', weakEtag(tag));
    // The body may be compressed or not (@fastify/compress), under the same weak ETag. Written in
    // lower case as the plugin writes it: it looks for this spelling before adding its own.
    const vary = reply.getHeader('vary');
    if (vary === undefined) reply.header('Vary', 'accept-encoding');
    else if (!/accept-encoding/i.test(String(vary))) reply.header('Vary', `${String(vary)}, accept-encoding`);
    if (!notModifiedByTag(request, tag)) return done(null, payload);
    reply.code(304).removeHeader('Content-Type');
    // null, not '': an empty string would get Content-Length: 0, which a 304 must not claim.
    done(null, null);
  });
}
