/**
 * Conditional requests, RFC 9110 section 13: If-None-Match (weak comparison,
 * section 8.8.3.2) and, only without it, If-Modified-Since.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** `"abc"`, `W/"abc"` → `abc`. */
function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
}

function matchesTag(inm: string, etagValue: string): boolean {
  if (inm.trim() === '*') return true;
  // A compressed representation carries the suffix -gzip/-br; it validates the same content.
  return inm.split(',').some((t) => opaque(t).replace(/-(gzip|br)$/, '') === etagValue);
}

export function notModified(request: { headers: IncomingHttpHeaders }, etagValue: string, lastModified: Date): boolean {
  const inm = request.headers['if-none-match'];
  if (inm !== undefined) return matchesTag(inm, etagValue);
  const ims = request.headers['if-modified-since'];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    // HTTP dates have second resolution.
    return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** For answers with an ETag and no Last-Modified: If-None-Match alone decides (section 13.1.3). */
export function notModifiedByTag(request: { headers: IncomingHttpHeaders }, etagValue: string): boolean {
  const inm = request.headers['if-none-match'];
  return inm !== undefined && matchesTag(inm, etagValue);
}
