/**
 * Conditional requests, RFC 9110 section 13: If-None-Match (weak comparison,
 * section 8.8.3.2) and, only without it, If-Modified-Since.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** `"abc"`, `W/"abc"` → `abc`. */
function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
}

export function notModified(request: { headers: IncomingHttpHeaders }, etagValue: string, lastModified: Date): boolean {
  const inm = request.headers['if-none-match'];
  if (inm !== undefined) {
    if (inm.trim() === '*') return true;
    // A compressed representation carries the suffix -gzip/-br; it validates the same content.
    return inm.split(',').some((t) => opaque(t).replace(/-(gzip|br)$/, '') === etagValue);
  }
  const ims = request.headers['if-modified-since'];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    // HTTP dates have second resolution.
    return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}
