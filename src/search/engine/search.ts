/**
 * One search over a SearchIndex: query, filters, facet counts, order, page, cursor and
 * matched terms (types.ts states the request and the orders). Synchronous; the deadline is
 * checked cooperatively all along (errors.ts).
 */
import { Deadline, SearchRequestError } from './errors.js';
import { Evaluator, type ExpansionLimits, type Hits } from './evaluate.js';
import { EMPTY_DOCS, isZeros, zeros } from './hits.js';
import { compareCodePoints, decodeCursor, encodeCursor, hashString, smallestHits, type Component, type CursorValue } from './order.js';
import {
  checkFacet,
  countFacet,
  countValues,
  facetIndex,
  facetPart,
  filterSource,
  hasValue,
  keptFilter,
  keptWordOf,
} from './countFacet.js';
import { Postings } from './postings.js';
import { mergePages, shardHits, shardRange, type FacetPart, type OrdinalRange, type SearchPart, type ShardHit } from './shards.js';
import { exactKey, sortPlan } from './sortPlan.js';
import { correctQuery } from './spellcheck.js';
import { checkShape, hitsInShapes, pointColumns } from './geo.js';
import { hashString2, type SearchIndex } from './SearchIndex.js';
import { MAX_TOP, topCandidates, topQuery } from './topScores.js';
import type { SearchRequest, SearchResult } from './types.js';
import { uncountedHits } from './uncounted.js';

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
  // one common word, alone or under one filter: its total, facet counts and exact-title
  // hits are kept (keptWords.ts), and its page found among the windows its bounds visit
  const word = keptWordOf(ix, req, top, new Postings(ix, clock), () => allHits().docs);
  // a page whose total is not asked: its hits are left unmade, its total the candidates' (below)
  const unmade = word === undefined && kept === undefined ? uncountedHits(ix, req, top, clock, limits) : undefined;
  let total: number;
  if (word !== undefined) total = word.total;
  else if (unmade !== undefined) total = 0;
  else if (kept === undefined) total = allHits().docs.length;
  else {
    const known = ix.filterCounts.total(kept.f, kept.ids);
    total = known ?? allHits().docs.length;
    if (known === undefined) ix.filterCounts.keep(kept.f, kept.ids, total);
  }
  const source = word ?? (kept === undefined ? undefined : filterSource(ix, kept, total));
  const facets = (req.facets ?? []).map((fr) => countFacet(ix, fr, total, allHits, clock, shards, source));
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
    ordered = topCandidates(ix, req.query, top, word ?? unmade ?? allHits().docs, skip + req.rows, clock);
    // a word that may be a compound: scored whole, as before
    ordered ??= filtered(ix, new Evaluator(ix, true, clock, limits), req.query, req.filters, req.geo);
    if (unmade !== undefined) total = ordered.docs.length;
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
  // a kept word is the query's one leaf; whether it matched is whether it has hits
  if (word !== undefined && memo === undefined && word.total > 0 && req.query.kind === 'term') matchedTerms.push(req.query.text);
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
  let everything: Hits | undefined;
  /** The hits in the whole index (what counts of the whole are of). */
  const wholeHits = (): Hits => (everything ??= filtered(ix, new Evaluator(ix, false, clock, limits), req.query, req.filters, req.geo));
  // `*:*` alone or under one facet filter: counted whole, from what the index keeps
  const whole = req.query.kind === 'all' && (req.geo?.length ?? 0) === 0;
  const kept = whole ? keptFilter(ix, req) : undefined;
  // a common word's whole answer, kept by this thread as by any (keptWords.ts): shard 0
  // gives its total and counts, every shard its candidates within its range
  const word = keptWordOf(ix, req, top, new Postings(ix, clock), () => wholeHits().docs);
  const counted = (whole && (Object.keys(req.filters ?? {}).length === 0 || kept !== undefined)) || word !== undefined;
  // as runSearch: a page whose total is not asked leaves its hits unmade
  const unmade = counted ? undefined : uncountedHits(ix, req, top, clock, limits, range);
  let total: number;
  let facets: FacetPart[];
  /** The whole index's total of a counted search, when this thread knows it. */
  let wholeTotal: number | undefined;
  if (unmade !== undefined) {
    total = 0; // the candidates', below
    facets = [];
  } else if (!counted) {
    total = hits().docs.length;
    facets = (req.facets ?? []).map((fr) => {
      const f = facetIndex(ix, fr.field);
      const docs = hits().docs;
      clock.tick(docs.length);
      // read at once by facetPart, which keeps nothing of them: the scratch pool's array
      return facetPart(ix, fr, countValues(ix, f, docs, ix.scratchPool), shard === 0);
    });
  } else if (shard === 0) {
    // as runSearch counts them, over the whole index
    if (word !== undefined) total = word.total;
    else if (kept === undefined) total = ix.size;
    else {
      const known = ix.filterCounts.total(kept.f, kept.ids);
      total = known ?? wholeHits().docs.length;
      if (known === undefined) ix.filterCounts.keep(kept.f, kept.ids, total);
    }
    wholeTotal = total;
    const source = word ?? (kept === undefined ? undefined : filterSource(ix, kept, total));
    // the only counts of the merge: cut to the answer here, as one thread cuts them
    facets = (req.facets ?? []).map((fr) => {
      const f = countFacet(ix, fr, total, wholeHits, clock, 1, source);
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
    wholeTotal = word !== undefined ? word.total : kept === undefined ? ix.size : ix.filterCounts.total(kept.f, kept.ids);
  }
  const tierMemo = new Map<SearchRequest['query'], Uint32Array>();
  const tierDocs = (q: SearchRequest['query']) => {
    let docs = tierMemo.get(q);
    if (docs === undefined) tierMemo.set(q, (docs = new Evaluator(ix, false, clock, limits, range).evaluate(q).docs));
    return docs;
  };
  let ordered: Hits | undefined;
  if (top !== undefined) {
    ordered = topCandidates(ix, req.query, top, word ?? unmade ?? hits().docs, skip + req.rows, clock, range);
    ordered ??= filtered(ix, new Evaluator(ix, true, clock, limits, range), req.query, req.filters, req.geo);
    if (unmade !== undefined) total = ordered.docs.length;
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
  if (word !== undefined && memo === undefined) {
    // the word is the query's one leaf; its whole total tells whether it matched
    if (shard === 0 && word.total > 0 && req.query.kind === 'term') matched.push({ text: req.query.text, at: 0 });
  } else if (memo !== undefined) {
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
