/**
 * Strings as UTF-16 code units in reusable buffers, and the UTF-8 of those units: what a walk
 * over many terms (nearTerms.ts over frontCoded.ts) reads instead of making a string of each
 * (docs/search-engine.md "Dictionaries"). By hand, as the encoding's definition (RFC 3629 §3)
 * reads: TextDecoder and Buffer make strings, and a string per term read is what this avoids.
 */

/** A buffer of UTF-16 code units, replaced by a larger one when too short. */
export interface Units {
  units: Uint16Array;
}

/** `units[0, n)` as a string. */
export function stringOfUnits(units: Uint16Array, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(units[i]!);
  return s;
}

/** The code units of `s` into `out` from 0; their count. */
export function unitsOfString(s: string, out: Units): number {
  const n = s.length;
  if (out.units.length < n) out.units = new Uint16Array(Math.max(n, out.units.length * 2));
  const u = out.units;
  for (let i = 0; i < n; i++) u[i] = s.charCodeAt(i);
  return n;
}

/** The UTF-16 code units of the UTF-8 bytes `b[0, len)` into `out` from 0 (never more than the bytes); their count. */
export function utf16OfUtf8(b: Uint8Array, len: number, ascii: boolean, out: Units): number {
  if (out.units.length < len) out.units = new Uint16Array(Math.max(len, out.units.length * 2));
  const u = out.units;
  if (ascii) {
    for (let i = 0; i < len; i++) u[i] = b[i]!;
    return len;
  }
  let n = 0;
  for (let i = 0; i < len;) {
    const x = b[i]!;
    if (x < 0x80) {
      u[n++] = x;
      i++;
    } else if (x < 0xe0) {
      u[n++] = ((x & 0x1f) << 6) | (b[i + 1]! & 0x3f);
      i += 2;
    } else if (x < 0xf0) {
      u[n++] = ((x & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
      i += 3;
    } else {
      const cp = ((x & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
      u[n++] = 0xd800 + ((cp - 0x10000) >> 10);
      u[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      i += 4;
    }
  }
  return n;
}

/** `units[0, n)` as UTF-8 into `out` (room for 3 bytes a unit) from 0; the byte count, or -1 if they hold a lone surrogate, which has no UTF-8. */
export function utf8OfUnits(units: Uint16Array, n: number, out: Uint8Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const x = units[i]!;
    if (x < 0x80) out[k++] = x;
    else if (x < 0x800) {
      out[k++] = 0xc0 | (x >> 6);
      out[k++] = 0x80 | (x & 0x3f);
    } else if (x < 0xd800 || x > 0xdfff) {
      out[k++] = 0xe0 | (x >> 12);
      out[k++] = 0x80 | ((x >> 6) & 0x3f);
      out[k++] = 0x80 | (x & 0x3f);
    } else {
      const y = i + 1 < n ? units[i + 1]! : 0;
      if (x > 0xdbff || y < 0xdc00 || y > 0xdfff) return -1;
      const cp = 0x10000 + ((x - 0xd800) << 10) + (y - 0xdc00);
      out[k++] = 0xf0 | (cp >> 18);
      out[k++] = 0x80 | ((cp >> 12) & 0x3f);
      out[k++] = 0x80 | ((cp >> 6) & 0x3f);
      out[k++] = 0x80 | (cp & 0x3f);
      i++;
    }
  }
  return k;
}

/** Whether `s` has no lone surrogate (so its UTF-8 bytes are its code points). */
export function wellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false;
    const d = s.charCodeAt(++i);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
  }
  return true;
}
