/**
 * Total orders over hits, and cursors (types.ts `SearchSort` states the orders).
 *
 * An order is a list of components, each comparing two hits or a hit with a value saved in
 * a cursor. A cursor holds the last hit's values, not its position, so a page after it is
 * "every hit that sorts after these values": documents inserted or deleted meanwhile
 * neither repeat nor skip the others: a cursor stays stable under concurrent loads.
 * Relevance scores depend on the collection (idf), so under relevance a document can move
 * across the cursor when the collection changes, as in Solr.
 */
import { SearchRequestError } from './errors.js';

/** Code point order (what SQLite's BINARY and PostgreSQL's "C" collation give for UTF-8). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // A surrogate (0xD800-0xDFFF) is part of a code point above 0xFFFF, so it sorts
      // after every BMP character, including 0xE000-0xFFFF.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

/** FNV-1a over UTF-16 code units. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Murmur3's 32-bit finaliser: a bijection that spreads neighbouring inputs apart. */
export function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** One sort criterion over hits (hit = index into the hit arrays). */
export interface Component {
  compare(a: number, b: number): number;
  /** Compares hit `a` with a value from a cursor. */
  compareValue(a: number, v: CursorValue): number;
  value(a: number): CursorValue;
  /**
   * Compares two values of this component (what `value` gives), as `compare` compares their
   * hits: the merge of the pages of several shards (shards.ts) orders by them.
   */
  compareValues(v: CursorValue, w: CursorValue): number;
  /** How compareValues orders, as data: a merge in another thread (shards.ts mergeParts) orders by it. */
  readonly merge: ValueOrder;
}

export type CursorValue = number | string | null;

/** A component's order of values: numbers or strings (code point order), either way, missing (null) last. */
export interface ValueOrder {
  type: 'number' | 'string';
  descending: boolean;
}

/** compareValues of a component with order `o` (numberComponent's, stringComponent's). */
export function compareOrdered(o: ValueOrder, v: CursorValue, w: CursorValue): number {
  if (v === null || w === null) return v === w ? 0 : v === null ? 1 : -1;
  if (o.type === 'number') {
    const x = Number(v);
    const y = Number(w);
    return o.descending ? (x < y ? 1 : x > y ? -1 : 0) : x < y ? -1 : x > y ? 1 : 0;
  }
  const d = compareCodePoints(String(v), String(w));
  return o.descending ? -d : d;
}

export function compareHits(order: readonly Component[], a: number, b: number): number {
  for (const c of order) {
    const d = c.compare(a, b);
    if (d !== 0) return d;
  }
  return 0;
}

/** > 0 when hit `a` sorts after the cursor's values. */
export function compareToCursor(order: readonly Component[], a: number, values: readonly CursorValue[]): number {
  for (let i = 0; i < order.length; i++) {
    const d = order[i]!.compareValue(a, values[i]!);
    if (d !== 0) return d;
  }
  return 0;
}

/** A numeric component; `missing` (NaN) sorts last in either direction. */
export function numberComponent(get: (hit: number) => number, descending: boolean): Component {
  const cmp = (x: number, y: number): number => {
    const xm = Number.isNaN(x);
    const ym = Number.isNaN(y);
    if (xm || ym) return xm === ym ? 0 : xm ? 1 : -1;
    return descending ? (x < y ? 1 : x > y ? -1 : 0) : x < y ? -1 : x > y ? 1 : 0;
  };
  return {
    compare: (a, b) => cmp(get(a), get(b)),
    compareValue: (a, v) => cmp(get(a), v === null ? NaN : Number(v)),
    value: (a) => {
      const x = get(a);
      return Number.isNaN(x) ? null : x;
    },
    compareValues: (v, w) => cmp(v === null ? NaN : Number(v), w === null ? NaN : Number(w)),
    merge: { type: 'number', descending },
  };
}

/** A string component; `undefined` sorts last in either direction. */
export function stringComponent(get: (hit: number) => string | undefined, descending: boolean): Component {
  const cmp = (x: string | undefined, y: string | undefined): number => {
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    const d = compareCodePoints(x, y);
    return descending ? -d : d;
  };
  return {
    compare: (a, b) => cmp(get(a), get(b)),
    compareValue: (a, v) => cmp(get(a), v === null ? undefined : String(v)),
    value: (a) => get(a) ?? null,
    compareValues: (v, w) => cmp(v === null ? undefined : String(v), w === null ? undefined : String(w)),
    merge: { type: 'string', descending },
  };
}

/**
 * Cursor text: base64url of JSON [fingerprint, ...values]. The fingerprint names query,
 * filters and sort, so a cursor is not applied to another search.
 */
export function encodeCursor(fingerprint: string, values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify([fingerprint, ...values])).toString('base64url');
}

export function decodeCursor(cursor: string, fingerprint: string, length: number): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const invalid = () =>
    new SearchRequestError("The cursor is not valid: send '*' to start, then the next cursor of the previous response.");
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') throw invalid();
  const values = parsed as unknown[];
  if (values[0] !== fingerprint) {
    throw new SearchRequestError(
      'The cursor belongs to another search: keep query, filters and sort the same while paging, or start again with *.',
    );
  }
  const ok =
    values.length === length + 1 &&
    values.every((v, i) => i === 0 || v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
  if (!ok) throw invalid();
  return values.slice(1) as CursorValue[];
}

/**
 * A second coarse key, read where two hits' coarse keys are equal (sortPlan.ts): the column
 * of the component that comes next, by ordinal (`values[docs[hit]]`), `sign` -1 when it
 * sorts descending. Only for coarse keys that are exact: equal keys mean equal components
 * before this one. Different values decide as that component would; equal values or a
 * missing one (NaN) leave it to the order. Ties on one score are the rule for a common
 * term (its scores take few values), and comparing them through every component cost more
 * than the rest of the top k in the bench.
 */
export interface TieKey {
  values: Float64Array;
  docs: Uint32Array;
  sign: 1 | -1;
}

/** Coarse keys of the hits for smallestHits (sortPlan.ts). */
export interface CoarseKeys {
  /** A key per hit, monotone in the order. */
  keys: Float64Array;
  /** The key of the cursor's values (−Infinity without a cursor). */
  afterKey: number;
  tie?: TieKey;
}

/**
 * The k smallest hits under `order` among `n` hits, in order, skipping those not after the
 * cursor: a bounded max-heap, O(n log k) comparisons and no allocation per hit. With
 * `coarse` (a key per hit, monotone in the order: sortPlan.ts), most comparisons are one of
 * two numbers; equal keys fall back to the tie key, then to `order`.
 */
export function smallestHits(
  n: number,
  order: readonly Component[],
  k: number,
  after: readonly CursorValue[] | undefined,
  tick: () => void,
  coarse?: CoarseKeys,
): number[] {
  if (k <= 0 || n === 0) return [];
  const heap = new Int32Array(Math.min(k, n));
  const cap = heap.length;
  let size = 0;
  const keys = coarse?.keys;
  const afterKey = coarse?.afterKey ?? -Infinity;
  const tie = coarse?.tie;
  const tieValues = tie?.values ?? new Float64Array(0);
  const tieDocs = tie?.docs ?? new Uint32Array(0);
  const descending = tie?.sign === -1;
  const tied = (a: number, b: number): boolean => {
    if (tie !== undefined) {
      const s = tieValues[tieDocs[a]!]!;
      const t = tieValues[tieDocs[b]!]!;
      if (s !== t && s === s && t === t) return descending ? s < t : s > t;
    }
    return compareHits(order, a, b) > 0;
  };
  const greater = keys
    ? (a: number, b: number) => {
        const x = keys[a]!;
        const y = keys[b]!;
        return x !== y ? x > y : tied(a, b);
      }
    : (a: number, b: number) => compareHits(order, a, b) > 0;
  for (let h = 0; h < n; h++) {
    if ((h & 1023) === 0) tick();
    if (keys) {
      const x = keys[h]!;
      if (after && (x < afterKey || (x === afterKey && compareToCursor(order, h, after) <= 0))) continue;
      if (size === cap && x > keys[heap[0]!]!) continue;
    } else if (after && compareToCursor(order, h, after) <= 0) continue;
    if (size < cap) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!greater(h, heap[p]!)) break;
        heap[i] = heap[p]!;
        i = p;
      }
      heap[i] = h;
    } else if (greater(heap[0]!, h)) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = h;
        let mi = -1;
        if (l < size && greater(heap[l]!, m)) {
          m = heap[l]!;
          mi = l;
        }
        if (r < size && greater(heap[r]!, m)) {
          m = heap[r]!;
          mi = r;
        }
        if (mi < 0) break;
        heap[i] = m;
        i = mi;
      }
      heap[i] = h;
    }
  }
  return Array.from(heap.subarray(0, size)).sort((a, b) => (greater(a, b) ? 1 : greater(b, a) ? -1 : 0));
}
