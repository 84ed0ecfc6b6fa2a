/**
 * The answer to GET /items/{id}/view, /edm, /indexing-profile, /binaries,
 * /source, /source/description and /source/record (docs/decisions.md "Parts of a
 * package"): the
 * same key check, negotiation, validators and block handling as the package
 * (./packageAnswers.ts).
 *
 * Validators: the package's Last-Modified, and an ETag made of the package's
 * ETag, the part and the representation, so that it changes exactly when the
 * package does. Bodies are derived once per package version (the cortex
 * document is parsed on a miss, ../formats/packageParts.ts) and kept until
 * the byte budget pushes them out; compressed bodies are kept under their
 * ETag as for packages.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { packagePart, type PackagePart, type PartContent } from '../formats/packageParts.js';
import type { LabelLanguage } from '../formats/viewLabels.js';
import { parseXml } from '../formats/xmlTree.js';
import { LruCache } from '../lruCache.js';
import { isValidItemId } from '../domain/itemIds.js';
import type { ItemHead, Store } from '../store/Store.js';
import { CompressedCache } from './compressedCache.js';
import { notModified } from './conditional.js';
import { ITEM_VARY } from './formatChoice.js';
import { servable } from './itemAccess.js';
import { byHeaderValue, negotiate, negotiateEncoding } from './negotiate.js';

/** Derived part bodies (both forms) of recently asked items. */
const PART_CACHE_BYTES = 32 * 1024 * 1024;
/** Their compressed forms. */
const COMPRESSED_PART_CACHE_BYTES = 16 * 1024 * 1024;
/** Smaller bodies are sent as they are: compressing them saves less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

export interface PartAnswer {
  status: 200 | 303 | 304;
  headers: Record<string, string>;
  /** undefined for 303 and 304. */
  body: Buffer | undefined;
}

export interface PartAnswers {
  /** `language`: the label language of the view (`lang`); the other parts have no labels. */
  answer(request: { headers: IncomingHttpHeaders }, id: string, part: PackagePart, language?: LabelLanguage): Promise<PartAnswer>;
}

type Form = 'json' | 'xml' | 'rdf';
interface Offer {
  form: Form;
  contentType: string;
}

const OFFER: Record<string, Offer> = {
  'application/json': { form: 'json', contentType: 'application/json; charset=utf-8' },
  'application/xml': { form: 'xml', contentType: 'application/xml; charset=utf-8' },
  'text/xml': { form: 'xml', contentType: 'text/xml; charset=utf-8' },
  'application/rdf+xml': { form: 'rdf', contentType: 'application/rdf+xml; charset=utf-8' },
};

/**
 * What each part offers, in our order of preference (the first is what `*∕*`
 * and a missing Accept get). JSON first as for every item operation
 * (docs/decisions.md "Accept"), except: edm is RDF/XML first, the only form of
 * the real service's edm (ddb-openapi-6.8.yml, 200-rdfxml); the source record
 * is XML only (the provider's record, ddb-openapi-6.8.yml getItemsIdSourceComponent).
 */
const ITEM_OFFERS = ['application/json', 'application/xml', 'text/xml'];
const OFFERS: Record<PackagePart, readonly string[]> = {
  view: ITEM_OFFERS,
  'indexing-profile': ITEM_OFFERS,
  binaries: ITEM_OFFERS,
  source: ITEM_OFFERS,
  'source/description': ITEM_OFFERS,
  edm: ['application/rdf+xml', 'application/json', 'application/xml', 'text/xml'],
  'source/record': ['application/xml', 'text/xml'],
};
const OFFERED: Record<PackagePart, string> = {
  view: 'application/json or application/xml',
  'indexing-profile': 'application/json or application/xml',
  binaries: 'application/json or application/xml',
  source: 'application/json or application/xml',
  'source/description': 'application/json or application/xml',
  edm: 'application/rdf+xml, application/json or application/xml',
  'source/record': 'application/xml',
};

const negotiators = Object.fromEntries(
  Object.entries(OFFERS).map(([part, offers]) => [part, byHeaderValue((accept: string) => negotiate(accept, offers))]),
) as Record<PackagePart, (accept: string) => string | undefined>;

function representation(request: { headers: IncomingHttpHeaders }, part: PackagePart, requireAccept: boolean): Offer {
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') {
    if (requireAccept) throw ApiError.of('notAcceptable', `${OFFERED[part]} (none was sent)`);
    return OFFER[OFFERS[part][0]!]!;
  }
  const chosen = negotiators[part](accept);
  if (chosen === undefined) throw ApiError.of('notAcceptable', OFFERED[part]);
  return OFFER[chosen]!;
}

/** A part as derived from one version of the package. */
interface Derived {
  etag: string;
  lastModified: Date;
  xml: Buffer | undefined;
  json: Buffer | undefined;
  elsewhere: string | undefined;
}

function toDerived(head: ItemHead, content: PartContent): Derived {
  const none = { etag: head.etag, lastModified: head.lastModified, xml: undefined, json: undefined, elsewhere: undefined };
  if (content.kind === 'missing') return none;
  if (content.kind === 'elsewhere') return { ...none, elsewhere: content.itemId };
  return { ...none, xml: Buffer.from(content.xml), json: content.json === undefined ? undefined : Buffer.from(content.json) };
}

export function createPartAnswers(store: Pick<Store, 'getItemDocument' | 'getItemHead'>, config: Config): PartAnswers {
  const derived = new LruCache<Derived>(PART_CACHE_BYTES, (d) => 128 + (d.xml?.length ?? 0) + (d.json?.length ?? 0));
  const compressed = new CompressedCache(COMPRESSED_PART_CACHE_BYTES);
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;

  /** The part of the package version `head` names, or of a newer one if it changed meanwhile. */
  async function derive(id: string, part: PackagePart, head: ItemHead, language: LabelLanguage): Promise<Derived> {
    const key = `${part}\u0000${language}\u0000${id}`;
    const cached = derived.get(key);
    if (cached !== undefined && cached.etag === head.etag) return cached;
    const doc = servable(id, await store.getItemDocument(id, 'xml'));
    const fresh = toDerived(doc, packagePart(parseXml(doc.body.toString('utf8')), id, part, language));
    derived.set(key, fresh);
    return fresh;
  }

  return {
    async answer(request, id, part, asked = 'de'): Promise<PartAnswer> {
      const rep = representation(request, part, config.http.requireAccept);
      const head = servable(id, await store.getItemHead(id));
      // Only the view has labels; every other part is the same in every language.
      const language: LabelLanguage = part === 'view' ? asked : 'de';
      const partTag = `${part.replace('/', '-')}${language === 'de' ? '' : `-${language}`}`;
      const validators = (h: Pick<ItemHead, 'etag' | 'lastModified'>) => ({
        vary: ITEM_VARY,
        'cache-control': cacheControl,
        'last-modified': h.lastModified.toUTCString(),
        tag: `${h.etag}-${partTag}-${rep.form}`,
      });
      const before = validators(head);
      if (notModified(request, before.tag, head.lastModified)) {
        return {
          status: 304,
          headers: {
            vary: before.vary,
            'cache-control': before['cache-control'],
            'last-modified': before['last-modified'],
            etag: `"${before.tag}"`,
          },
          body: undefined,
        };
      }
      const d = await derive(id, part, head, language);
      if (d.elsewhere !== undefined && isValidItemId(d.elsewhere)) {
        // ddb-openapi-6.8.yml: the record of a hierarchy is kept at its root; 303 to it. Relative,
        // so that it holds under any base path: /items/ID/source/record -> /items/ROOT/source/record.
        return {
          status: 303,
          headers: { vary: ITEM_VARY, 'cache-control': cacheControl, location: `../../${d.elsewhere}/source/record` },
          body: undefined,
        };
      }
      const body = rep.form === 'json' ? d.json : d.xml;
      if (body === undefined) throw ApiError.of('itemPartNotFound', id, part);
      const v = validators(d);
      const headers: Record<string, string> = {
        vary: v.vary,
        'cache-control': v['cache-control'],
        'content-type': rep.contentType,
        'last-modified': v['last-modified'],
        etag: `"${v.tag}"`,
      };
      const encoding = body.length < COMPRESS_FROM_BYTES ? 'identity' : negotiateEncoding(request.headers['accept-encoding']);
      if (encoding === 'identity') return { status: 200, headers, body };
      const packed = compressed.get(v.tag, encoding) ?? compressed.put(v.tag, encoding, body);
      return { status: 200, headers: { ...headers, etag: `"${v.tag}-${encoding}"`, 'content-encoding': encoding }, body: packed };
    },
  };
}
