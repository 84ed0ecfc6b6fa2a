/**
 * Content negotiation on the Accept header, RFC 9110 section 12.5.1:
 * media ranges with q-values; the most specific range that matches an offer
 * gives its quality; the offer with the highest quality wins, ties going to
 * the earlier offer (JSON first, docs/decisions.md "Accept": `*∕*` and
 * `application/*` give JSON, a browser's Accept gives XML).
 */

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** 0 for *∕*, 1 for type/*, 2 for type/subtype: more specific ranges take precedence. */
  specificity: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mediaType = '', ...params] = part.split(';');
    const [type, subtype] = mediaType.trim().toLowerCase().split('/');
    if (!type || !subtype) continue; // not a media range: ignore it, as RFC 9110 allows
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k?.toLowerCase() === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    const specificity = type === '*' ? 0 : subtype === '*' ? 1 : 2;
    ranges.push({ type, subtype, q, specificity });
  }
  return ranges;
}

function quality(ranges: MediaRange[], offer: string): number {
  const [type, subtype] = offer.split('/');
  let best: MediaRange | undefined;
  for (const r of ranges) {
    const matches = (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
    if (matches && (!best || r.specificity > best.specificity)) best = r;
  }
  return best?.q ?? 0;
}

/**
 * The offer the client prefers, or undefined when it accepts none of them.
 * `offers` are concrete media types in order of our preference.
 */
export function negotiate(acceptHeader: string, offers: readonly string[]): string | undefined {
  const ranges = parseAccept(acceptHeader);
  let chosen: string | undefined;
  let chosenQ = 0;
  for (const offer of offers) {
    const q = quality(ranges, offer);
    if (q > chosenQ) {
      chosen = offer;
      chosenQ = q;
    }
  }
  return chosen;
}

/**
 * Remembers a function of a header value. Clients send the same Accept and
 * Accept-Encoding on every request, and parsing them was a visible part of a
 * small cached answer in the bench. Bounded: values longer than 256 characters,
 * and new ones past `max` distinct values (someone sending random headers),
 * are computed and not kept.
 */
export function byHeaderValue<T>(compute: (value: string) => T, max = 1000): (value: string) => T {
  const known = new Map<string, T>();
  return (value) => {
    let result = known.get(value);
    if (result === undefined && !known.has(value)) {
      result = compute(value);
      if (known.size < max && value.length <= 256) known.set(value, result);
    }
    return result as T;
  };
}

/** Preference order of encodings we keep ready (brotli is smaller, gzip is universal). */
const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Accept-Encoding negotiation (RFC 9110 section 12.5.3); identity is acceptable unless refused. */
export function negotiateEncoding(header: string | undefined): Encoding {
  return header ? encodingOf(header) : 'identity';
}

const encodingOf = byHeaderValue((header: string): Encoding => {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    let value = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k === 'q') value = Number(v) || 0;
    }
    q.set(name.trim().toLowerCase(), value);
  }
  const star = q.get('*');
  let best: Encoding = 'identity';
  let bestQ = q.get('identity') ?? (star !== undefined && star === 0 ? 0 : 0.001);
  for (const enc of ENCODINGS) {
    if (enc === 'identity') continue;
    const v = q.get(enc) ?? star ?? 0;
    if (v > bestQ) {
      best = enc;
      bestQ = v;
    }
  }
  return best;
});
