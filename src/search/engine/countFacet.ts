/**
 * Facet counts of one search (search.ts): per value of a facet, its hits, counted over the
 * hits, taken from the live counts when every live document is a hit, or kept between
 * searches (filterCounts.ts for `*:*` under one filter, keptWords.ts for a common word); and
 * the request's facet filter that kept counts are of.
 */
import { SearchRequestError, type Deadline } from './errors.js';
import type { Hits } from './hits.js';
import { hasAny } from './filterCounts.js';
import type { KeptWord } from './keptWords.js';
import { hashString, numberComponent, smallestHits, stringComponent, type Component } from './order.js';
import type { Postings } from './postings.js';
import type { ScratchPool } from './scratchPool.js';
import { hashString2, type SearchIndex } from './SearchIndex.js';
import { exactKey, tiebreakKey } from './sortPlan.js';
import type { TopQuery } from './topScores.js';
import { shardHits, sumCounts, type FacetPart } from './shards.js';
import type { FacetCounts, FacetRequest, SearchRequest } from './types.js';

/**
 * A shard's counts of one facet as plain data: the values with a live document and a count
 * in `counts`; with `zeros` (shard 0) also those without when `mincount` is 0.
 */
export function facetPart(ix: SearchIndex, fr: FacetRequest, counts: Uint32Array, zeros: boolean): FacetPart {
  const col = ix.facets[facetIndex(ix, fr.field)]!;
  const live = col.live.array;
  const strings = col.values.strings();
  const listZeros = zeros && fr.mincount === 0;
  const out: FacetPart = { values: [], counts: [], ids: [] };
  for (let v = 0; v < col.values.size; v++) {
    if (live[v]! > 0 && (counts[v]! > 0 || listZeros)) {
      out.values.push(strings(v));
      out.counts.push(counts[v]!);
      out.ids.push(v);
    }
  }
  return out;
}

export function facetIndex(ix: SearchIndex, name: string): number {
  const f = ix.facetField.get(name);
  if (f === undefined) throw new SearchRequestError(`Unknown facet '${name}'; the facets are ${ix.schema.facets.join(', ')}.`);
  return f;
}

/** `*:*` under the values `ids` of one facet `f`; `keep` tells its hits (filterCounts.ts). */
export interface KeptFilter {
  f: number;
  ids: number[];
  keep: (d: number) => boolean;
}

/** The request's one facet filter when the query is `*:*` and the filter knows a value; else undefined. */
export function keptFilter(ix: SearchIndex, req: SearchRequest): KeptFilter | undefined {
  // the kept counts are of the filter alone: a geographic shape keeps fewer
  if (req.query.kind !== 'all' || (req.geo?.length ?? 0) > 0) return undefined;
  const entries = Object.entries(req.filters ?? {});
  if (entries.length !== 1) return undefined;
  const [facet, values] = entries[0]!;
  const f = facetIndex(ix, facet);
  const col = ix.facets[f]!;
  const ids = [...new Set(values.map((v) => col.values.get(v)).filter((v): v is number => v !== undefined))];
  if (ids.length === 0) return undefined;
  const mark = new Uint8Array(col.values.size);
  for (const v of ids) mark[v] = 1;
  return { f, ids, keep: (d) => hasAny(col, d, mark) };
}

export function checkFacet(ix: SearchIndex, fr: FacetRequest): void {
  facetIndex(ix, fr.field);
  if (!Number.isInteger(fr.limit) || fr.limit < -1)
    throw new SearchRequestError(`facet limit must be a whole number ≥ -1 (-1 = all); got ${fr.limit}.`);
  if (!Number.isInteger(fr.mincount) || fr.mincount < 0)
    throw new SearchRequestError(`facet mincount must be a whole number ≥ 0; got ${fr.mincount}.`);
}

/**
 * Counts a search keeps between searches rather than counting per search: of `*:*` under one
 * facet filter (filterCounts.ts) or of one common word (keptWords.ts).
 */
export interface CountSource {
  /** The kept counts of facet `g` among the hits, or undefined. */
  counts(g: number): Uint32Array | undefined;
  /** Keeps the counts of facet `g` among the hits, as counted now. */
  keepCounts(g: number, counts: Uint32Array): void;
}

/** The kept counts of `*:*` under one facet filter, of `total` hits. */
export function filterSource(ix: SearchIndex, kept: KeptFilter, total: number): CountSource {
  return {
    counts: (g) => ix.filterCounts.counts(kept.f, kept.ids, g),
    keepCounts: (g, counts) => ix.filterCounts.keep(kept.f, kept.ids, total, g, counts),
  };
}

/**
 * The hits' count per value of a facet: the live counts when every live document is a hit,
 * the kept counts of `source` (counted once, then kept), else counted (in `shards` parts,
 * summed).
 */
function facetCounts(
  ix: SearchIndex,
  fr: FacetRequest,
  total: number,
  hits: () => Hits,
  clock: Deadline,
  shards: number,
  source: CountSource | undefined,
): Uint32Array {
  const f = facetIndex(ix, fr.field);
  const col = ix.facets[f]!;
  // counts that are kept (`source`) must not lie in the scratch pool
  const count = (scratch?: ScratchPool): Uint32Array => {
    const docs = hits().docs;
    clock.tick(docs.length);
    return shards === 1
      ? countValues(ix, f, docs, scratch)
      : sumCounts(shardHits({ docs, scores: null }, shards).map((part) => countValues(ix, f, part.docs)));
  };
  // every live document is a hit: the live counts are the answer, no pass needed
  if (total === ix.size) return col.live.array;
  if (source === undefined) return count(ix.scratchPool);
  const known = source.counts(f);
  if (known !== undefined) return known;
  const counts = count();
  source.keepCounts(f, counts);
  return counts;
}

export function countFacet(
  ix: SearchIndex,
  fr: FacetRequest,
  total: number,
  hits: () => Hits,
  clock: Deadline,
  shards: number,
  source: CountSource | undefined,
): FacetCounts {
  checkFacet(ix, fr);
  const col = ix.facets[facetIndex(ix, fr.field)]!;
  const nValues = col.values.size;
  const counts = facetCounts(ix, fr, total, hits, clock, shards, source);
  // candidates: values with a live document whose count reaches mincount
  const live = col.live.array;
  const candidates: number[] = [];
  for (let v = 0; v < nValues; v++) if (live[v]! > 0 && counts[v]! >= fr.mincount) candidates.push(v);
  clock.tick(nValues);
  const values = col.values;
  // ordered by the dictionary's positions (no string decoded); strings for the page only
  const byValue: Component = {
    ...stringComponent((i) => values.string(candidates[i]!), false),
    compare: (a, b) => values.compareIds(candidates[a]!, candidates[b]!),
  };
  const order: Component[] = fr.sort === 'count' ? [numberComponent((i) => counts[candidates[i]!]!, true), byValue] : [byValue];
  const k = fr.limit === -1 ? candidates.length : fr.limit;
  const top = smallestHits(candidates.length, order, k, undefined, () => clock.tick(1024));
  return { field: fr.field, values: top.map((i) => ({ value: values.string(candidates[i]!), count: counts[candidates[i]!]! })) };
}

/**
 * Adds one to the count of each hit's value (value id + 1 per ordinal, facetColumn.ts).
 * Functions of their own, one per width of the column, so that each loop is compiled for
 * one kind of array and the loads stay monomorphic (measured at a million documents).
 */
function countSingle8(single: Uint8Array, docs: Uint32Array, counts: Uint32Array): void {
  for (let i = 0; i < docs.length; i++) counts[single[docs[i]!]!]!++;
}

function countSingle16(single: Uint16Array, docs: Uint32Array, counts: Uint32Array): void {
  for (let i = 0; i < docs.length; i++) counts[single[docs[i]!]!]!++;
}

function countSingle32(single: Uint32Array, docs: Uint32Array, counts: Uint32Array): void {
  for (let i = 0; i < docs.length; i++) counts[single[docs[i]!]!]!++;
}

/** The same for a multi-valued column: ordinal d's values are ids[start[d] .. start[d + 1]). */
function countMulti(start: Uint32Array, ids: Uint32Array, docs: Uint32Array, counts: Uint32Array): void {
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    for (let j = start[d]!, end = start[d + 1]!; j < end; j++) counts[ids[j]!]!++;
  }
}

/** Whether a hit has one of the value ids of facet `f` (a facet clause applied as a filter matched it). */
export function hasValue(ix: SearchIndex, f: number, ids: readonly number[], docs: Uint32Array): boolean {
  if (ids.length === 0 || docs.length === 0) return false;
  const col = ix.facets[f]!;
  const want = new Set(ids);
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (col.single) {
      if (want.has((col.single.array[d] ?? 0) - 1)) return true;
    } else if (col.start) {
      const vals = col.ids!.array;
      for (let j = col.start.array[d]!, end = col.start.array[d + 1]!; j < end; j++) if (want.has(vals[j]!)) return true;
    }
  }
  return false;
}

/**
 * How many of `docs` have each value of facet `f`. With `scratch` the counts lie in an array
 * of the search's scratch pool (zeroed here), for a caller that reads them at once and keeps
 * nothing of them: a facet of a million values (the persons' names) is a 4 MB array per
 * search, and a fresh one each time is garbage and, where the memory it gets was handed back
 * to the system, page faults (docs/benchmarks.md "Conditions and reading of this run
 * (2026-11-29)").
 */
export function countValues(ix: SearchIndex, f: number, docs: Uint32Array, scratch?: ScratchPool): Uint32Array {
  const col = ix.facets[f]!;
  const nValues = col.values.size;
  const zeroed = (n: number): Uint32Array => (scratch === undefined ? new Uint32Array(n) : scratch.u32(n).fill(0));
  if (!col.hasValues) return zeroed(nValues);
  if (col.single) {
    // one load per hit (facetColumn.ts); slot 0 counts the hits without a value
    const all = zeroed(nValues + 1);
    const single = col.single.array;
    if (single instanceof Uint8Array) countSingle8(single, docs, all);
    else if (single instanceof Uint16Array) countSingle16(single, docs, all);
    else countSingle32(single, docs, all);
    return all.subarray(1);
  }
  const counts = zeroed(nValues);
  countMulti(col.start!.array, col.ids!.array, docs, counts);
  return counts;
}

/**
 * The kept answer of a relevance search for one common word (keptWords.ts), alone or under
 * one facet filter with a value the facet knows, without geographic shapes; `hits` gives
 * its live hits in the whole index when it must be counted first. Undefined for any other
 * search, and for a word not kept (too rare to need it, or too long to fit).
 */
export function keptWordOf(
  ix: SearchIndex,
  req: SearchRequest,
  top: TopQuery | undefined,
  postings: Postings,
  hits: () => Uint32Array,
): KeptWord | undefined {
  if (top === undefined || req.query.kind !== 'term' || top.words.length !== 1 || (req.geo?.length ?? 0) > 0) return undefined;
  const entries = Object.entries(req.filters ?? {});
  if (entries.length > 1) return undefined;
  let f = -1;
  let ids: number[] = [];
  if (entries.length === 1) {
    const [facet, values] = entries[0]!;
    f = facetIndex(ix, facet);
    const col = ix.facets[f]!;
    ids = [...new Set(values.map((v) => col.values.get(v)).filter((v): v is number => v !== undefined))];
    if (ids.length === 0) return undefined;
  }
  const key = exactKey(ix, req.query);
  const exact = key === null ? null : { a: hashString(key), b: hashString2(key) };
  return ix.keptWords.lookup(top.words[0]!, f, ids, exact, postings, hits, tiebreakKey(ix));
}
