/**
 * One search over a SearchIndex: query, filters, facet counts, order, page, cursor and
 * matched terms (types.ts states the request and the orders). Synchronous; the deadline is
 * checked cooperatively all along (errors.ts).
 */
import { Deadline, SearchRequestError } from './errors.js';
import { Evaluator, type ExpansionLimits, type Hits } from './evaluate.js';
import { EMPTY_DOCS, isZeros, zeros } from './hits.js';
import {
  compareCodePoints,
  decodeCursor,
  encodeCursor,
  hashString,
  numberComponent,
  smallestHits,
  stringComponent,
  type Component,
  type CursorValue,
} from './order.js';
import { hasAny } from './filterCounts.js';
import {
  mergePages,
  shardHits,
  shardRange,
  sumCounts,
  type FacetPart,
  type OrdinalRange,
  type SearchPart,
  type ShardHit,
} from './shards.js';
import { exactKey, sortPlan } from './sortPlan.js';
import { correctQuery } from './spellcheck.js';
import { checkShape, hitsInShapes, pointColumns } from './geo.js';
import { hashString2, type SearchIndex } from './SearchIndex.js';
import { MAX_TOP, topCandidates, topQuery } from './topScores.js';
import type { FacetCounts, FacetRequest, SearchRequest, SearchResult } from './types.js';

export const MAX_ROWS = 100_000;
/** The hits a page of no rows orders (scores, which a relevance order reads, of none). */
const NO_HITS: Hits = { docs: EMPTY_DOCS, scores: new Float64Array(0) };

/**
 * `shards`: the hits are ordered and their facets counted in that many parts, merged
 * exactly (shards.ts; the same answer for any number).
 */
export function runSearch(ix: SearchIndex, req: SearchRequest, deadline: number, limits?: ExpansionLimits, shards = 1): SearchResult {
  const clock = new Deadline(deadline, ix.now);
  clock.check();
  ix.scratchPool.begin(); // nothing of an earlier search is in use (scratchPool.ts)
  checkPaging(req);
  checkSpellcheck(req);
  if (!Number.isInteger(shards) || shards < 1) throw new RangeError(`shards must be a whole number ≥ 1; got ${shards}.`);
  const scoring = req.sort.kind === 'relevance';
  const skip = req.cursor === undefined ? req.offset : 0;
  // A relevance page of a word, or an OR or AND of words: the hits without scores, then
  // only those that can be on the page scored (topScores.ts).
  const top =
    scoring && (req.cursor === undefined || req.cursor === '*') && skip + req.rows >= 1 && skip + req.rows <= MAX_TOP
      ? topQuery(ix, req.query)
      : undefined;
  const ev = new Evaluator(ix, scoring && top === undefined, clock, limits);
  // `*:*` under one facet filter: its total and facet counts are kept (filterCounts.ts),
  // and its page is found among candidates; the hits are made only when something needs them.
  const kept = keptFilter(ix, req);
  let memo: Hits | undefined;
  const allHits = (): Hits => (memo ??= filtered(ix, ev, req.query, req.filters, req.geo));
  let total: number;
  if (kept === undefined) total = allHits().docs.length;
  else {
    const known = ix.filterCounts.total(kept.f, kept.ids);
    total = known ?? allHits().docs.length;
    if (known === undefined) ix.filterCounts.keep(kept.f, kept.ids, total);
  }
  const facets = (req.facets ?? []).map((fr) => countFacet(ix, fr, total, allHits, clock, shards, kept));
  // Tier queries match apart from the query: their leaves are no matched terms (evaluated
  // once for all shards).
  const tierMemo = new Map<SearchRequest['query'], Uint32Array>();
  const tierDocs = (q: SearchRequest['query']) => {
    let docs = tierMemo.get(q);
    if (docs === undefined) tierMemo.set(q, (docs = new Evaluator(ix, false, clock, limits).evaluate(q).docs));
    return docs;
  };
  const fingerprint = fingerprintOf(req);
  // Every live document (or those of one filter) by a string key: only the candidates for the page are ordered.
  let ordered: Hits | undefined;
  if (top !== undefined) {
    ordered = topCandidates(ix, req.query, top, allHits().docs, skip + req.rows, clock);
    // a word that may be a compound: scored whole, as before
    ordered ??= filtered(ix, new Evaluator(ix, true, clock, limits), req.query, req.filters, req.geo);
  } else if (kept !== undefined) ordered = byRankCandidates(ix, req, total, scoring, skip + req.rows, fingerprint, kept.keep);
  else {
    const h = allHits();
    if (h.docs === ix.allLive() && (h.scores === null || isZeros(h.scores)))
      ordered = byRankCandidates(ix, req, total, scoring, skip + req.rows, fingerprint);
  }
  ordered ??= allHits();
  const tick = () => clock.tick(1024);
  let after: CursorValue[] | undefined;
  let order: Component[] = [];
  /**
   * The best `skip + rows` hits of one shard's part of the hits, in order; with `values`,
   * each with its sort values, which the merge compares (one shard needs only the last
   * hit's, for the cursor: a page of many rows need not make a key string per hit).
   */
  const pageOf = (part: Hits, values: boolean): ShardHit[] => {
    const plan = sortPlan(ix, req.sort, req.query, part, tierDocs);
    order = plan.order;
    if (req.cursor !== undefined && req.cursor !== '*') after ??= decodeCursor(req.cursor, fingerprint, order.length);
    const coarse = { keys: plan.keys, afterKey: after ? plan.afterKey(after) : -Infinity, tie: plan.tie };
    return smallestHits(part.docs.length, order, skip + req.rows, after, tick, coarse).map((h) => ({
      doc: part.docs[h]!,
      score: part.scores ? part.scores[h]! : 0,
      values: values ? order.map((c) => c.value(h)) : [],
      hit: h,
    }));
  };
  // A page of no hits orders none: a count's search (rows 0) once filled a sort key per hit.
  const toOrder = skip + req.rows === 0 ? NO_HITS : ordered;
  const page = (
    shards === 1
      ? pageOf(toOrder, false)
      : mergePages(
          shardHits(toOrder, shards).map((part) => pageOf(part, true)),
          order,
          skip + req.rows,
        )
  ).slice(skip);
  const matchedTerms: string[] = [];
  for (const m of ev.matched) {
    if (!matchedTerms.includes(m.text) && ('docs' in m ? overlaps(m.docs, allHits().docs) : hasValue(ix, m.facet, m.ids, allHits().docs)))
      matchedTerms.push(m.text);
  }
  const result: SearchResult = {
    total,
    ids: page.map((h) => ix.id(h.doc)),
    scores: page.map((h) => h.score),
    facets,
    matchedTerms,
  };
  if (req.spellcheck) {
    // only a query that finds too little pays for it (docs/search-engine.md "Spellcheck")
    const count = (query: typeof req.query) =>
      filtered(ix, new Evaluator(ix, false, clock, limits), query, req.filters, req.geo).docs.length;
    result.correctedQuery =
      result.total < req.spellcheck.minHits
        ? correctQuery(ix, req.query, req.spellcheck, result.total, count, Object.keys(req.filters ?? {}).length > 0, clock)
        : '';
  }
  if (req.cursor !== undefined) {
    const last = page[page.length - 1];
    // one shard: `order` is still the plan of its one part, which `last.hit` is a hit of
    const values = last === undefined ? [] : shards === 1 ? order.map((c) => c.value(last.hit)) : last.values;
    result.nextCursor = last === undefined ? req.cursor : encodeCursor(fingerprint, values);
  }
  return result;
}

/**
 * Shard `shard` of `shards` of one search scattered over the threads of a pool
 * (docs/search-engine.md "Shards"): on an index that every shard holds alike (the same
 * documents at the same ordinals), this shard evaluates the query over its range of ordinals
 * alone (shards.ts shardRange; evaluate.ts reads each posting list from the range's start to
 * its end, with the whole index's idf), counts its hits and their facets, orders them and
 * keeps its best `offset + rows` with their sort values; `mergeParts` (shards.ts) makes the
 * answer runSearch gives, byte for byte. `*:*` alone or under one facet filter takes its
 * total and facet counts from the live or kept counts as runSearch does: shard 0 gives them,
 * the others count nothing. A page found among candidates (rank groups, score bounds) is
 * each shard's best among the candidates in its range. Shard 0 adds the spellcheck.
 */
export function runSearchPart(
  ix: SearchIndex,
  req: SearchRequest,
  deadline: number,
  shard: number,
  shards: number,
  limits?: ExpansionLimits,
): SearchPart {
  const clock = new Deadline(deadline, ix.now);
  clock.check();
  ix.scratchPool.begin();
  checkPaging(req);
  checkSpellcheck(req);
  if (!Number.isInteger(shards) || shards < 1 || !Number.isInteger(shard) || shard < 0 || shard >= shards)
    throw new RangeError(`shard ${shard} of ${shards} is no shard.`);
  for (const fr of req.facets ?? []) checkFacet(ix, fr);
  const scoring = req.sort.kind === 'relevance';
  const skip = req.cursor === undefined ? req.offset : 0;
  const top =
    scoring && (req.cursor === undefined || req.cursor === '*') && skip + req.rows >= 1 && skip + req.rows <= MAX_TOP
      ? topQuery(ix, req.query)
      : undefined;
  const range = shardRange(ix.allLive(), shard, shards);
  const ev = new Evaluator(ix, scoring && top === undefined, clock, limits, range);
  let memo: Hits | undefined;
  const hits = (): Hits => (memo ??= filtered(ix, ev, req.query, req.filters, req.geo));
  const fingerprint = fingerprintOf(req);
  // `*:*` alone or under one facet filter: counted whole, from what the index keeps
  const whole = req.query.kind === 'all' && (req.geo?.length ?? 0) === 0;
  const kept = whole ? keptFilter(ix, req) : undefined;
  const counted = whole && (Object.keys(req.filters ?? {}).length === 0 || kept !== undefined);
  let total: number;
  let facets: FacetPart[];
  /** The whole index's total of a counted search, when this thread knows it. */
  let wholeTotal: number | undefined;
  if (!counted) {
    total = hits().docs.length;
    facets = (req.facets ?? []).map((fr) => {
      const f = facetIndex(ix, fr.field);
      const docs = hits().docs;
      clock.tick(docs.length);
      return facetPart(ix, fr, countValues(ix, f, docs), shard === 0);
    });
  } else if (shard === 0) {
    // as runSearch counts them, over the whole index
    let everything: Hits | undefined;
    const allHits = (): Hits => (everything ??= filtered(ix, new Evaluator(ix, false, clock, limits), req.query, req.filters, req.geo));
    if (kept === undefined) total = ix.size;
    else {
      const known = ix.filterCounts.total(kept.f, kept.ids);
      total = known ?? allHits().docs.length;
      if (known === undefined) ix.filterCounts.keep(kept.f, kept.ids, total);
    }
    wholeTotal = total;
    // the only counts of the merge: cut to the answer here, as one thread cuts them
    facets = (req.facets ?? []).map((fr) => {
      const f = countFacet(ix, fr, total, allHits, clock, 1, kept);
      const col = ix.facets[facetIndex(ix, fr.field)]!;
      return {
        values: f.values.map((v) => v.value),
        counts: f.values.map((v) => v.count),
        ids: f.values.map((v) => col.values.get(v.value)!),
      };
    });
  } else {
    total = 0;
    facets = (req.facets ?? []).map(() => ({ values: [], counts: [], ids: [] }));
    wholeTotal = kept === undefined ? ix.size : ix.filterCounts.total(kept.f, kept.ids);
  }
  const tierMemo = new Map<SearchRequest['query'], Uint32Array>();
  const tierDocs = (q: SearchRequest['query']) => {
    let docs = tierMemo.get(q);
    if (docs === undefined) tierMemo.set(q, (docs = new Evaluator(ix, false, clock, limits, range).evaluate(q).docs));
    return docs;
  };
  let ordered: Hits | undefined;
  if (top !== undefined) {
    ordered = topCandidates(ix, req.query, top, hits().docs, skip + req.rows, clock, range);
    ordered ??= filtered(ix, new Evaluator(ix, true, clock, limits, range), req.query, req.filters, req.geo);
  } else if (counted && wholeTotal !== undefined) {
    // the whole index's candidates, cut to the range: among them are the range's best
    const c = byRankCandidates(ix, req, wholeTotal, scoring, skip + req.rows, fingerprint, kept?.keep);
    if (c !== undefined) ordered = inRange(c, range);
  }
  // as runSearch: a page of no hits orders none
  const part = skip + req.rows === 0 ? NO_HITS : (ordered ?? hits());
  const plan = sortPlan(ix, req.sort, req.query, part, tierDocs);
  const order = plan.order;
  const after = req.cursor !== undefined && req.cursor !== '*' ? decodeCursor(req.cursor, fingerprint, order.length) : undefined;
  const coarse = { keys: plan.keys, afterKey: after ? plan.afterKey(after) : -Infinity, tie: plan.tie };
  const page = smallestHits(part.docs.length, order, skip + req.rows, after, () => clock.tick(1024), coarse).map((h) => ({
    id: ix.id(part.docs[h]!),
    score: part.scores ? part.scores[h]! : 0,
    values: order.map((c) => c.value(h)),
  }));
  // the leaves that matched a hit of the range, each term with its first such leaf
  const matched: SearchPart['matched'] = [];
  if (memo !== undefined) {
    ev.matched.forEach((m, at) => {
      if (matched.some((x) => x.text === m.text)) return;
      if ('docs' in m ? overlaps(m.docs, memo!.docs) : hasValue(ix, m.facet, m.ids, memo!.docs)) matched.push({ text: m.text, at });
    });
  }
  const out: SearchPart = { total, page, orders: order.map((c) => c.merge), facets, matched };
  if (shard !== 0 || !req.spellcheck) return out;
  // the whole total decides, and only a range that finds too little needs it
  const count = (query: typeof req.query) => filtered(ix, new Evaluator(ix, false, clock, limits), query, req.filters, req.geo).docs.length;
  const all = total >= req.spellcheck.minHits ? total : (wholeTotal ?? count(req.query));
  out.correctedQuery =
    all < req.spellcheck.minHits
      ? correctQuery(ix, req.query, req.spellcheck, all, count, Object.keys(req.filters ?? {}).length > 0, clock)
      : '';
  return out;
}

/** The hits of `h` (ascending) in `range`. */
function inRange(h: Hits, range: OrdinalRange): Hits {
  let from = 0;
  while (from < h.docs.length && h.docs[from]! < range.from) from++;
  let to = from;
  while (to < h.docs.length && h.docs[to]! < range.to) to++;
  return { docs: h.docs.subarray(from, to), scores: h.scores ? h.scores.subarray(from, to) : null };
}

/**
 * A shard's counts of one facet as plain data: the values with a live document and a count
 * in `counts`; with `zeros` (shard 0) also those without when `mincount` is 0.
 */
function facetPart(ix: SearchIndex, fr: FacetRequest, counts: Uint32Array, zeros: boolean): FacetPart {
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

/**
 * When the hits are every live document (`*:*`, no filter), or those `keep` keeps (`*:*`
 * under one filter), `total` of them with a score of 0 each, and the order is a string sort
 * key or the id ascending (`sort` by it, or relevance with all scores 0, which the schema's
 * first tiebreak orders), the page is among far fewer candidates (rankLists.ts): those hits,
 * for sortPlan and smallestHits to order exactly as they would all. Undefined otherwise.
 */
function byRankCandidates(
  ix: SearchIndex,
  req: SearchRequest,
  total: number,
  scoring: boolean,
  need: number,
  fingerprint: string,
  keep?: (d: number) => boolean,
): Hits | undefined {
  // a filter keeping fewer reads more groups for its page than it has hits
  if (need > 10_000 || total <= 8 * need) return undefined;
  let name: string | null;
  /** Where the key's value is among a cursor's values, and how many they are. */
  let at: number;
  let length: number;
  if (req.sort.kind === 'relevance') {
    const t = ix.schema.relevanceTiebreak[0];
    if (t === undefined || t.descending || exactKey(ix, req.query) !== null) return undefined;
    name = t.key;
    at = 1;
    length = 2 + ix.schema.relevanceTiebreak.length;
  } else if (req.sort.kind === 'key' && !req.sort.descending) {
    name = req.sort.key;
    at = 0;
    length = 2;
  } else if (req.sort.kind === 'id' && !req.sort.descending) {
    name = null; // the ids' ranks (SearchIndex.rankLists)
    at = 0;
    length = 1;
  } else return undefined;
  const key = name === null ? -1 : ix.sortKey.get(name);
  if (key === undefined || (key >= 0 && ix.sortRanks[key] === undefined)) return undefined;
  let from: string | undefined;
  if (req.cursor !== undefined && req.cursor !== '*') {
    let values: CursorValue[];
    try {
      values = decodeCursor(req.cursor, fingerprint, length);
    } catch {
      return undefined; // sortPlan's way says why
    }
    const v = values[at];
    if (typeof v !== 'string' || (at === 1 && values[0] !== 0)) return undefined;
    from = v;
  }
  ix.refreshOrders(); // as sortPlan does first: the ranks the candidates are of
  const docs = ix.rankLists(key).candidates(need, from, keep);
  if (docs === undefined) return undefined;
  return { docs, scores: scoring ? zeros(docs.length) : null };
}

/** The hits of a query with the request's facet filters and geographic shapes. */
function filtered(
  ix: SearchIndex,
  ev: Evaluator,
  query: SearchRequest['query'],
  filters: SearchRequest['filters'],
  geo: SearchRequest['geo'],
): Hits {
  const clauses = Object.entries(filters ?? {}).map(([facet, values]) => {
    const f = facetIndex(ix, facet);
    const col = ix.facets[f]!;
    return { f, ids: values.map((v) => col.values.get(v)).filter((v): v is number => v !== undefined) };
  });
  const hits = ev.evaluateFiltered(query, clauses);
  if (geo === undefined || geo.length === 0) return hits;
  for (const shape of geo) checkShape(shape);
  const [lat, lon] = pointColumns(ix);
  return hitsInShapes(hits.docs, hits.scores, lat, lon, geo);
}

function checkSpellcheck(req: SearchRequest): void {
  const s = req.spellcheck;
  if (s === undefined) return;
  if (!Number.isInteger(s.minHits) || s.minHits < 0 || s.minHits > 2 ** 31) {
    throw new SearchRequestError(`spellcheck.minHits must be a whole number ≥ 0; got ${s.minHits}.`);
  }
  if (typeof s.text !== 'string') throw new SearchRequestError('spellcheck.text must be the query as sent.');
}

function checkPaging(req: SearchRequest): void {
  const ok = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;
  if (!ok(req.rows, MAX_ROWS)) throw new SearchRequestError(`rows must be a whole number from 0 to ${MAX_ROWS}; got ${req.rows}.`);
  if (!ok(req.offset, 2 ** 31))
    throw new SearchRequestError(`offset must be a whole number ≥ 0; got ${req.offset}. For deep paging use a cursor.`);
}

function facetIndex(ix: SearchIndex, name: string): number {
  const f = ix.facetField.get(name);
  if (f === undefined) throw new SearchRequestError(`Unknown facet '${name}'; the facets are ${ix.schema.facets.join(', ')}.`);
  return f;
}

/** Identifies query, filters and sort, so that a cursor is only used with its own search. */
export function fingerprintOf(req: SearchRequest): string {
  const filters = Object.entries(req.filters ?? {})
    .map(([k, v]) => [k, [...v].sort(compareCodePoints)] as const)
    .sort((a, b) => compareCodePoints(a[0], b[0]));
  const text = JSON.stringify(
    req.geo === undefined || req.geo.length === 0 ? [req.query, filters, req.sort] : [req.query, filters, req.sort, req.geo],
  );
  return `${hashString(text).toString(36)}.${hashString2(text).toString(36)}`;
}

/** `*:*` under the values `ids` of one facet `f`; `keep` tells its hits (filterCounts.ts). */
interface KeptFilter {
  f: number;
  ids: number[];
  keep: (d: number) => boolean;
}

/** The request's one facet filter when the query is `*:*` and the filter knows a value; else undefined. */
function keptFilter(ix: SearchIndex, req: SearchRequest): KeptFilter | undefined {
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

function checkFacet(ix: SearchIndex, fr: FacetRequest): void {
  facetIndex(ix, fr.field);
  if (!Number.isInteger(fr.limit) || fr.limit < -1)
    throw new SearchRequestError(`facet limit must be a whole number ≥ -1 (-1 = all); got ${fr.limit}.`);
  if (!Number.isInteger(fr.mincount) || fr.mincount < 0)
    throw new SearchRequestError(`facet mincount must be a whole number ≥ 0; got ${fr.mincount}.`);
}

/**
 * The hits' count per value of a facet: the live counts when every live document is a hit,
 * the kept counts of `*:*` under one facet filter (counted once, then kept), else counted
 * (in `shards` parts, summed).
 */
function facetCounts(
  ix: SearchIndex,
  fr: FacetRequest,
  total: number,
  hits: () => Hits,
  clock: Deadline,
  shards: number,
  kept: KeptFilter | undefined,
): Uint32Array {
  const f = facetIndex(ix, fr.field);
  const col = ix.facets[f]!;
  const count = (): Uint32Array => {
    const docs = hits().docs;
    clock.tick(docs.length);
    return shards === 1
      ? countValues(ix, f, docs)
      : sumCounts(shardHits({ docs, scores: null }, shards).map((part) => countValues(ix, f, part.docs)));
  };
  // every live document is a hit: the live counts are the answer, no pass needed
  if (total === ix.size) return col.live.array;
  if (kept === undefined) return count();
  const known = ix.filterCounts.counts(kept.f, kept.ids, f);
  if (known !== undefined) return known;
  const counts = count();
  ix.filterCounts.keep(kept.f, kept.ids, total, f, counts);
  return counts;
}

function countFacet(
  ix: SearchIndex,
  fr: FacetRequest,
  total: number,
  hits: () => Hits,
  clock: Deadline,
  shards: number,
  kept: KeptFilter | undefined,
): FacetCounts {
  checkFacet(ix, fr);
  const col = ix.facets[facetIndex(ix, fr.field)]!;
  const nValues = col.values.size;
  const counts = facetCounts(ix, fr, total, hits, clock, shards, kept);
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

function overlaps(a: Uint32Array, b: Uint32Array): boolean {
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j === b.length) return false;
    if (b[j] === x) return true;
  }
  return false;
}

/** Whether a hit has one of the value ids of facet `f` (a facet clause applied as a filter matched it). */
function hasValue(ix: SearchIndex, f: number, ids: readonly number[], docs: Uint32Array): boolean {
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

/** How many of `docs` have each value of facet `f`. */
function countValues(ix: SearchIndex, f: number, docs: Uint32Array): Uint32Array {
  const col = ix.facets[f]!;
  const nValues = col.values.size;
  if (!col.hasValues) return new Uint32Array(nValues);
  if (col.single) {
    // one load per hit (facetColumn.ts); slot 0 counts the hits without a value
    const all = new Uint32Array(nValues + 1);
    const single = col.single.array;
    if (single instanceof Uint8Array) countSingle8(single, docs, all);
    else if (single instanceof Uint16Array) countSingle16(single, docs, all);
    else countSingle32(single, docs, all);
    return all.subarray(1);
  }
  const counts = new Uint32Array(nValues);
  countMulti(col.start!.array, col.ids!.array, docs, counts);
  return counts;
}
