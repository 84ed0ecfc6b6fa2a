/**
 * Benchmark of the search engine alone (src/search/engine; issue #14 point 8), not a test:
 * builds an item index of N synthetic documents (words with a Zipf-like distribution) and
 * prints build time, heap and RSS, and query latencies (p50/p99) for a rare term, a common
 * term + facet + filter, and `*:*` with four facets.
 *
 *   node --import tsx --expose-gc --max-old-space-size=4096 bench/engine.ts [N=1000000]
 */
import { Rng } from './synth/rng.js';
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import { itemSchema } from '../src/search/engine/schema.js';
import type { SearchDocument, SearchRequest } from '../src/search/engine/types.js';

const N = Number(process.argv[2] ?? 1_000_000);
const VOCAB = 300_000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyzäöüß';

/** A pronounceable-ish distinct word per rank. */
function word(rank: number): string {
  let s = '';
  let x = rank + 1;
  while (x > 0) {
    s += LETTERS[x % LETTERS.length];
    x = Math.floor(x / LETTERS.length);
  }
  return `${s}${LETTERS[(rank * 7) % 26]}${LETTERS[(rank * 13) % 26]}`;
}

/** Rank with probability ~ 1/rank (Zipf, s = 1) over [0, v). */
function zipf(r: Rng, v: number): number {
  return Math.min(v - 1, Math.floor(Math.exp(r.next() * Math.log(v + 1))) - 1);
}

function words(r: Rng, min: number, max: number): string {
  const n = min + Math.floor(r.next() * (max - min + 1));
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(word(zipf(r, VOCAB)));
  return out.join(' ');
}

function pick(r: Rng, prefix: string, n: number): string {
  return `${prefix}${zipf(r, n)}`;
}

function itemDoc(i: number): SearchDocument {
  const r = Rng.for(7, 1, i);
  const title = words(r, 2, 6);
  const places = Array.from({ length: Math.floor(r.next() * 3) }, () => pick(r, 'Ort ', 5000));
  const affiliates = Array.from({ length: Math.floor(r.next() * 3) }, () => pick(r, 'Person ', 50_000));
  const keywords = Array.from({ length: 1 + Math.floor(r.next() * 3) }, () => word(zipf(r, 2000)));
  const provider = pick(r, 'Museum ', 500);
  const begin = r.next() < 0.7 ? 600_000 + Math.floor(r.next() * 150_000) : null;
  return {
    id: `ITEM${String(i).padStart(28, '0')}`,
    text: {
      title: [title],
      subtitle: r.next() < 0.5 ? [words(r, 1, 3)] : [],
      description: r.next() < 0.6 ? [words(r, 10, 40)] : [],
      keywords,
      place: places,
      affiliate: affiliates,
      provider: [provider],
    },
    facets: {
      time_fct: begin === null ? [] : [`time_${Math.floor(begin / 365)}`],
      place_fct: places,
      affiliate_fct: affiliates,
      keywords_fct: keywords,
      language_fct: [pick(r, 'lang_', 20)],
      type_fct: [pick(r, 'mediatype_00', 8)],
      sector_fct: [pick(r, 'sec_0', 9)],
      provider_fct: [provider],
      has_media_fct: [r.next() < 0.6 ? 'true' : 'false'],
    },
    numbers: { begin_time: begin, end_time: begin === null ? null : begin + 365 },
    sort: { title, begin_time: begin },
  };
}

function mb(n: number): string {
  return `${(n / 2 ** 20).toFixed(0)} MB`;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function measure(name: string, make: (k: number) => SearchRequest, ix: SearchIndex, runs = 200): void {
  for (let k = 0; k < 20; k++) ix.search(make(k), Date.now() + 60_000);
  const times: number[] = [];
  let total = 0;
  for (let k = 0; k < runs; k++) {
    const req = make(k);
    const t0 = performance.now();
    const res = ix.search(req, Date.now() + 60_000);
    times.push(performance.now() - t0);
    total += res.total;
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  console.log(`${name.padEnd(44)} p50 ${p(0.5).padStart(8)} ms  p99 ${p(0.99).padStart(8)} ms  mean hits ${Math.round(total / runs)}`);
}

gc();
const before = process.memoryUsage();
const ix = new SearchIndex(itemSchema);
const t0 = performance.now();
for (let i = 0; i < N; i++) ix.upsert(itemDoc(i));
const buildMs = performance.now() - t0;
gc();
const after = process.memoryUsage();
console.log(`documents ${N}, terms ${ix.terms.size}, build ${(buildMs / 1000).toFixed(1)} s (${Math.round(N / (buildMs / 1000))} docs/s)`);
console.log(`heap used ${mb(after.heapUsed - before.heapUsed)} (+ array buffers ${mb(after.arrayBuffers - before.arrayBuffers)}), RSS ${mb(after.rss)}, pools ${mb(ix.poolBytes)}`);

const rows = 20;
const facet = (field: string) => ({ field, limit: 10, mincount: 1, sort: 'count' as const });
measure('rare term (rank 20k-120k)', (k) => ({ query: { kind: 'term', field: null, text: word(20_000 + k * 500) }, sort: { kind: 'relevance' }, offset: 0, rows }), ix);
measure('common term + facet + filter', (k) => ({
  query: { kind: 'term', field: null, text: word(5 + (k % 40)) },
  filters: { type_fct: ['mediatype_000', 'mediatype_001'] },
  facets: [facet('place_fct')],
  sort: { kind: 'relevance' },
  offset: 0,
  rows,
}), ix, 100);
measure('*:* + 4 facets (type, sector, place, time)', () => ({
  query: { kind: 'all' },
  facets: ['type_fct', 'sector_fct', 'place_fct', 'time_fct'].map(facet),
  sort: { kind: 'relevance' },
  offset: 0,
  rows,
}), ix, 30);
measure('*:* + 4 facets, sorted by id', () => ({
  query: { kind: 'all' },
  facets: ['type_fct', 'sector_fct', 'place_fct', 'time_fct'].map(facet),
  sort: { kind: 'id', descending: false },
  offset: 0,
  rows,
}), ix, 30);
