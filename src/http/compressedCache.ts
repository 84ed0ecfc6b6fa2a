/**
 * Compressed item bodies, kept in memory.
 *
 * Compressing a 60 KB package per request costs ten times more than sending
 * it (shared/notes/measurements.md, "HTTP on one core"), so each body is
 * compressed once and kept here, keyed by its ETag, until the byte budget
 * pushes it out (least recently used first). A changed item has a new ETag,
 * so a stale entry can never be served; it just ages out.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Encoding } from './negotiate.js';

export class CompressedCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, encoding: Exclude<Encoding, 'identity'>, body: () => Buffer): Buffer {
    const k = `${key}\u0000${encoding}`;
    const hit = this.entries.get(k);
    if (hit) {
      // Re-insert to mark as most recently used.
      this.entries.delete(k);
      this.entries.set(k, hit);
      return hit;
    }
    const compressed = compress(body(), encoding);
    if (compressed.length <= this.maxBytes) {
      this.entries.set(k, compressed);
      this.bytes += compressed.length;
      for (const [oldKey, old] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.entries.delete(oldKey);
        this.bytes -= old.length;
      }
    }
    return compressed;
  }

  get size(): number {
    return this.bytes;
  }
}

function compress(body: Buffer, encoding: Exclude<Encoding, 'identity'>): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: 6 });
  // Quality 5 is within a few per cent of 11 on XML/JSON at a fraction of the time.
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
}
