/**
 * Benchmark of the search engine alone (src/search/engine; docs/search-engine.md "Benchmark"), not a test:
 * builds an item index of N synthetic documents (words with a Zipf-like distribution) and,
 * with `--persons`, a person index of N synthetic persons beside it, then prints one table:
 * build rate, memory, and p50/p99 of the query rows the issue names (one connection, so one
 * query at a time). Generation of the synthetic documents is not counted in the build: it is
 * timed apart. The machine is shared, so wall-clock times are noisy: compare runs made in
 * the same conditions; CPU times (the build's, and the mean per query) are printed beside
 * wall times for that reason.
 *
 *   node --import tsx --expose-gc --max-old-space-size=4096 bench/engine.ts [N=1000000] [--persons] [--only=<text>]
 *
 * `--only=spell` runs only the query rows whose name contains the text (here: the
 * spellcheck rows). `--shards=<n>` searches in n shards (SearchIndexOptions.shards;
 * docs/search-engine.md "Shards"; default 1).
 */
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import { itemSchema } from '../src/search/schemas/itemSchema.js';
import { personSchema } from '../src/search/schemas/personSchema.js';
import type { SearchDocument, SearchRequest } from '../src/search/engine/types.js';
import { loadavg } from 'node:os';
import { itemDoc, personDoc, word } from './engineDocs.js';

const N = Number(process.argv.find((a, i) => i >= 2 && /^\d+$/.test(a)) ?? 1_000_000);
const PERSONS = process.argv.includes('--persons');
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const SHARDS = Number(process.argv.find((a) => a.startsWith('--shards='))?.slice('--shards='.length) ?? 1);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const table: Array<[string, string]> = [];
const row = (name: string, value: string) => {
  table.push([name, value]);
  console.error(`  ${name}: ${value}`);
};

/** Builds an index from N generated documents, timing only the upserts (wall and CPU). */
function build(schema: typeof itemSchema, make: (i: number) => SearchDocument, label: string): SearchIndex {
  const ix = new SearchIndex(schema, { shards: SHARDS });
  const BATCH = 10_000;
  let wall = 0;
  let cpu = 0;
  for (let i = 0; i < N; i += BATCH) {
    const docs: SearchDocument[] = [];
    for (let j = i; j < Math.min(N, i + BATCH); j++) docs.push(make(j));
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (const d of docs) ix.upsert(d);
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
    wall += performance.now() - t0;
  }
  row(
    `${label} build (${N.toLocaleString('en')} upserts)`,
    `${(wall / 1000).toFixed(1)} s wall, ${(cpu / 1000).toFixed(1)} s CPU (${Math.round(N / (wall / 1000)).toLocaleString('en')} docs/s wall, ${Math.round(N / (cpu / 1000)).toLocaleString('en')} docs/s CPU)`,
  );
  return ix;
}

function measure(name: string, make: (k: number) => SearchRequest, ix: SearchIndex, runs = 200): void {
  if (ONLY !== undefined && !name.includes(ONLY)) return;
  for (let k = 0; k < 20; k++) ix.search(make(k), Date.now() + 60_000);
  const times: number[] = [];
  const cpus: number[] = [];
  let total = 0;
  const c0 = process.cpuUsage();
  for (let k = 0; k < runs; k++) {
    const req = make(k);
    const t0 = performance.now();
    const u0 = process.cpuUsage();
    const res = ix.search(req, Date.now() + 60_000);
    const u = process.cpuUsage(u0);
    times.push(performance.now() - t0);
    cpus.push((u.user + u.system) / 1000);
    total += res.total;
  }
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000 / runs;
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const at = (a: number[], q: number) => a[Math.min(a.length - 1, Math.floor(q * a.length))]!.toFixed(2);
  const p = (q: number) => at(times, q);
  row(
    name,
    `p50 ${p(0.5)} ms / p99 ${p(0.99)} ms, CPU p50 ${at(cpus, 0.5)} / p99 ${at(cpus, 0.99)} / mean ${cpu.toFixed(2)} ms (mean hits ${Math.round(total / runs).toLocaleString('en')}, ${runs} runs, load ${loadavg()[0]!.toFixed(1)})`,
  );
}

gc();
const before = process.memoryUsage();
const items = build(itemSchema, itemDoc, 'items');
const persons = PERSONS ? build(personSchema, personDoc, 'persons') : undefined;
gc();
const after = process.memoryUsage();
row(
  'heap used / array buffers / RSS',
  `${mb(after.heapUsed - before.heapUsed)} / ${mb(after.arrayBuffers - before.arrayBuffers)} / ${mb(after.rss)}${persons ? ' (both indexes)' : ' (items only)'}`,
);

/** Bytes an index writes to disk (docs/search-engine.md "Persistence"): its image's sections. */
function imageBytes(ix: SearchIndex): number {
  let n = 0;
  for (const section of ix.image().sections) for (const piece of section.pieces()) n += piece.byteLength;
  return n;
}
const itemBytes = imageBytes(items);
row('items index image', `${mb(itemBytes)} (${Math.round(itemBytes / N).toLocaleString('en')} bytes per item)`);

const rows = 20;
const facet = (field: string) => ({ field, limit: 10, mincount: 1, sort: 'count' as const });
const term = (text: string) => ({ kind: 'term' as const, field: null, text });
measure('rare term (rank 20k-120k)', (k) => ({ query: term(word(20_000 + k * 500)), sort: { kind: 'relevance' }, offset: 0, rows }), items);
measure(
  'common term + type filter + place facet',
  (k) => ({
    query: term(word(5 + (k % 40))),
    filters: { type_fct: ['mediatype_000', 'mediatype_001'] },
    facets: [facet('place_fct')],
    sort: { kind: 'relevance' },
    offset: 0,
    rows,
  }),
  items,
  100,
);
measure(
  'very common term + sector filter + 2 facets',
  (k) => ({
    query: term(word(k % 5)),
    filters: { sector_fct: ['sec_00', 'sec_01', 'sec_02'] },
    facets: [facet('place_fct'), facet('time_fct')],
    sort: { kind: 'relevance' },
    offset: 0,
    rows,
  }),
  items,
  100,
);
measure(
  'common term + place facet (no filter)',
  (k) => ({ query: term(word(5 + (k % 40))), facets: [facet('place_fct')], sort: { kind: 'relevance' }, offset: 0, rows }),
  items,
  100,
);
measure('very common term, no facets', (k) => ({ query: term(word(k % 5)), sort: { kind: 'relevance' }, offset: 0, rows }), items, 100);
measure(
  'two common words OR + place facet',
  (k) => ({
    query: { kind: 'or', children: [term(word(3 + (k % 20))), term(word(30 + (k % 17)))] },
    facets: [facet('place_fct')],
    sort: { kind: 'relevance' },
    offset: 0,
    rows,
  }),
  items,
  100,
);
measure(
  'two common words AND + place facet',
  (k) => ({
    query: { kind: 'and', children: [term(word(k % 20)), term(word(20 + (k % 17)))] },
    facets: [facet('place_fct')],
    sort: { kind: 'relevance' },
    offset: 0,
    rows,
  }),
  items,
  100,
);
measure(
  'two-word phrase of common words',
  (k) => ({
    query: { kind: 'phrase', field: null, text: `${word(k % 10)} ${word(10 + (k % 7))}` },
    sort: { kind: 'relevance' },
    offset: 0,
    rows,
  }),
  items,
  50,
);
const allFacets = ['type_fct', 'sector_fct', 'place_fct', 'time_fct'].map(facet);
measure(
  '*:* + type, sector, place, time facets',
  () => ({ query: { kind: 'all' }, facets: allFacets, sort: { kind: 'relevance' }, offset: 0, rows }),
  items,
  100,
);
measure(
  '*:* + type filter (one value) + sector, place, time facets',
  (k) => ({
    query: { kind: 'all' },
    filters: { type_fct: [`mediatype_00${k % 4}`] },
    facets: ['sector_fct', 'place_fct', 'time_fct'].map(facet),
    sort: { kind: 'relevance' },
    offset: 0,
    rows,
  }),
  items,
  100,
);
measure(
  '*:* + sector filter (two values) + type, place facets, by title',
  (k) => ({
    query: { kind: 'all' },
    filters: { sector_fct: [`sec_0${k % 3}`, `sec_0${3 + (k % 3)}`] },
    facets: ['type_fct', 'place_fct'].map(facet),
    sort: { kind: 'key', key: 'title', descending: false },
    offset: 0,
    rows,
  }),
  items,
  100,
);
measure(
  '*:* + 4 facets, sorted by id',
  () => ({ query: { kind: 'all' }, facets: allFacets, sort: { kind: 'id', descending: false }, offset: 0, rows }),
  items,
  100,
);

// deep cursor: pages of 100 through the first 100,000 hits of a filtered *:* by title, then
// the pages from depth 50,000 to 100,000 again, timed
const deep = (cursor: string): SearchRequest => ({
  query: { kind: 'all' },
  filters: { type_fct: ['mediatype_000', 'mediatype_001'] },
  sort: { kind: 'key', key: 'title', descending: false },
  offset: 0,
  rows: 100,
  cursor,
});
const cursors: string[] = [];
let cursor = '*';
for (let i = 0; i < Math.min(1000, Math.floor(N / 10 / 100)); i++) {
  cursors.push(cursor);
  cursor = items.search(deep(cursor), Date.now() + 600_000).nextCursor!;
}
const depth = cursors.length * 100;
measure(
  `deep cursor page (depth ${(depth / 2).toLocaleString('en')}-${depth.toLocaleString('en')}, by title)`,
  (k) => deep(cursors[cursors.length / 2 + (k % (cursors.length / 2))]!),
  items,
  100,
);
if (persons) {
  measure(
    'persons: common name term',
    (k) => ({ query: term(word(k % 50)), facets: [facet('person_occupation_fct')], sort: { kind: 'relevance' }, offset: 0, rows }),
    persons,
    100,
  );
  measure(
    'persons: *:* + 2 facets',
    () => ({
      query: { kind: 'all' },
      facets: [facet('person_gender_fct'), facet('person_place_fct')],
      sort: { kind: 'relevance' },
      offset: 0,
      rows,
    }),
    persons,
    100,
  );
  measure(
    'persons: *:* + gender filter + occupation facet',
    (k) => ({
      query: { kind: 'all' },
      filters: { person_gender_fct: [k % 2 === 0 ? 'Mann' : 'Frau'] },
      facets: [facet('person_occupation_fct')],
      sort: { kind: 'relevance' },
      offset: 0,
      rows,
    }),
    persons,
    100,
  );
}

// "Did you mean" (docs/search-engine.md "Spellcheck"): a common term misspelt (one edit, or two,
// the first letter
// kept, none of them a term of the index), so the query finds nothing and the spellchecker
// runs: the whole row is what it adds to a search that finds nothing.
function misspellings(ix: SearchIndex, from: number, count: number, edits: number): string[] {
  const out: string[] = [];
  for (let k = 0; out.length < count; k++) {
    let w = word(from + (k % 400));
    for (let e = 0; e < edits; e++) {
      const at = 1 + ((k * 7 + e * 3) % Math.max(1, w.length - 1));
      const kind = (k + e) % 3;
      if (kind === 0 && w.length > 4)
        w = w.slice(0, at) + w.slice(at + 1); // a letter dropped
      else if (kind === 1 && at + 1 < w.length)
        w = w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2); // two swapped
      else w = w.slice(0, at) + (w[at] === 'e' ? 'a' : 'e') + w.slice(at + 1); // one replaced
    }
    if (w.length >= 4 && ix.documentFrequency(w) === 0) out.push(w);
  }
  return out;
}
const spell =
  (words: string[]) =>
  (k: number): SearchRequest => {
    const text = words[k % words.length]!;
    return { query: term(text), sort: { kind: 'relevance' }, offset: 0, rows, spellcheck: { minHits: 1, text } };
  };
if (ONLY === undefined || 'spellcheck'.includes(ONLY) || ONLY.includes('spell')) {
  // the vocabulary's sorted array (dictionary.ts) is what the candidate walk reads; a prefix
  // query would sort it as well
  let bytes = 0;
  for (const ix of persons ? [items, persons] : [items]) {
    ix.terms.view();
    bytes += ix.termDocs.array.byteLength + 8 * ix.terms.size;
  }
  row(
    'spellcheck memory (per-term document counts + sorted term array)',
    `${mb(bytes)}${persons ? ' (both indexes)' : ''}; terms: ${items.terms.size.toLocaleString('en')} items${persons ? `, ${persons.terms.size.toLocaleString('en')} persons` : ''}`,
  );
}
function measureSpell(name: string, ix: SearchIndex, words: string[]): void {
  if (ONLY !== undefined && !name.includes(ONLY)) return;
  const make = spell(words);
  let offered = 0;
  for (let k = 0; k < words.length; k++) if (ix.search(make(k), Date.now() + 60_000).correctedQuery) offered++;
  measure(`${name} (corrections offered: ${offered} of ${words.length})`, make, ix, words.length);
}
const items1 = misspellings(items, 5, 300, 1);
measureSpell('spellcheck: misspelt common term (1 edit), items', items, items1);
measureSpell('spellcheck: misspelt common term (2 edits), items', items, misspellings(items, 5, 300, 2));
measure(
  'spellcheck: the 1-edit misspellings without spellcheck, items',
  (k) => ({ ...spell(items1)(k), spellcheck: undefined }),
  items,
  300,
);
if (persons) measureSpell('spellcheck: misspelt common name (1 edit), persons', persons, misspellings(persons, 0, 300, 1));

// suggestions (suggest.ts): prefixes of 2-4 letters of common and rare words, 10 completions
function measureSuggest(name: string, ix: SearchIndex, runs = 300): void {
  if (ONLY !== undefined && !name.includes(ONLY)) return;
  const prefix = (k: number) => word((k * 37) % 20_000).slice(0, 2 + (k % 3));
  for (let k = 0; k < 20; k++) ix.suggest(prefix(k), 10);
  const times: number[] = [];
  let found = 0;
  const c0 = process.cpuUsage();
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    found += ix.suggest(prefix(k), 10).length;
    times.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  row(
    name,
    `p50 ${p(0.5)} ms / p99 ${p(0.99)} ms, mean CPU ${((c.user + c.system) / 1000 / runs).toFixed(2)} ms (mean suggestions ${(found / runs).toFixed(1)}, ${runs} runs)`,
  );
}
measureSuggest('suggest: 2-4 letter prefixes, items', items);
if (persons) measureSuggest('suggest: 2-4 letter prefixes, persons', persons);

const final = process.memoryUsage();
row('RSS after the queries', mb(final.rss));

console.log(
  `\n| Measure (${N.toLocaleString('en')} items${persons ? ` + ${N.toLocaleString('en')} persons` : ''}) | Result |\n| --- | --- |`,
);
for (const [k, v] of table) console.log(`| ${k} | ${v} |`);
