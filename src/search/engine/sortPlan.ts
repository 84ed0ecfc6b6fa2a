/**
 * How a search orders its hits (types.ts SearchSort): the exact order as components
 * (order.ts), plus a coarse key per hit that makes the common comparison one of two numbers.
 *
 * The coarse key is a monotone image of the order: a hit before another never has a greater
 * key; equal keys say nothing, and the exact components decide. Selecting the top k of a
 * million hits then reads one Float64Array instead of calling comparators and comparing
 * strings, which the bench showed at a million hits. Keys: the first component that tells hits apart, as a
 * number ascending (negated when descending, a missing value +Infinity); strings by their
 * rank (ranks.ts); relevance as −score, the exact-match tier folded in as a constant offset
 * larger than any score; a relevance sort whose scores are all equal (`*:*`) by its
 * tiebreak's first key.
 */
import type { QueryNode } from '../../query/ast.js';
import { tokens } from './fold.js';
import { SearchRequestError } from './errors.js';
import type { Hits } from './evaluate.js';
import { checkShape, distanceKm, pointColumns } from './geo.js';
import { isZeros } from './hits.js';
import { compareCodePoints, hashString, mix32, numberComponent, type Component, type CursorValue, type TieKey } from './order.js';
import type { RankedStrings } from './ranks.js';
import { hashString2, type SearchIndex } from './SearchIndex.js';
import type { SearchSort } from './types.js';

export interface SortPlan {
  order: Component[];
  /** Coarse key per hit (valid until the next search: a shared buffer). */
  keys: Float64Array;
  /** The coarse key of a cursor's values. */
  afterKey(values: readonly CursorValue[]): number;
  /** Where equal keys are equal components so far: the next component's column (order.ts). */
  tie?: TieKey;
}

/** A sort key's component, coarse key, and column by ordinal (ranks, or the numbers). */
interface KeyOrder {
  component: Component;
  coarse: Coarse;
  column: Float64Array;
  sign: 1 | -1;
}

let buffer = new Float64Array(1024);

function keyBuffer(n: number): Float64Array {
  if (buffer.length < n) buffer = new Float64Array(Math.max(n, buffer.length * 2));
  return buffer.subarray(0, n);
}

/** Coarse key of one component: per hit, and of a cursor value. */
interface Coarse {
  fill(keys: Float64Array): void;
  of(v: CursorValue): number;
}

/**
 * `tierDocs`: the live documents a tier query of a `tiers` sort matches, ascending (search.ts
 * evaluates them apart from the query, so that their leaves are no matched terms).
 */
export function sortPlan(
  ix: SearchIndex,
  sort: SearchSort,
  query: QueryNode<string>,
  hits: Hits,
  tierDocs: (q: QueryNode<string>) => Uint32Array = () => new Uint32Array(0),
): SortPlan {
  ix.refreshOrders();
  const docs = hits.docs;
  const n = docs.length;
  const ranked = (r: RankedStrings, descending: boolean): Coarse => {
    const rank = r.rank.array;
    const sign = descending ? -1 : 1;
    return {
      fill: (keys) => {
        for (let h = 0; h < n; h++) {
          const x = rank[docs[h]!]!;
          keys[h] = x === x ? sign * x : Infinity;
        }
      },
      of: (v) => (v === null ? Infinity : sign * r.rankOf(String(v))),
    };
  };
  const numeric = (a: Float64Array, descending: boolean): Coarse => {
    const sign = descending ? -1 : 1;
    return {
      fill: (keys) => {
        for (let h = 0; h < n; h++) {
          const x = a[docs[h]!]!;
          keys[h] = x === x ? sign * x : Infinity;
        }
      },
      of: (v) => (v === null ? Infinity : sign * Number(v)),
    };
  };
  const byId = (descending: boolean) => rankedComponent(ix.idRanks, docs, descending);
  const key = (name: string, descending: boolean): KeyOrder => {
    const k = ix.sortKey.get(name);
    if (k === undefined) {
      throw new SearchRequestError(`Cannot sort by '${name}'; sort keys are ${ix.schema.sortKeys.map((s) => s.name).join(', ')}.`);
    }
    const nums = ix.sortNumbers[k];
    if (nums) {
      const a = nums.array;
      return {
        component: numberComponent((h) => a[docs[h]!]!, descending),
        coarse: numeric(a, descending),
        column: a,
        sign: descending ? -1 : 1,
      };
    }
    const r = ix.sortRanks[k]!;
    return {
      component: rankedComponent(r, docs, descending),
      coarse: ranked(r, descending),
      column: r.rank.array,
      sign: descending ? -1 : 1,
    };
  };
  const plan = (order: Component[], coarse: Coarse): SortPlan => {
    const keys = keyBuffer(n);
    coarse.fill(keys);
    return { order, keys, afterKey: (values) => coarse.of(values[0]!) };
  };
  switch (sort.kind) {
    case 'id':
      return plan([byId(sort.descending)], ranked(ix.idRanks, sort.descending));
    case 'key': {
      const k = key(sort.key, sort.descending);
      return plan([k.component, byId(false)], k.coarse);
    }
    case 'random': {
      const seed = hashString(sort.seed);
      const hash = ix.idHash.array;
      const rnd = (h: number) => mix32(hash[docs[h]!]! ^ seed);
      const coarse: Coarse = {
        fill: (keys) => {
          for (let h = 0; h < n; h++) keys[h] = rnd(h);
        },
        of: (v) => (v === null ? Infinity : Number(v)),
      };
      return plan([numberComponent(rnd, false), byId(false)], coarse);
    }
    case 'distance': {
      // Each hit's distance once (NaN: no point, last in either direction), then the id.
      checkShape({ kind: 'circle', lat: sort.lat, lon: sort.lon, km: 0 });
      const [lat, lon] = pointColumns(ix);
      const dist = new Float64Array(n);
      for (let h = 0; h < n; h++) {
        const d = docs[h]!;
        dist[h] = lat[d]! === lat[d]! && lon[d]! === lon[d]! ? distanceKm(sort.lat, sort.lon, lat[d], lon[d]) : NaN;
      }
      const sign = sort.descending ? -1 : 1;
      const coarse: Coarse = {
        fill: (keys) => {
          for (let h = 0; h < n; h++) keys[h] = dist[h]! === dist[h]! ? sign * dist[h]! : Infinity;
        },
        of: (v) => (v === null ? Infinity : sign * Number(v)),
      };
      return plan([numberComponent((h) => dist[h]!, sort.descending), byId(false)], coarse);
    }
    case 'relevance':
      return relevancePlan(ix, query, hits, key, byId, plan);
    case 'tiers': {
      const ks = sort.keys.map((k) => key(k.key, k.descending));
      const order = [...ks.map((k) => k.component), byId(false)];
      const coarse = ks[0]?.coarse ?? ranked(ix.idRanks, false);
      const tier = tiersOf(ix, sort, query, docs, tierDocs);
      if (tier === undefined) return plan(order, coarse);
      order.unshift(numberComponent((h) => tier[h]!, false));
      // The tier as an offset above the span of the first key's coarse values, when all are
      // finite; else the tier alone (the exact components decide within it).
      const keys = keyBuffer(n);
      coarse.fill(keys);
      let min = Infinity;
      let max = -Infinity;
      for (let h = 0; h < n; h++) {
        const x = keys[h]!;
        if (x < min) min = x;
        if (x > max) max = x;
      }
      const finite = Number.isFinite(min) && Number.isFinite(max);
      const span = finite ? max - min + 1 : 0;
      for (let h = 0; h < n; h++) keys[h] = finite ? tier[h]! * span + (keys[h]! - min) : tier[h]!;
      return {
        order,
        keys,
        afterKey: (values) => {
          const t = Number(values[0]);
          if (!finite) return t;
          // A cursor value outside this search's range: before or after every key of its tier.
          const v = coarse.of(values[1]!);
          return t * span + Math.min(Math.max(v - min, 0), span - 1);
        },
      };
    }
  }
}

/**
 * A string component (missing values last in either direction) over a column and its ranks
 * (ranks.ts): ranks decide unless two hits share a half rank, then the UTF-8 bytes in place.
 */
function rankedComponent(r: RankedStrings, docs: Uint32Array, descending: boolean): Component {
  const rank = r.rank.array;
  const col = r.column;
  const sign = descending ? -1 : 1;
  let cursorText: string | undefined;
  let cursorBytes = Buffer.alloc(0);
  return {
    compare: (a, b) => {
      const x = rank[docs[a]!]!;
      const y = rank[docs[b]!]!;
      if (x !== x || y !== y) return x !== x ? (y !== y ? 0 : 1) : -1; // NaN: none, last
      if (x !== y) return x < y ? -sign : sign;
      if (x === Math.floor(x)) return 0;
      return sign * col.compare(docs[a]!, docs[b]!);
    },
    compareValue: (a, v) => {
      const d = docs[a]!;
      const has = rank[d] === rank[d];
      if (!has || v === null) return has === (v !== null) ? 0 : has ? -1 : 1;
      const s = String(v);
      if (s !== cursorText) {
        cursorText = s;
        cursorBytes = Buffer.from(s, 'utf8');
      }
      return sign * col.compareBytes(d, cursorBytes, cursorBytes.length);
    },
    value: (a) => col.get(docs[a]!) ?? null,
    // code point order of the strings is the UTF-8 byte order `compare` reads (order.ts)
    compareValues: (v, w) => {
      if (v === null || w === null) return v === w ? 0 : v === null ? 1 : -1;
      return sign * compareCodePoints(String(v), String(w));
    },
    merge: { type: 'string', descending },
  };
}

/**
 * The tier of each hit under a `tiers` sort (types.ts): 0 for an exact first-field match
 * (with `exact`), then one per tier query, the rest last; undefined when there are no tiers.
 */
function tiersOf(
  ix: SearchIndex,
  sort: Extract<SearchSort, { kind: 'tiers' }>,
  query: QueryNode<string>,
  docs: Uint32Array,
  tierDocs: (q: QueryNode<string>) => Uint32Array,
): Uint32Array | undefined {
  const first = sort.exact ? 1 : 0;
  const levels = first + sort.tiers.length;
  if (levels === 0) return undefined;
  const tier = new Uint32Array(docs.length).fill(levels);
  const exact = sort.exact ? exactKey(ix, query) : null;
  if (exact !== null) {
    const a = hashString(exact);
    const b = hashString2(exact);
    const ea = ix.exactA.array;
    const eb = ix.exactB.array;
    for (let h = 0; h < docs.length; h++) if (ea[docs[h]!] === a && eb[docs[h]!] === b) tier[h] = 0;
  }
  sort.tiers.forEach((q, i) => {
    const level = first + i;
    const matched = tierDocs(q);
    let j = 0;
    for (let h = 0; h < docs.length; h++) {
      const d = docs[h]!;
      while (j < matched.length && matched[j]! < d) j++;
      if (j < matched.length && matched[j] === d && tier[h]! > level) tier[h] = level;
    }
  });
  return tier;
}

function relevancePlan(
  ix: SearchIndex,
  query: QueryNode<string>,
  hits: Hits,
  key: (name: string, descending: boolean) => KeyOrder,
  byId: (descending: boolean) => Component,
  plan: (order: Component[], coarse: Coarse) => SortPlan,
): SortPlan {
  const docs = hits.docs;
  const n = docs.length;
  const scores = hits.scores!;
  const order: Component[] = [];
  const exact = exactKey(ix, query);
  const words = exact === null ? null : { a: hashString(exact), b: hashString2(exact) };
  let tier: ((h: number) => number) | undefined;
  if (words !== null) {
    const { a, b } = words;
    const ea = ix.exactA.array;
    const eb = ix.exactB.array;
    tier = (h) => (ea[docs[h]!] === a && eb[docs[h]!] === b ? 0 : 1);
    order.push(numberComponent(tier, false));
  }
  order.push(numberComponent((h) => scores[h]!, true));
  const tiebreak = ix.schema.relevanceTiebreak.map((t) => key(t.key, t.descending));
  for (const t of tiebreak) order.push(t.component);
  order.push(byId(false));
  // One pass: the span of the scores, the key -score of each hit, and the hits of tier 0
  // (their keys are lowered by `big` below, once the span is known). Scores that are all
  // zeros(), as of `*:*`, need no pass.
  let min = Infinity;
  let max = -Infinity;
  const keys = keyBuffer(n);
  let top: Uint32Array = new Uint32Array(0);
  let tops = 0;
  if (isZeros(scores) && n > 0) {
    min = 0;
    max = 0;
  }
  if (tier || !isZeros(scores) || tiebreak.length === 0) {
    if (tier) {
      const { a, b } = words!;
      const ea = ix.exactA.array;
      const eb = ix.exactB.array;
      top = ix.scratchPool.u32(n);
      for (let h = 0; h < n; h++) {
        const s = scores[h]!;
        if (s < min) min = s;
        if (s > max) max = s;
        keys[h] = -s;
        const d = docs[h]!;
        if (ea[d] === a && eb[d] === b) top[tops++] = h;
      }
    } else {
      for (let h = 0; h < n; h++) {
        const s = scores[h]!;
        if (s < min) min = s;
        if (s > max) max = s;
        keys[h] = -s;
      }
    }
  }
  const at = tier ? 1 : 0; // where the score is in a cursor's values
  if (!tier && min === max && tiebreak.length > 0) {
    // every hit has the same score: the tiebreak orders them
    const t = tiebreak[0]!.coarse;
    return {
      ...plan(order, t),
      afterKey: (values) => {
        const s = Number(values[0]);
        if (s > max) return -Infinity; // the cursor is before every hit
        if (s < max) return Infinity; // after every hit (keys of +Infinity still compare exactly)
        return t.of(values[1]!);
      },
    };
  }
  // Tier 0 below every other hit: scores are ≥ 0, so lowering its keys by more than the span
  // of the scores puts them first (the exact components decide within a key).
  const big = 2 * Math.max(0, max) + 2;
  for (let i = 0; i < tops; i++) {
    const h = top[i]!;
    keys[h] = -scores[h]! - big;
  }
  // Keys of -score are exact unless tier 0 was lowered (a sum may round): then equal keys
  // are equal scores, and the tiebreak's column decides first (order.ts TieKey).
  const next = tiebreak[0];
  const tie: TieKey | undefined = tops === 0 && next !== undefined ? { values: next.column, docs, sign: next.sign } : undefined;
  return {
    order,
    keys,
    tie,
    afterKey: (values) => {
      const s = values[at] === null ? 0 : Number(values[at]);
      if (!tier) return -s;
      // a score above every hit's: before every hit of its tier, after every hit of tier 0
      if (s > max) return values[0] === 1 ? 1 - big : -Infinity;
      return values[0] === 1 ? -s : -s - big;
    },
  };
}

/**
 * The first component of the schema's relevance tiebreak as a number per ordinal, smaller
 * first (a rank or a number, negated when descending; missing last, as Infinity): hits of
 * equal score whose keys differ are ordered by them (ranks.ts: a greater rank is a greater
 * string). Undefined for a schema without a tiebreak. Read it within one search: a refresh
 * renumbers ranks (keeping their order).
 */
export function tiebreakKey(ix: SearchIndex): ((d: number) => number) | undefined {
  const t = ix.schema.relevanceTiebreak[0];
  if (t === undefined) return undefined;
  const k = ix.sortKey.get(t.key)!;
  const column = ix.sortNumbers[k]?.array ?? ix.sortRanks[k]!.rank.array;
  const sign = t.descending ? -1 : 1;
  return (d) => {
    const x = column[d];
    return x !== undefined && x === x ? sign * x : Infinity;
  };
}

/**
 * The words an exact first-field match must have: those of the positive terms and phrases
 * on no field or on the first text field, order-insensitive (nameKey); null = none.
 */
export function exactKey(ix: SearchIndex, query: QueryNode<string>): string | null {
  const first = ix.schema.text[0]!.name;
  const words: string[] = [];
  const walk = (n: QueryNode<string>): void => {
    if (n.kind === 'and' || n.kind === 'or') n.children.forEach(walk);
    else if ((n.kind === 'term' || n.kind === 'phrase') && (n.field === null || n.field === first)) words.push(...tokens(n.text));
  };
  walk(query);
  return words.length === 0 ? null : words.sort().join(' ');
}
