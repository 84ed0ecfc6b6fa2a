/**
 * The ETag of a package: a strong validator of its content (RFC 9110, section 8.8.3),
 * a digest of the canonical cortex XML (docs/api.md). Computed when a package is loaded
 * and again by `heritage-api verify`, which checks each stored body against it.
 */
import { createHash } from 'node:crypto';

export function packageEtag(xml: string | Buffer): string {
  return createHash('sha256').update(xml).digest('base64url').slice(0, 27);
}
