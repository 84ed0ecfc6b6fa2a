/**
 * Content negotiation for the linked-data answers (docs/linked-data.md): which RDF syntax a
 * request asks for, beside what its route answered before.
 *
 * A route's own offers come first and the RDF syntaxes after them, in one negotiation (RFC 9110
 * section 12.5.1, ./negotiate.ts): the offer of highest quality wins, ties going to the earlier,
 * so every Accept that got JSON or XML before (`*∕*`, `application/*`, a browser's) still does,
 * and an RDF syntax is chosen only when the client ranks it above them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors.js';
import { byHeaderValue, negotiate } from './negotiate.js';

/** The RDF syntaxes, in our order of preference among them. */
export const RDF_TYPES = ['application/ld+json', 'text/turtle', 'application/n-triples', 'application/rdf+xml'] as const;
export type RdfType = (typeof RDF_TYPES)[number];

/** The Content-Type of each syntax's answers. */
export const RDF_CONTENT_TYPE: Readonly<Record<RdfType, string>> = {
  'application/ld+json': 'application/ld+json; charset=utf-8',
  'text/turtle': 'text/turtle; charset=utf-8',
  'application/n-triples': 'application/n-triples; charset=utf-8',
  'application/rdf+xml': 'application/rdf+xml; charset=utf-8',
};

/** A short name of each syntax for ETags. */
export const RDF_TAG: Readonly<Record<RdfType, string>> = {
  'application/ld+json': 'jsonld',
  'text/turtle': 'ttl',
  'application/n-triples': 'nt',
  'application/rdf+xml': 'rdf',
};

export type LinkedDataChoice =
  /** One of the route's own offers wins (`offer`; undefined when Accept is absent): the route answers as before. */
  { kind: 'route'; offer: string | undefined } | { kind: 'rdf'; type: RdfType };

export interface LinkedDataNegotiation {
  /** Throws the 406 (naming the route's offers and the RDF syntaxes) when the request accepts none. */
  choose(request: { headers: IncomingHttpHeaders }, requireAccept: boolean): LinkedDataChoice;
}

/** "a, b, c or d" */
function spoken(types: readonly string[]): string {
  return types.length <= 1 ? (types[0] ?? '') : `${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}`;
}

/**
 * `routeOffers`: what the route answered before, in its order; `rdf`: the RDF syntaxes it
 * answers now besides (an RDF syntax among the route's own stays the route's).
 */
export function linkedDataNegotiation(routeOffers: readonly string[], rdf: readonly RdfType[] = RDF_TYPES): LinkedDataNegotiation {
  const own = new Set(routeOffers);
  const offers = [...routeOffers, ...rdf.filter((t) => !own.has(t))];
  const offered = spoken(offers);
  const chosen = byHeaderValue((accept: string) => negotiate(accept, offers));
  return {
    choose(request, requireAccept) {
      const accept = request.headers.accept;
      if (accept === undefined || accept.trim() === '') {
        if (requireAccept) throw ApiError.of('notAcceptable', `${offered} (none was sent)`);
        return { kind: 'route', offer: undefined };
      }
      const offer = chosen(accept);
      if (offer === undefined) throw ApiError.of('notAcceptable', offered);
      return own.has(offer) ? { kind: 'route', offer } : { kind: 'rdf', type: offer as RdfType };
    },
  };
}

/** GET /items/{id}: JSON and XML as before (./formatChoice.ts), and every RDF syntax. */
export const ITEM_LINKED_DATA = linkedDataNegotiation(['application/json', 'application/xml', 'text/xml']);

/** GET /items/{id}/edm: RDF/XML, JSON and XML as before (./partAnswers.ts), and the other RDF syntaxes. */
export const EDM_LINKED_DATA = linkedDataNegotiation(['application/rdf+xml', 'application/json', 'application/xml', 'text/xml']);
