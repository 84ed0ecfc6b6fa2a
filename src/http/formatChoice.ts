/**
 * Which representation a request gets, from its Accept header
 * (spec 4.1, docs/decisions.md "Accept").
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors.js';
import { byHeaderValue, negotiate } from './negotiate.js';

export type Representation = { format: 'json' | 'xml'; contentType: string };

const JSON_TYPE: Representation = { format: 'json', contentType: 'application/json; charset=utf-8' };
const XML_TYPE: Representation = { format: 'xml', contentType: 'application/xml; charset=utf-8' };
const TEXT_XML_TYPE: Representation = { format: 'xml', contentType: 'text/xml; charset=utf-8' };

/** JSON first: `*∕*` and `application/*` give JSON. */
const ITEM_OFFERS = ['application/json', 'application/xml', 'text/xml'] as const;
const BY_OFFER: Record<string, Representation> = {
  'application/json': JSON_TYPE,
  'application/xml': XML_TYPE,
  'text/xml': TEXT_XML_TYPE,
};

/**
 * Vary of every item answer: the format follows Accept, and the body may be
 * compressed (packages by their route, `parents` by @fastify/compress).
 */
export const ITEM_VARY = 'Accept, Accept-Encoding';

/**
 * Vary of item answers under a CORS configuration: with a list of origins
 * the answer also depends on Origin, and the item routes set Vary whole,
 * replacing the `Vary: Origin` of @fastify/cors, so it is put back here: without
 * it a shared cache could hand one origin's answer to another (docs/decisions.md "CORS").
 */
export function itemVary(corsOrigin: string): string {
  return corsOrigin === '*' ? ITEM_VARY : `${ITEM_VARY}, Origin`;
}

/** A Fastify request, or the fast path's bare one (./fastPath.ts). */
type WithHeaders = { headers: IncomingHttpHeaders };

function acceptOf(request: WithHeaders): string | undefined {
  const accept = request.headers.accept;
  return accept === undefined || accept.trim() === '' ? undefined : accept;
}

/** Item operations answer JSON or XML. */
export function itemRepresentation(request: WithHeaders, requireAccept: boolean): Representation {
  const accept = acceptOf(request);
  if (accept === undefined) {
    if (requireAccept) throw ApiError.of('notAcceptable', 'application/json or application/xml (none was sent)');
    return JSON_TYPE;
  }
  const offer = itemOffer(accept);
  if (!offer) throw ApiError.of('notAcceptable', 'application/json or application/xml');
  return BY_OFFER[offer]!;
}

const itemOffer = byHeaderValue((accept: string) => negotiate(accept, ITEM_OFFERS));
const jsonOffer = byHeaderValue((accept: string) => negotiate(accept, ['application/json']));

/** The entity search answers JSON only. */
export function jsonOnly(request: WithHeaders, requireAccept: boolean): Representation {
  const accept = acceptOf(request);
  if (accept === undefined) {
    if (requireAccept) throw ApiError.of('notAcceptable', 'application/json (none was sent)');
    return JSON_TYPE;
  }
  if (!jsonOffer(accept)) throw ApiError.of('notAcceptable', 'application/json');
  return JSON_TYPE;
}

/** Errors are written in XML only to a client that prefers XML; everyone else gets JSON. */
export function errorRepresentation(request: WithHeaders): Representation {
  const accept = acceptOf(request);
  if (accept === undefined) return JSON_TYPE;
  const offer = itemOffer(accept);
  return offer ? BY_OFFER[offer]! : JSON_TYPE;
}
