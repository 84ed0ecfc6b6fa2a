/**
 * How package bodies are kept on disk, compact: brotli, as the
 * bodies' `br` form is served, so that a `br` answer can be the stored bytes
 * (ItemDocument.brotli). A package's JSON and XML are 48 KB together for the
 * bench's packages, and 6.9 KB compressed: 9.5 KB a package on disk with its
 * row and indexes (docs/benchmarks.md "Stored package bodies").
 *
 * Quality 3: every package loaded is compressed once, and a load of the
 * bench's packages takes about 1.5 ms of CPU each. Measured on them (CPU per
 * package, both bodies; compressed size; size on disk in 4 KB pages):
 * q1 0.20 ms, 7.6 KB, 9.0 KB; q3 0.26 ms, 6.9 KB, 8.6 KB; q5 (the HTTP
 * layer's own, src/http/compressedCache.ts) 0.52 ms, 6.3 KB, 8.0 KB;
 * q11 90 ms, 5.8 KB. Decoding takes 40-60 us for a 20 KB body at any quality.
 *
 * A backend that keeps bodies so must use these parameters: one ETag is then
 * one `br` body, whichever node or store answers. Nothing here knows SQLite.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { LruCache } from '../lruCache.js';

/** The name of the encoding, as recorded in the store (schema migration 10) and as HTTP names it. */
export const BODY_ENCODING = 'br';

const PARAMS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 3, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};

/** The stored form of a body. */
export function encodeBody(body: string | Buffer): Buffer {
  return brotliCompressSync(typeof body === 'string' ? Buffer.from(body, 'utf8') : body, PARAMS);
}

/** The body of a stored form. */
export function decodeBody(stored: Buffer): Buffer {
  return brotliDecompressSync(stored);
}

/** Decodes what a prefix of the stream holds instead of failing on the end it lacks. */
const PARTIAL = { finishFlush: constants.BROTLI_OPERATION_FLUSH };

/**
 * The body's start up to and including the first `marker`, decoded from the first half of
 * the stored form only; undefined when that half does not reach the marker (decode it all
 * then). Brotli decodes a prefix of its stream into a prefix of the body, and its cost
 * follows the bytes it writes: an OAI-PMH harvest in `edm` needs only the package's `edm`
 * part, its first few KB, and decoding the whole package was the largest cost of a full
 * harvest (docs/oai-pmh.md "Speed"). Half: on the bench's packages the edm part ends in the
 * first 33–51 % of the stored bytes (99 % below 49 %), on the fixtures' real ones in the
 * first 15–34 %; a package whose marker lies later costs the half more.
 */
export function decodeBodyThrough(stored: Buffer, marker: Buffer): Buffer | undefined {
  let head: Buffer;
  try {
    head = brotliDecompressSync(stored.subarray(0, Math.ceil(stored.length / 2)), PARTIAL);
  } catch {
    return undefined;
  }
  const at = head.indexOf(marker);
  return at < 0 ? undefined : head.subarray(0, at + marker.length);
}

/**
 * Bodies decoded before, by the content they are of. Decoding a 20 KB body
 * takes 40–50 us, as long as the rest of a package request, and a client
 * that does not accept br would pay it on every request; a decoded body is
 * therefore kept until the byte budget pushes it out.
 *
 * Keyed by the item's ETag and the format: the ETag is a digest of the XML,
 * from which the JSON is made, so one key is one body whatever item it is
 * of, and a changed item can never be answered with its old body.
 */
export class DecodedBodies {
  private readonly cache: LruCache<Buffer>;

  constructor(maxBytes: number) {
    this.cache = new LruCache<Buffer>(maxBytes, (b) => b.length);
  }

  /** The body of `stored`, the stored form of the body with `key`. */
  decode(key: string, stored: Buffer): Buffer {
    let body = this.cache.get(key);
    if (body === undefined) {
      body = decodeBody(stored);
      this.cache.set(key, body);
    }
    return body;
  }
}
