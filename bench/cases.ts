/**
 * The rows of the bench: each case against the server and against the ceiling with the same
 * bytes, and the cases that measure something else than one path (parents under load, cursor
 * paging, freshness).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { generate } from './data.js';
import { CLI, connections, dataDir, log, option, quick, ROOT, seconds } from './options.js';
import { drive, emptyServerLog, sample, startCeiling, type LoadResult, type Sample } from './server.js';
import type { BenchStore } from './store.js';
import { itemId } from './synth/items.js';

/** How many packages the rotating aip case asks for in turn. */
const ROTATING_ITEMS = 1000;

export interface Manifest {
  seed: number;
  persons: number;
  items: number;
  knownPersonIds: string[];
  rareTerm: string;
  commonTerm: string;
  veryCommonTerm: string;
  deepLeafId: string;
  shallowItemId: string;
  itemIdsSample: string[];
  knownPersons: Array<{ id: string; items: number }>;
  [k: string]: unknown;
}

export interface Case {
  name: string;
  path: string;
  paths?: string[];
  headers: Record<string, string>;
  target?: string;
  connections?: number;
  /**
   * Answered by the primary's search threads: the ceiling relays each answer through the same
   * hops (bench/ceiling.ts `relay`), so that its p99 is the floor of the row's.
   */
  relay?: boolean;
}

export const ROW_HEADER = [
  'case',
  'conns',
  'bytes',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'ceiling req/s',
  'ceiling p99 ms',
  'ratio',
  'target',
];

/** One row: the case driven against us, then against the ceiling with the same bytes. */
export async function measure(base: string, c: Case): Promise<string[]> {
  const paths = c.paths ?? [c.path];
  const samples = new Map<string, Sample>();
  for (const path of paths) {
    const s = await sample(`${base}${path}`, c.headers);
    if (s.status !== 200) throw new Error(`${c.name}: ${path}: status ${s.status}: ${s.body.toString().slice(0, 300)}`);
    samples.set(path, s);
  }
  log(`${c.name} ...`);
  const conns = c.connections ?? connections;
  // A short warm-up: caches, JIT and connections settle before the measured run.
  drive(base, paths, c.headers, conns, 1);
  const ours = drive(base, paths, c.headers, conns);
  const ceiling = await startCeiling(samples, c.relay === true);
  let bare: LoadResult;
  try {
    bare = drive(`http://127.0.0.1:${ceiling.port}`, paths, c.headers, conns);
  } finally {
    ceiling.child.kill();
  }
  emptyServerLog();
  const bytes = Math.round([...samples.values()].reduce((sum, s) => sum + s.body.length, 0) / samples.size);
  return [
    c.name,
    String(conns),
    String(bytes),
    ours.requests.toFixed(0),
    String(ours.p50),
    String(ours.p99),
    String(ours.errors + ours.non2xx),
    bare.requests.toFixed(0),
    String(bare.p99),
    (ours.requests / bare.requests).toFixed(2),
    c.target ?? '',
  ];
}

/** A row of a measurement without a ceiling (parents under load). */
export function plainRow(name: string, r: LoadResult, target: string, conns = 1): string[] {
  return [name, String(conns), '', r.requests.toFixed(0), String(r.p50), String(r.p99), String(r.errors + r.non2xx), '', '', '', target];
}

/** The packages, hierarchy and entity cases (their targets: docs/benchmarks.md). */
export async function entityCases(
  base: string,
  manifest: Manifest,
  json: Record<string, string>,
  xml: Record<string, string>,
): Promise<Case[]> {
  const q = (query: string, rest = '') => `/entities?query=${encodeURIComponent(query)}${rest}`;
  const item = manifest.itemIdsSample[0]!;
  // Packages spread over the whole set, asked for in turn: reads of many rows, not one hot row.
  const spread = Math.min(ROTATING_ITEMS, manifest.items);
  const rotating = Array.from(
    { length: spread },
    (_, k) => `/items/${itemId(manifest.seed, Math.floor((k * manifest.items) / spread))}/aip`,
  );
  // The most frequent birth/death place, for a filter that keeps many hits.
  const places = await sample(`${base}${q('*:*', '&facet=person_place_fct&rows=1')}`, json);
  const topPlace =
    (JSON.parse(places.body.toString()) as { facets: Array<{ field: string; facetValues: Array<{ value: string }> }> }).facets.find(
      (f) => f.field === 'person_place_fct',
    )?.facetValues[0]?.value ?? 'Berlin';
  return [
    { name: 'aip JSON', path: `/items/${item}/aip`, headers: json, target: '≥ 0.8 × ceiling' },
    { name: `aip JSON, ${spread} items in turn`, path: rotating[0]!, paths: rotating, headers: json, target: '≥ 0.8 × ceiling' },
    { name: 'aip XML', path: `/items/${item}/aip`, headers: xml, target: '≥ 0.8 × ceiling' },
    { name: 'aip JSON, gzip', path: `/items/${item}/aip`, headers: { ...json, 'accept-encoding': 'gzip' }, target: '≥ 0.8 × ceiling' },
    { name: 'parents, depth 12', path: `/items/${manifest.deepLeafId}/parents`, headers: json, target: '≥ 0.7 × ceiling' },
    { name: 'parents, shallow, XML', path: `/items/${manifest.shallowItemId}/parents`, headers: xml, target: '≥ 0.7 × ceiling' },
    // searches: answered by the primary's threads, the ceiling relayed as they are
    ...entitySearchCases(
      {
        rare: manifest.rareTerm,
        common: manifest.commonTerm,
        veryCommon: manifest.veryCommonTerm,
        topPlace,
        personId: manifest.knownPersonIds[0]!,
      },
      json,
    ),
  ];
}

/** The terms and values the entity search rows ask for. */
export interface EntityTerms {
  rare: string;
  common: string;
  veryCommon: string;
  /** The most frequent birth/death place, for a filter that keeps many hits. */
  topPlace: string;
  /** A person's id, for the id lookup. */
  personId: string;
}

/**
 * The person search rows (GET /entities; targets in docs/benchmarks.md), also run on the
 * engine alone by bench/scale.ts. Latency targets are measured with one connection, so p99
 * is the time a request takes, not the queue in front of it; the 50-connection rows show throughput.
 */
export function entitySearchCases(t: EntityTerms, json: Record<string, string>): Case[] {
  const q = (query: string, rest = '') => `/entities?query=${encodeURIComponent(query)}${rest}`;
  const topPlace = t.topPlace;
  // Latencies are measured with one connection: p99 is a request's own time.
  const one = 1;
  const cases: Case[] = [
    {
      name: `entities rare '${t.rare}' + facet`,
      path: q(t.rare, '&facet=person_occupation_fct'),
      headers: json,
      target: 'p99 ≤ 5 ms',
      connections: one,
    },
    { name: `entities rare '${t.rare}' + facet`, path: q(t.rare, '&facet=person_occupation_fct'), headers: json },
    {
      name: `entities common '${t.common}' + name facet + filter`,
      path: q(t.common, '&facet=person_name_fct&person_gender_fct=Frau'),
      headers: json,
      target: 'p99 ≤ 50 ms',
      connections: one,
    },
    {
      name: `entities common '${t.common}' + place facet + filter, ALPHA`,
      path: q(t.common, '&facet=person_place_fct&person_gender_fct=Frau&sort=ALPHA_ASC'),
      headers: json,
      target: 'p99 ≤ 50 ms',
      connections: one,
    },
    {
      name: `entities very common '${t.veryCommon}' + occupation facet + filter`,
      path: q(t.veryCommon, '&facet=person_occupation_fct&person_gender_fct=Mann'),
      headers: json,
      target: 'p99 ≤ 50 ms',
      connections: one,
    },
    {
      name: `entities very common '${t.veryCommon}' + occupation facet + filter, ALPHA`,
      path: q(t.veryCommon, '&facet=person_occupation_fct&person_gender_fct=Mann&sort=ALPHA_ASC'),
      headers: json,
      target: 'p99 ≤ 50 ms',
      connections: one,
    },
    {
      name: 'entities *:* + gender facet + filter',
      path: q('*:*', '&facet=person_gender_fct&person_gender_fct=Frau'),
      headers: json,
      target: 'p99 ≤ 50 ms',
      connections: one,
    },
    {
      name: 'entities *:* + occupation facet + place filter, ALPHA',
      path: q('*:*', `&facet=person_occupation_fct&person_place_fct=${encodeURIComponent(topPlace)}&sort=ALPHA_ASC`),
      headers: json,
      target: 'p99 ≤ 50 ms',
      connections: one,
    },
    { name: 'entities *:* + gender facet + filter', path: q('*:*', '&facet=person_gender_fct&person_gender_fct=Frau'), headers: json },
    { name: 'entities id lookup', path: q(`id:"${t.personId}"`), headers: json },
    {
      name: 'entities deep page (offset 10000)',
      path: q(t.veryCommon, '&offset=10000&rows=20'),
      headers: json,
      connections: one,
    },
  ];
  return cases.map((c) => ({ ...c, relay: true }));
}

/**
 * Cursor paging through 100,000 hits: pages with cursorMark (rows
 * 1000, the maximum) through every hit of the query, one request at a time,
 * and checks that each id comes exactly once and that their number is the total.
 */
export async function cursorPaging(
  base: string,
  headers: Record<string, string>,
  query: string,
): Promise<{ hits: number; pages: number; seconds: number; exact: boolean }> {
  const started = performance.now();
  const seen = new Set<string>();
  let duplicates = 0;
  let total: number;
  let pages = 0;
  for (let cursor = '*'; ;) {
    const r = await sample(
      `${base}/entities?query=${encodeURIComponent(query)}&rows=1000&cursorMark=${encodeURIComponent(cursor)}`,
      headers,
    );
    if (r.status !== 200) throw new Error(`cursor paging: status ${r.status}: ${r.body.toString().slice(0, 300)}`);
    const page = JSON.parse(r.body.toString()) as {
      numberOfResults: number;
      results: Array<{ docs: Array<{ id: string }> }>;
      nextCursorMark?: string;
    };
    pages++;
    total = page.numberOfResults;
    const docs = page.results[0]?.docs ?? [];
    for (const d of docs) {
      if (seen.has(d.id)) duplicates++;
      seen.add(d.id);
    }
    if (docs.length === 0 || !page.nextCursorMark || page.nextCursorMark === cursor) break;
    cursor = page.nextCursorMark;
  }
  return { hits: seen.size, pages, seconds: (performance.now() - started) / 1000, exact: duplicates === 0 && seen.size === total };
}

/**
 * No search can hold the server (docs/decisions.md "Bounded searches"): a `parents` request while
 * five worst-case searches are in flight
 * all the time. Another process keeps them going; each is 100 different
 * leading wildcards (each reads the whole vocabulary), and the queries differ,
 * so no expansion comes from the cache. The searches answer 200, or 503 past
 * search.timeBudgetMs.
 */
export async function parentsUnderSearches(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ parents: LoadResult; searches: LoadResult }> {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const patterns = [...'qxjy'].flatMap((first) => [...letters].flatMap((a) => [...letters].map((b) => `*${first}${a}${b}*`)));
  const paths: string[] = [];
  for (let k = 0; k + 100 <= patterns.length; k += 100)
    paths.push(`/entities?rows=1&query=${encodeURIComponent(patterns.slice(k, k + 100).join(' OR '))}`);
  const options = {
    url: `${base}${paths[0]}`,
    headers,
    connections: 5,
    duration: seconds + 2,
    timeout: 60,
    requests: paths.map((p) => ({ path: p })),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/load.ts'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The searches start before parents is measured (a bench may wait; a test may not).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const parents = drive(base, [path], headers, 1);
  await exited;
  return { parents, searches: JSON.parse(out) as LoadResult };
}

/** Facet fields of the item index, 15 of them, for the worst Solr select. */
const FIFTEEN_FACETS = [
  'time_fct',
  'place_fct',
  'place_fct_normdata',
  'affiliate_fct',
  'affiliate_fct_normdata',
  'affiliate_fct_role',
  'affiliate_fct_role_normdata',
  'affiliate_fct_involved',
  'affiliate_fct_subject',
  'keywords_fct',
  'keywords_fct_normdata',
  'topic_fct',
  'objecttype_fct',
  'objecttype_fct_normdata',
  'language_fct',
];

/** Twelve of the most frequent German words, each on most records: an OR of them matches nearly everything. */
const STOP_WORDS = ['der', 'die', 'und', 'in', 'den', 'von', 'zu', 'das', 'mit', 'sich', 'des', 'auf'];

/**
 * The five most expensive requests a client may legally send (docs/benchmarks.md), each the
 * most of what its parameters allow: the Solr select of every item in a random order at
 * start 99,000 with 15 facets of every value; a one-letter prefix wildcard on items and on
 * persons; an OR of 12 stop words on items and on persons.
 */
/** The deepest `start` of the worst select: 99,000, or 1,000 before the end of a smaller set. */
export const worstStart = (items: number) => Math.max(0, Math.min(99_000, items - 1000));

export function worstRequests(items: number): string[] {
  const facets = FIFTEEN_FACETS.map((f) => `&facet.field=${f}`).join('');
  const start = worstStart(items);
  const stop = encodeURIComponent(STOP_WORDS.join(' OR '));
  return [
    `/search/index/search/select?q=*:*&start=${start}&sort=${encodeURIComponent('random_3 asc')}&facet=true&facet.limit=-1${facets}`,
    '/search?query=a*',
    '/entities?query=a*',
    `/search?query=${stop}`,
    `/entities?query=${stop}`,
  ];
}

/**
 * `parents` at `conns` connections (the bench's 50, as the plain `parents` row, which is the
 * same measure without the searches) while another process keeps the five worst requests
 * (worstRequests) going in loops, one connection each, so that five are always in flight. Searches must not take the cores the lookups need: the searches answer
 * 200, or a 503 when the node is busy (docs/search.md "Time budget and admission").
 */
export async function parentsUnderWorstRequests(
  base: string,
  path: string,
  headers: Record<string, string>,
  items: number,
  duration = seconds,
  conns = 1,
): Promise<{ parents: LoadResult; searches: Array<LoadResult & { path: string }> }> {
  const paths = worstRequests(items);
  const options = paths.map((p) => ({ url: `${base}${p}`, headers, connections: 1, duration: duration + 2, timeout: 60 }));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/load.ts'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The loops start before parents is measured (a bench may wait; a test may not).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const parents = drive(base, [path], headers, conns, duration);
  await exited;
  return { parents, searches: (JSON.parse(out) as LoadResult[]).map((r, k) => ({ ...r, path: paths[k]! })) };
}

/**
 * Freshness without stalls: `parents` at one connection while another process loads new items
 * (100,000 in the full run, `--load-items N`), which the search index takes in as they
 * commit. Then how long the last loaded item takes to become searchable. Run last: the
 * store holds the new items afterwards.
 */
export async function parentsWhileLoading(
  store: BenchStore,
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ parents: LoadResult; items: number; loadSeconds: number; searchableAfter: number }> {
  const items = Number(option('load-items', quick ? '5000' : '100000'));
  const extra = join(dataDir, 'extra');
  const made = existsSync(join(extra, 'manifest.json'))
    ? (JSON.parse(readFileSync(join(extra, 'manifest.json'), 'utf8')) as Manifest)
    : undefined;
  if (made?.items !== items || made.seed !== 2) {
    log(`generating ${items} more items to load while serving ...`);
    await generate({ persons: 1000, items, out: extra, seed: 2, threads: Math.min(2, cpus().length) });
  }
  const lastId = itemId(2, items - 1);
  const started = performance.now();
  const ingest = spawn(process.execPath, [CLI, ...store.args, 'ingest', 'items', join(extra, 'items')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: store.env,
  });
  const exited = new Promise<number | null>((resolve) => ingest.once('exit', resolve));
  const runs: LoadResult[] = [];
  // drive() blocks this process's event loop; the turn between runs lets the ingest's exit be seen.
  while (ingest.exitCode === null) {
    runs.push(drive(base, [path], headers, 1, 2));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const code = await exited;
  if (code !== 0) throw new Error(`ingest of the extra items exited with ${code}`);
  const loaded = performance.now();
  const loadSeconds = (loaded - started) / 1000;
  for (;;) {
    const r = await sample(`${base}/search?query=${encodeURIComponent(`id:${lastId}`)}&rows=0`, headers);
    if (r.status === 200 && (JSON.parse(r.body.toString()) as { numberOfResults: number }).numberOfResults === 1) break;
    if (performance.now() - loaded > 120_000) throw new Error(`${lastId} was not searchable 120 s after its load`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const searchableAfter = (performance.now() - loaded) / 1000;
  const total = runs.reduce((n, r) => n + r.requests * 2, 0);
  const seconds = runs.length * 2;
  const parents: LoadResult = {
    requests: total / Math.max(seconds, 1),
    // The worst of the two-second runs: no run's p99 hides behind another's.
    p50: Math.max(0, ...runs.map((r) => r.p50)),
    p99: Math.max(0, ...runs.map((r) => r.p99)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
  return { parents, items, loadSeconds, searchableAfter };
}
