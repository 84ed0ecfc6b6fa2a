/**
 * The linked-data answer of an item (docs/linked-data.md): its EDM graph, the rdf:RDF of the
 * package's `edm` part, in the RDF syntax the request chose (./linkedData.ts), for
 * GET /items/{id} and /items/{id}/edm.
 *
 * application/rdf+xml is the stored RDF/XML, exactly as /items/{id}/edm serves it; the other
 * syntaxes are written from the triples of that document (../formats/rdf/), so every syntax
 * says the same graph. Validators: the package's Last-Modified, and an ETag of the package's
 * ETag and the syntax. Bodies are derived once per package version and kept until the byte
 * budget pushes them out, as the parts' are (./partAnswers.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { NS } from '../formats/namespaces.js';
import { packagePart } from '../formats/packageParts.js';
import { rdfXmlQuads, RdfXmlSyntaxError } from '../formats/rdf/rdfXmlQuads.js';
import { rdfXmlShapeProblem } from '../formats/rdf/rdfXmlShape.js';
import { writeJsonLd, writeNTriples, writeTurtle } from '../formats/rdf/rdfSyntaxes.js';
import { EDM_PREFIXES } from '../formats/rdf/vocabularies.js';
import { parseXml } from '../formats/xmlTree.js';
import { LruCache } from '../lruCache.js';
import type { Store } from '../store/Store.js';
import { CompressedCache } from './compressedCache.js';
import { notModified } from './conditional.js';
import { itemVary } from './formatChoice.js';
import { servable } from './itemAccess.js';
import { RDF_CONTENT_TYPE, RDF_TAG, type RdfType } from './linkedData.js';
import { negotiateEncoding } from './negotiate.js';

const BODY_CACHE_BYTES = 16 * 1024 * 1024;
const COMPRESSED_CACHE_BYTES = 8 * 1024 * 1024;
/** Smaller bodies are sent as they are: compressing them saves less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

export interface GraphAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** undefined for 304. */
  body: Buffer | undefined;
}

export interface ItemGraphAnswers {
  answer(request: { headers: IncomingHttpHeaders }, id: string, type: RdfType): Promise<GraphAnswer>;
}

/**
 * The base IRI the stored RDF/XML is read against (RDF/XML section 2.14): the item's URI in
 * the DDB's item namespace, the subject its ProvidedCHO has in DDB packages. Only relative
 * IRIs (rare in EDM) depend on it; it is the same on every host, so a body is the same too.
 */
export function itemBaseIri(id: string): string {
  return `${NS.item}/${id}`;
}

/** The item's EDM in `type`; throws the catalog's error when the package has none or it cannot be read. */
export async function edmInSyntax(xmlPackage: string, id: string, type: RdfType): Promise<string> {
  const part = packagePart(parseXml(xmlPackage), id, 'edm');
  if (part.kind !== 'part') throw ApiError.of('itemPartNotFound', id, 'edm');
  if (type === 'application/rdf+xml') return part.xml;
  const problem = rdfXmlShapeProblem(parseXml(part.xml));
  if (problem !== undefined) throw ApiError.of('edmNotReadable', id, type, problem);
  let quads;
  try {
    quads = await rdfXmlQuads(part.xml, itemBaseIri(id));
  } catch (e) {
    if (e instanceof RdfXmlSyntaxError) throw ApiError.of('edmNotReadable', id, type, e.message);
    throw e;
  }
  if (type === 'text/turtle') return writeTurtle(quads, EDM_PREFIXES);
  if (type === 'application/n-triples') return writeNTriples(quads);
  return writeJsonLd(quads, EDM_PREFIXES);
}

interface Derived {
  etag: string;
  lastModified: Date;
  body: Buffer;
}

export function createItemGraphAnswers(store: Pick<Store, 'getItemDocument' | 'getItemHead'>, config: Config): ItemGraphAnswers {
  const bodies = new LruCache<Derived>(BODY_CACHE_BYTES, (d) => 128 + d.body.length);
  const compressed = new CompressedCache(COMPRESSED_CACHE_BYTES);
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;
  const vary = itemVary(config.http.corsOrigin);

  async function derive(id: string, type: RdfType, etag: string): Promise<Derived> {
    const key = `${type}\u0000${id}`;
    const cached = bodies.get(key);
    if (cached !== undefined && cached.etag === etag) return cached;
    // Read anew with the body, and answer with what was read: a commit between the two reads
    // must not put a new body under the old ETag.
    const doc = servable(id, await store.getItemDocument(id, 'xml'));
    const body = Buffer.from(await edmInSyntax(doc.body.toString('utf8'), id, type));
    const fresh = { etag: doc.etag, lastModified: doc.lastModified, body };
    bodies.set(key, fresh);
    return fresh;
  }

  return {
    async answer(request, id, type) {
      const head = servable(id, await store.getItemHead(id));
      const tagOf = (etag: string) => `${etag}-edm-${RDF_TAG[type]}`;
      const before = tagOf(head.etag);
      if (notModified(request, before, head.lastModified)) {
        return {
          status: 304,
          headers: { vary, 'cache-control': cacheControl, 'last-modified': head.lastModified.toUTCString(), etag: `"${before}"` },
          body: undefined,
        };
      }
      const d = await derive(id, type, head.etag);
      const tag = tagOf(d.etag);
      const headers: Record<string, string> = {
        vary,
        'cache-control': cacheControl,
        'content-type': RDF_CONTENT_TYPE[type],
        'last-modified': d.lastModified.toUTCString(),
        etag: `"${tag}"`,
      };
      const encoding = d.body.length < COMPRESS_FROM_BYTES ? 'identity' : negotiateEncoding(request.headers['accept-encoding']);
      if (encoding === 'identity') return { status: 200, headers, body: d.body };
      const packed = compressed.get(tag, encoding) ?? compressed.put(tag, encoding, d.body);
      return { status: 200, headers: { ...headers, etag: `"${tag}-${encoding}"`, 'content-encoding': encoding }, body: packed };
    },
  };
}
