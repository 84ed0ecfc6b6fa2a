/**
 * `npm run bench [-- --quick] [-- --data DIR]`: the benchmark of issue #5.
 * `npm run bench -- --generate --persons N --items M [--data DIR]`: the same,
 * on a data set generated in this run and loaded slice by slice, each slice's
 * files deleted once loaded, for data sets whose files and store do not fit
 * on the disk together (1 M items: 27 GB of files). `npm run bench [-- --data DIR]`
 * afterwards measures that loaded store again without loading it.
 *
 * Loads the generated data set through the real `ingest` commands (timed),
 * starts the real server on it as a user does (its defaults, its log to a
 * file), and drives each endpoint from a separate
 * process with autocannon over loopback. Beside every endpoint it measures
 * the ceiling of this machine for the same bytes: a bare node:http server
 * answering them from memory. Prints a table and writes it, with the machine
 * and the data sizes, to docs/benchmarks.md.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { availableParallelism, cpus, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './data.js';
import { chooseItemTerms, itemCursorWalk, itemSearchCases } from './itemSearch.js';
import { pageCases, spellCases } from './pageCases.js';
import { itemId } from './synth/items.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const quick = flag('quick');
const dataDir = option('data', join(ROOT, quick ? 'data/bench-quick' : 'data/bench'));
const seconds = Number(option('duration', quick ? '3' : '10'));
const connections = Number(option('connections', '50'));
const db = join(dataDir, 'bench.db');
/**
 * The server's HTTP worker processes as a user gets them (server.workers, default one per
 * core; HERITAGE_API_SERVER_WORKERS in the environment sets it), and so the ceiling's.
 */
const WORKERS = Number(process.env.HERITAGE_API_SERVER_WORKERS ?? '0') || availableParallelism();
/** How many packages the rotating aip case asks for in turn. */
const ROTATING_ITEMS = 1000;

interface Manifest {
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

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

function cli(args: string[]): string {
  return execFileSync(process.execPath, [CLI, '--db', db, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
}

/** Left in DIR by --generate, whose item files are gone once loaded. */
const LOADED_ONLY = 'loaded-only';
/** The load rates of a --generate run, for later runs that measure its store again. */
const LOAD_RATES = 'load-rates.json';
let reusedStore = false;
const rateOf = (out: string) => Number(/\((\d+)\/s\)/.exec(out)?.[1] ?? 0);

function removeStore(): void {
  for (const f of [db, `${db}-wal`, `${db}-shm`, join(dataDir, LOADED_ONLY), join(dataDir, LOAD_RATES)]) rmSync(f, { force: true });
}

/** `ingest entities` of DIR/persons; its persons/s. */
function loadPersons(): number {
  log('loading persons ...');
  return rateOf(cli(['ingest', 'entities', join(dataDir, 'persons')]));
}

/** `ingest items` of DIR/items; its packages/s. */
function loadItems(what: string): number {
  log(`loading ${what} ...`);
  return rateOf(cli(['ingest', 'items', join(dataDir, 'items')]));
}

/** Loads the data set through the real commands; returns records/s per kind. */
function load(): { persons: number; items: number } {
  if (existsSync(join(dataDir, LOADED_ONLY))) {
    // A set made by --generate cannot be loaded again (its item files are gone): measure the
    // store as loaded, with the load rates of that run. The items an earlier run loaded while
    // serving (seed 2) are in it too; loading them again replaces them.
    if (!existsSync(db) || !existsSync(join(dataDir, LOAD_RATES))) {
      throw new Error(`${dataDir} was made by --generate and its item files are gone: run with --generate again, or generate the files with npm run bench:data`);
    }
    log(`measuring the store loaded by --generate in ${dataDir} (its load rates are of that run)`);
    reusedStore = true;
    return JSON.parse(readFileSync(join(dataDir, LOAD_RATES), 'utf8')) as { persons: number; items: number };
  }
  removeStore();
  return { persons: loadPersons(), items: loadItems('items') };
}

/**
 * Generates the data set and loads it as it is made (bench/data.ts `slices`):
 * the persons, then slices of 100,000 items, each loaded by its own `ingest
 * items` and then deleted. The packages/s is all items over the time of all
 * the loads, as each load reports it.
 */
async function generateAndLoad(): Promise<{ persons: number; items: number }> {
  const persons = Number(option('persons', 'NaN'));
  const items = Number(option('items', 'NaN'));
  if (!Number.isSafeInteger(persons) || !Number.isSafeInteger(items) || persons < 0 || items < 0) {
    throw new Error('--generate needs --persons N --items M');
  }
  removeStore();
  const itemsDir = join(dataDir, 'items');
  let personsRate = 0;
  let itemSeconds = 0;
  await generate({
    persons,
    items,
    out: dataDir,
    seed: 1,
    threads: Math.min(2, cpus().length),
    log: (line) => log(`[bench:data] ${line}`),
    slices: {
      items: 100_000,
      afterPersons: async () => {
        personsRate = loadPersons();
      },
      afterSlice: async (n) => {
        itemSeconds += n / Math.max(1, loadItems(`${n} items`));
        for (const folder of readdirSync(itemsDir)) {
          for (const file of readdirSync(join(itemsDir, folder))) rmSync(join(itemsDir, folder, file));
        }
      },
    },
  });
  writeFileSync(join(dataDir, LOADED_ONLY), 'The item files of this data set were deleted once loaded (npm run bench -- --generate).\n');
  const rates = { persons: personsRate, items: Math.round(items / Math.max(itemSeconds, 1e-9)) };
  writeFileSync(join(dataDir, LOAD_RATES), JSON.stringify(rates));
  return rates;
}

/** Where the server's standard output, its log, goes: a file, as an operator would keep it. */
const serverLog = join(dataDir, 'server.log');
/** The server's log, in bytes, over the run (its file is emptied after each case, to spare the disk). */
let loggedBytes = 0;

function emptyServerLog(): void {
  loggedBytes += statSync(serverLog).size;
  truncateSync(serverLog, 0);
}

/** Said in the table's heading: a log level set in the environment is not the default. */
const logLevelNote = process.env.HERITAGE_API_SERVER_LOG_LEVEL ? ` but HERITAGE_API_SERVER_LOG_LEVEL=${process.env.HERITAGE_API_SERVER_LOG_LEVEL}` : '';

/**
 * Starts the server as a user does (issue #13, point 11): `heritage-api
 * serve` with no flag but the store and the port, so at the default log level
 * and with every other default; HERITAGE_API_SERVER_LOG_LEVEL=info in the
 * environment measures the request log (docs/configuration.md "The request log").
 */
function startServer(port: number): Promise<ChildProcess> {
  writeFileSync(serverLog, '');
  // Appending: the server keeps writing at the end after the file is emptied.
  const out = openSync(serverLog, 'a');
  // The pages' own limit per address (web.rateLimitMax, 600 a minute) would answer the
  // bench's one address with 429s within a second: it is the one setting changed.
  const env = { ...process.env, HERITAGE_API_WEB_RATE_LIMIT_MAX: '0' };
  const child = spawn(process.execPath, [CLI, '--db', db, 'serve', '--port', String(port)], { stdio: ['ignore', out, 'pipe'], env });
  closeSync(out);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d.toString();
      if (err.includes('listening on')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const NODE_WRITES = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

function sample(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        // Every header of ours goes to the ceiling too (the same bytes), but those node:http
        // writes itself for each answer.
        const keep: Record<string, string> = {};
        for (const [h, v] of Object.entries(res.headers)) {
          if (typeof v === 'string' && !NODE_WRITES.includes(h)) keep[h] = v;
        }
        resolve({ status: res.statusCode ?? 0, headers: keep, body: Buffer.concat(chunks) });
      });
    })
      .on('error', reject)
      .end();
  });
}

type Sample = Awaited<ReturnType<typeof sample>>;

/** The bare server for a case's responses, by path (bench/ceiling.ts). */
function startCeiling(responses: ReadonlyMap<string, Sample>): Promise<{ child: ChildProcess; port: number }> {
  const specFile = join(dataDir, 'ceiling.json');
  const spec = Object.fromEntries([...responses].map(([path, r]) => [path, { status: r.status, headers: r.headers, body: r.body.toString('base64') }]));
  writeFileSync(specFile, JSON.stringify({ responses: spec }));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/ceiling.ts'), specFile, String(WORKERS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => child.stdout!.once('data', (d) => resolve({ child, port: Number(d.toString().trim()) })));
}

interface LoadResult {
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Drives `base` + each of `paths` in turn on every connection (autocannon's `requests`). */
function drive(base: string, paths: readonly string[], headers: Record<string, string>, conns = connections, duration = seconds): LoadResult {
  const options = { url: `${base}${paths[0]}`, headers, connections: conns, duration, ...(paths.length > 1 ? { requests: paths.map((path) => ({ path })) } : {}) };
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/load.ts'), JSON.stringify(options)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out) as LoadResult;
}

/**
 * Issue #5 "cursor paging through 100,000 hits": pages with cursorMark (rows
 * 1000, the maximum) through every hit of the query, one request at a time,
 * and checks that each id comes exactly once and that their number is the total.
 */
async function cursorPaging(base: string, headers: Record<string, string>, query: string): Promise<{ hits: number; pages: number; seconds: number; exact: boolean }> {
  const started = performance.now();
  const seen = new Set<string>();
  let duplicates = 0;
  let total = -1;
  let pages = 0;
  for (let cursor = '*'; ; ) {
    const r = await sample(`${base}/entities?query=${encodeURIComponent(query)}&rows=1000&cursorMark=${encodeURIComponent(cursor)}`, headers);
    if (r.status !== 200) throw new Error(`cursor paging: status ${r.status}: ${r.body.toString().slice(0, 300)}`);
    const page = JSON.parse(r.body.toString()) as { numberOfResults: number; results: Array<{ docs: Array<{ id: string }> }>; nextCursorMark?: string };
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
 * Waits until the kernel has stopped stalling on IO (Linux pressure stall
 * information): after a load of 50 GB, `sync` returns while reclaim and
 * write-back still go on, and a case measured then read a third low (issue #5).
 * At most five minutes; elsewhere than on Linux it does not wait.
 */
/**
 * Issue #13: a `parents` request while five worst-case searches are in flight
 * all the time. Another process keeps them going; each is 100 different
 * leading wildcards (each reads the whole vocabulary), and the queries differ,
 * so no expansion comes from the cache. The searches answer 200, or 503 past
 * search.timeBudgetMs.
 */
async function parentsUnderSearches(base: string, path: string, headers: Record<string, string>): Promise<{ parents: LoadResult; searches: LoadResult }> {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const patterns = [...'qxjy'].flatMap((first) => [...letters].flatMap((a) => [...letters].map((b) => `*${first}${a}${b}*`)));
  const paths: string[] = [];
  for (let k = 0; k + 100 <= patterns.length; k += 100) paths.push(`/entities?rows=1&query=${encodeURIComponent(patterns.slice(k, k + 100).join(' OR '))}`);
  const options = { url: `${base}${paths[0]}`, headers, connections: 5, duration: seconds + 2, timeout: 60, requests: paths.map((p) => ({ path: p })) };
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/load.ts'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The searches start before parents is measured (a bench may wait; a test may not).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const parents = drive(base, [path], headers, 1);
  await exited;
  return { parents, searches: JSON.parse(out) as LoadResult };
}

/**
 * Issue #14 point 6: `parents` at one connection while another process loads new items
 * (100,000 in the full run, `--load-items N`), which the search index takes in as they
 * commit. Then how long the last loaded item takes to become searchable. Run last: the
 * store holds the new items afterwards.
 */
async function parentsWhileLoading(base: string, path: string, headers: Record<string, string>): Promise<{ parents: LoadResult; items: number; loadSeconds: number; searchableAfter: number }> {
  const items = Number(option('load-items', quick ? '5000' : '100000'));
  const extra = join(dataDir, 'extra');
  const made = existsSync(join(extra, 'manifest.json')) ? (JSON.parse(readFileSync(join(extra, 'manifest.json'), 'utf8')) as Manifest) : undefined;
  if (made?.items !== items || made.seed !== 2) {
    log(`generating ${items} more items to load while serving ...`);
    await generate({ persons: 1000, items, out: extra, seed: 2, threads: Math.min(2, cpus().length) });
  }
  const lastId = itemId(2, items - 1);
  const started = performance.now();
  const ingest = spawn(process.execPath, [CLI, '--db', db, 'ingest', 'items', join(extra, 'items')], { stdio: ['ignore', 'ignore', 'inherit'] });
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

async function ioSettled(): Promise<void> {
  const file = '/proc/pressure/io';
  if (!existsSync(file)) return;
  const started = Date.now();
  let quiet = 0;
  while (quiet < 10 && Date.now() - started < 300_000) {
    const some = Number(/^some avg10=([\d.]+)/m.exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
    quiet = some < 0.5 ? quiet + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  log(`IO settled after ${Math.round((Date.now() - started) / 1000)} s`);
}

function peakMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

/** The peak memory of the server's primary and of each of its worker processes (serve --workers). */
function nodeMemory(pid: number): { primary: number; workers: number[] } {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    children = []; // A kernel without the children file: the primary alone.
  }
  return { primary: peakMemoryMb(pid), workers: children.map(peakMemoryMb) };
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does).');
  let loadRates: { persons: number; items: number };
  if (flag('generate')) {
    loadRates = await generateAndLoad();
  } else {
    if (!existsSync(join(dataDir, 'manifest.json'))) {
      if (!quick) throw new Error(`No data in ${dataDir}. Generate it: npm run bench:data -- --persons 1000000 --items 1000000 --out ${dataDir}`);
      log('generating the quick data set ...');
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/data.ts'), '--persons', '50000', '--items', '5000', '--out', dataDir], { stdio: 'inherit' });
    }
    loadRates = load();
  }
  const manifest = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as Manifest;
  // The load leaves gigabytes of dirty pages; let them reach the disk before measuring, so the
  // first case does not compete with write-back (it read ~20 % low otherwise).
  execFileSync('sync');
  // The quick set is 0.4 GB: sync is enough, and the quick run must stay short.
  if (!quick) await ioSettled();
  const key = cli(['keys', 'create', '--name', `bench-${process.pid}`]).trim();
  const port = await freePort();
  const server = await startServer(port);
  const base = `http://127.0.0.1:${port}`;
  // The indexes build in the background after the start (issue #14 point 6); measuring before
  // /health/ready would time searches that wait for the build (the 1 M run of 2026-11-24 did).
  const readySince = performance.now();
  while ((await sample(`${base}/health/ready`, {})).status !== 200) {
    if (performance.now() - readySince > 1_800_000) throw new Error('the server was not ready 30 minutes after its start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  log(`ready ${((performance.now() - readySince) / 1000).toFixed(1)} s after listening`);
  const auth = { authorization: `OAuth oauth_consumer_key="${key}"` };
  const json = { ...auth, accept: 'application/json' };
  const xml = { ...auth, accept: 'application/xml' };
  const q = (query: string, rest = '') => `/entities?query=${encodeURIComponent(query)}${rest}`;
  const item = manifest.itemIdsSample[0]!;
  // Packages spread over the whole set, asked for in turn: reads of many rows, not one hot row.
  const spread = Math.min(ROTATING_ITEMS, manifest.items);
  const rotating = Array.from({ length: spread }, (_, k) => `/items/${itemId(manifest.seed, Math.floor((k * manifest.items) / spread))}/aip`);
  // The most frequent birth/death place, for a filter that keeps many hits.
  const places = await sample(`${base}${q('*:*', '&facet=person_place_fct&rows=1')}`, json);
  const topPlace = (JSON.parse(places.body.toString()) as { facets: Array<{ field: string; facetValues: Array<{ value: string }> }> }).facets
    .find((f) => f.field === 'person_place_fct')?.facetValues[0]?.value ?? 'Berlin';
  // Entity targets are latencies (issue #5): measured with one connection, so p99 is the time a
  // request takes, not the queue in front of it; the 50-connection rows show throughput.
  const one = 1;
  const cases: Array<{ name: string; path: string; paths?: string[]; headers: Record<string, string>; target?: string; connections?: number }> = [
    { name: 'aip JSON', path: `/items/${item}/aip`, headers: json, target: '≥ 0.8 × ceiling' },
    { name: `aip JSON, ${spread} items in turn`, path: rotating[0]!, paths: rotating, headers: json, target: '≥ 0.8 × ceiling' },
    { name: 'aip XML', path: `/items/${item}/aip`, headers: xml, target: '≥ 0.8 × ceiling' },
    { name: 'aip JSON, gzip', path: `/items/${item}/aip`, headers: { ...json, 'accept-encoding': 'gzip' }, target: '≥ 0.8 × ceiling' },
    { name: 'parents, depth 12', path: `/items/${manifest.deepLeafId}/parents`, headers: json, target: '≥ 0.7 × ceiling' },
    { name: 'parents, shallow, XML', path: `/items/${manifest.shallowItemId}/parents`, headers: xml, target: '≥ 0.7 × ceiling' },
    { name: `entities rare '${manifest.rareTerm}' + facet`, path: q(manifest.rareTerm, '&facet=person_occupation_fct'), headers: json, target: 'p99 ≤ 5 ms', connections: one },
    { name: `entities rare '${manifest.rareTerm}' + facet`, path: q(manifest.rareTerm, '&facet=person_occupation_fct'), headers: json },
    { name: `entities common '${manifest.commonTerm}' + name facet + filter`, path: q(manifest.commonTerm, '&facet=person_name_fct&person_gender_fct=Frau'), headers: json, target: 'p99 ≤ 50 ms', connections: one },
    { name: `entities common '${manifest.commonTerm}' + place facet + filter, ALPHA`, path: q(manifest.commonTerm, '&facet=person_place_fct&person_gender_fct=Frau&sort=ALPHA_ASC'), headers: json, target: 'p99 ≤ 50 ms', connections: one },
    { name: `entities very common '${manifest.veryCommonTerm}' + occupation facet + filter`, path: q(manifest.veryCommonTerm, '&facet=person_occupation_fct&person_gender_fct=Mann'), headers: json, target: 'p99 ≤ 50 ms', connections: one },
    { name: `entities very common '${manifest.veryCommonTerm}' + occupation facet + filter, ALPHA`, path: q(manifest.veryCommonTerm, '&facet=person_occupation_fct&person_gender_fct=Mann&sort=ALPHA_ASC'), headers: json, target: 'p99 ≤ 50 ms', connections: one },
    { name: 'entities *:* + gender facet + filter', path: q('*:*', '&facet=person_gender_fct&person_gender_fct=Frau'), headers: json, target: 'p99 ≤ 50 ms', connections: one },
    { name: 'entities *:* + occupation facet + place filter, ALPHA', path: q('*:*', `&facet=person_occupation_fct&person_place_fct=${encodeURIComponent(topPlace)}&sort=ALPHA_ASC`), headers: json, target: 'p99 ≤ 50 ms', connections: one },
    { name: 'entities *:* + gender facet + filter', path: q('*:*', '&facet=person_gender_fct&person_gender_fct=Frau'), headers: json },
    { name: 'entities id lookup', path: q(`id:"${manifest.knownPersonIds[0]}"`), headers: json },
    { name: 'entities deep page (offset 10000)', path: q(manifest.veryCommonTerm, '&offset=10000&rows=20'), headers: json, connections: one },
  ];
  type Case = (typeof cases)[number];
  /** One row: the case driven against us, then against the ceiling with the same bytes. */
  const measure = async (c: Case): Promise<string[]> => {
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
    const ceiling = await startCeiling(samples);
    let bare: LoadResult;
    try {
      bare = drive(`http://127.0.0.1:${ceiling.port}`, paths, c.headers, conns);
    } finally {
      ceiling.child.kill();
    }
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
      (ours.requests / bare.requests).toFixed(2),
      c.target ?? '',
    ];
  };
  const rows: string[][] = [];
  let itemPaging: { hits: number; seconds: number; exact: boolean } | undefined;
  let freshness: { searchableAfter: number; items: number } | undefined;
  let memory: ReturnType<typeof nodeMemory> = { primary: 0, workers: [] };
  let paging: { query: string; hits: number; pages: number; seconds: number; exact: boolean } | undefined;
  try {
    for (const c of cases) {
      rows.push(await measure(c));
      emptyServerLog();
    }
    log('parents while five worst-case searches run ...');
    const hostile = await parentsUnderSearches(base, `/items/${manifest.deepLeafId}/parents`, json);
    rows.push([
      `parents, depth 12, while 5 worst-case searches run (searches: ${hostile.searches.requests.toFixed(1)}/s, ${hostile.searches.non2xx} non-2xx)`,
      '1',
      '',
      hostile.parents.requests.toFixed(0),
      String(hostile.parents.p50),
      String(hostile.parents.p99),
      String(hostile.parents.errors + hostile.parents.non2xx),
      '',
      '',
      'p99 ≤ 50 ms',
    ]);
    log('item search ...');
    const fetchJson = (path: string) => sample(`${base}${path}`, json);
    const terms = await chooseItemTerms(fetchJson);
    const walk = await itemCursorWalk(fetchJson, 100_000);
    itemPaging = { hits: walk.hits, seconds: walk.seconds, exact: walk.exact };
    const personTerm = manifest.commonTerm;
    const visitor = [...manifest.knownPersons].sort((a, b) => b.items - a.items)[0];
    // The root of the deep leaf's collection: a page with many children.
    const chain = JSON.parse((await sample(`${base}/items/${manifest.deepLeafId}/parents`, json)).body.toString()) as { hierarchy: Array<{ id: string }> };
    const rootOfDeepLeaf = chain.hierarchy.at(-1)?.id ?? manifest.deepLeafId;
    const pages = pageCases({
      deepItem: manifest.deepLeafId,
      rootItem: rootOfDeepLeaf,
      gnd: (visitor?.id ?? manifest.knownPersonIds[0]!).replace(/^.*\//, ''),
      terms,
    });
    const html = { accept: 'text/html', 'accept-language': 'de' };
    for (const c of [...itemSearchCases(terms, walk.deepPages), ...(await spellCases(fetchJson, terms.common, personTerm))]) {
      rows.push(await measure({ ...c, headers: json, connections: one }));
      emptyServerLog();
    }
    log('pages ...');
    for (const c of pages) {
      rows.push(await measure({ ...c, headers: html, connections: one }));
      emptyServerLog();
    }
    log('parents while items load ...');
    const loading = await parentsWhileLoading(base, `/items/${manifest.deepLeafId}/parents`, json);
    freshness = loading;
    rows.push([
      `parents, depth 12, while ${loading.items} items load (${(loading.items / loading.loadSeconds).toFixed(0)}/s)`,
      '1',
      '',
      loading.parents.requests.toFixed(0),
      String(loading.parents.p50),
      String(loading.parents.p99),
      String(loading.parents.errors + loading.parents.non2xx),
      '',
      '',
      'p99 ≤ 50 ms',
    ]);
    const pagingQuery = manifest.persons >= 200_000 ? manifest.veryCommonTerm : '*:*';
    log(`cursor paging through '${pagingQuery}' ...`);
    paging = { query: pagingQuery, ...(await cursorPaging(base, json, pagingQuery)) };
  } finally {
    memory = nodeMemory(server.pid!);
    server.kill();
  }
  emptyServerLog();
  const header = ['case', 'conns', 'bytes', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'ceiling req/s', 'ratio', 'target'];
  const table = [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  const cpu = cpus();
  const machine = `${type()} ${process.arch}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const text = [
    `# Benchmarks${quick ? ' (quick run)' : ''}`,
    '',
    'Written by `npm run bench`' + (quick ? ' --quick' : '') + '. Server and load generator are separate processes on the same machine, over loopback;',
    `each case runs ${seconds} s with the connections given (latency targets of /entities with 1, so p99 is a request's own time, not the queue in front of it).`,
    `"ceiling" is a bare node:http server answering the same bytes from memory with the same connections, measured in the same run, in ${WORKERS} process${WORKERS > 1 ? 'es (node:cluster)' : ''} as the server has HTTP workers.`,
    `The server runs as a user starts it, \`heritage-api --db FILE serve --port N\` with every other setting at its default${logLevelNote} (${WORKERS} HTTP worker process${WORKERS > 1 ? 'es' : ''}), except web.rateLimitMax=0 (the pages' limit per address)`,
    '(docs/configuration.md), its standard output to a file.',
    'A case over many paths asks for each in turn on every connection (ours and the ceiling alike); its bytes are their mean.',
    '',
    `- Machine: ${machine}`,
    `- Data: ${manifest.persons} persons, ${manifest.items} items (\`${dataDir.replace(ROOT, '')}\`)`,
    `- Load: ${loadRates.persons} persons/s, ${loadRates.items} packages/s (targets: ≥ 20,000 persons/s, ≥ 1,000 packages/s)` +
      (reusedStore ? ', measured when the store was made by --generate; this run measured that store again' : ''),
    `- Server peak memory (VmHWM): ${memory.primary} MB` +
      (memory.workers.length > 0 ? ` the primary (which holds the search indexes), ${memory.workers.join(' + ')} MB its ${memory.workers.length} HTTP workers` : '') +
      ' (target ≤ 1,536 MB for the indexes at 1 M each, issue #14)',
    `- Server log (standard output, log level ${process.env.HERITAGE_API_SERVER_LOG_LEVEL ?? 'default'}): ${(loggedBytes / 2 ** 20).toFixed(0)} MB over the run`,
    itemPaging
      ? `- Item cursor paging (rows=1000) through ${itemPaging.hits} hits of '*:*': ${itemPaging.seconds.toFixed(2)} s, ` +
        `${itemPaging.exact ? 'every hit once' : 'NOT EXACT: duplicates'}`
      : '- Item cursor paging: not run',
    freshness ? `- The last of ${freshness.items} items loaded while serving was searchable ${freshness.searchableAfter.toFixed(2)} s after its load ended (target ≤ 1 s)` : '- Freshness: not run',
    paging
      ? `- Cursor paging (rows=1000) through all ${paging.hits} hits of '${paging.query}': ${paging.pages} pages in ${paging.seconds.toFixed(2)} s, ` +
        `${(paging.seconds * 100_000 / Math.max(paging.hits, 1)).toFixed(2)} s per 100,000 hits (target ≤ 10 s); ` +
        `${paging.exact ? 'every hit exactly once' : 'NOT EXACT: duplicates or missing hits'}`
      : '- Cursor paging: not run',
    '',
    table,
    '',
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeFileSync(join(ROOT, 'docs/benchmarks.md'), text);
}

await main();
