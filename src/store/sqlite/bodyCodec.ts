/**
 * How package bodies are kept on disk (issue #16 point 6): brotli, as the
 * bodies' `br` form is served. A package's JSON and XML are 48 KB together
 * for the bench's packages and 6–7 KB compressed (docs/benchmarks.md
 * "Stored package bodies").
 *
 * The parameters are those of the HTTP layer's own brotli form
 * (src/http/compressedCache.ts: quality 5, text mode, default window), so
 * the stored bytes are byte for byte what it would send: a `br` answer can
 * be the stored bytes, and is the same whether it was read from the store or
 * compressed from the body. Quality 5 is within 10 % of 11's size at 1/200 of
 * its time (measured on the bench's packages).
 *
 * Nothing here knows SQLite: another backend may keep its bodies the same way.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { LruCache } from '../../lruCache.js';

/** The name of the encoding, as recorded in the store (schema migration 9) and as HTTP names it. */
export const BODY_ENCODING = 'br';

const PARAMS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};

/** The stored form of a body. */
export function encodeBody(body: string | Buffer): Buffer {
  return brotliCompressSync(typeof body === 'string' ? Buffer.from(body, 'utf8') : body, PARAMS);
}

/** The body of a stored form. */
export function decodeBody(stored: Buffer): Buffer {
  return brotliDecompressSync(stored);
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
