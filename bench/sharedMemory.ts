/**
 * What one copy per process saves (docs/search-engine.md "One copy per process"), not a test:
 * builds N item documents and P persons of bench/engine.ts (the same generator), writes them
 * as a generation of index files, prints what the index is made of (bytes per kind of section,
 * and which of them every thread keeps privately), then starts a fresh process per case that
 * opens the generation in T search threads, as a server's pool does, and prints its resident
 * memory once every thread holds the index and has answered a few searches:
 *   - private: each thread reads the files into its own buffers (before sharing);
 *   - shared: the process reads them once into SharedArrayBuffers and every thread views them;
 *   - replicated: as shared, the threads being replicas of a pool (docs/search-engine.md "One
 *     copy per node"): they apply the same changes in the same order, and write the pools'
 *     chunks of the shared buffers in place instead of copying them.
 *
 * Each case then applies `--changes` new items and persons in every thread (as the change feed
 * does between two generations) and prints the memory again: a shared thread's columns become
 * its own when they grow, until the next generation is shared.
 *
 *   node --import tsx --expose-gc bench/sharedMemory.ts [--items 100000] [--persons 100000] [--threads 1,2,4] [--changes 1000] [--runs 2] [--modes private,shared,replicated]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { itemDoc, personDoc, word } from './engineDocs.js';
import { parseQuery } from '../src/query/parse.js';
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import { queryFields } from '../src/search/engine/schema.js';
import type { SearchRequest } from '../src/search/engine/types.js';
import {
  readIndexes,
  readSharedIndexes,
  sharedSources,
  writeIndexes,
  type IndexManifest,
  type SharedIndexes,
} from '../src/search/indexFiles.js';
import { itemSchema } from '../src/search/schemas/itemSchema.js';
import { personSchema } from '../src/search/schemas/personSchema.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
const HERE = fileURLToPath(import.meta.url);
const STORE = 'bench-store';

/** Resident memory of this process, from /proc (all threads). */
function rss(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(m![1]) * 1024;
}

/** What a kind of section is, for the breakdown. */
function part(name: string): string {
  if (/^text\./.test(name)) return 'text postings';
  if (/^facet\.\d+\.postings\./.test(name)) return 'facet postings';
  if (/^facet\.\d+\.(single|start|ids)$/.test(name)) return 'facet columns (per document)';
  if (/^facet\.\d+\.(values|live)/.test(name)) return 'facet values and counts';
  if (/^(terms|spellings)\./.test(name) || name === 'termDocs') return 'term dictionary, spellings';
  if (/^(ids|sort\.\d+|displays)\./.test(name)) return 'strings (ids, sort keys, displays)';
  if (/^(byId\.|idHash|liveBits)/.test(name)) return 'id table, hashes, live bits';
  if (/Rank|^sort\.\d+$|^number\./.test(name)) return 'ranks and numbers';
  return 'other per-document columns';
}

/**
 * Sections an index changes in place, so each thread copies them (ImageSource.owned), and
 * the dictionaries' strings, which each thread decodes into JS strings.
 */
const OWNED = /(^liveBits$|^termDocs$|\.live$|\.slots$|\.tail$|\.end$|\.level$|\.last$|\.rank$|^spellings\.first)/;
const DECODED = /(^terms|^spellings|\.values)\.strings\./;

function breakdown(manifest: IndexManifest): void {
  for (const kind of ['item', 'person'] as const) {
    const parts = new Map<string, { bytes: number; owned: number; decoded: number }>();
    for (const s of manifest.kinds[kind].sections) {
      const p = parts.get(part(s.name)) ?? { bytes: 0, owned: 0, decoded: 0 };
      p.bytes += s.bytes;
      if (OWNED.test(s.name)) p.owned += s.bytes;
      if (DECODED.test(s.name)) p.decoded += s.bytes;
      parts.set(part(s.name), p);
    }
    const total = manifest.kinds[kind].bytes;
    console.log(
      `${kind}s: ${manifest.kinds[kind].documents} documents, ${mb(total)} on disk (${(total / manifest.kinds[kind].documents).toFixed(0)} bytes each)`,
    );
    for (const [name, p] of [...parts].sort((a, b) => b[1].bytes - a[1].bytes))
      console.log(
        `  ${name.padEnd(38)} ${mb(p.bytes).padStart(10)}   of which copied per thread ${mb(p.owned)}, decoded into JS strings per thread ${mb(p.decoded)}`,
      );
  }
}

const searches = (schema: typeof itemSchema) => {
  const fields = queryFields(schema);
  return ['*:*', 'stadt', 'über', 'sta*'].map((text) => ({
    query: parseQuery(text, { fields }),
    sort: { kind: 'relevance' as const },
    offset: 0,
    rows: 20,
    facets: schema.facets.slice(0, 3).map((field) => ({ field, limit: 10, mincount: 1, sort: 'count' as const })),
  }));
};

/** Rows of bench/engine.ts: rare term, common term + filter + facet, very common term + filter + 2 facets, `*:*` + 4 facets by relevance and by id. */
const facet = (field: string) => ({ field, limit: 10, mincount: 1, sort: 'count' as const });
const term = (text: string) => ({ kind: 'term' as const, field: null, text });
const allFacets = ['type_fct', 'sector_fct', 'place_fct', 'time_fct'].map(facet);
const ROWS: Array<(k: number) => SearchRequest> = [
  (k) => ({ query: term(word(20_000 + k * 500)), sort: { kind: 'relevance' }, offset: 0, rows: 20 }),
  (k) => ({
    query: term(word(5 + (k % 40))),
    filters: { type_fct: ['mediatype_000', 'mediatype_001'] },
    facets: [facet('place_fct')],
    sort: { kind: 'relevance' },
    offset: 0,
    rows: 20,
  }),
  (k) => ({
    query: term(word(k % 5)),
    filters: { sector_fct: ['sec_00', 'sec_01', 'sec_02'] },
    facets: [facet('place_fct'), facet('time_fct')],
    sort: { kind: 'relevance' },
    offset: 0,
    rows: 20,
  }),
  () => ({ query: { kind: 'all' }, facets: allFacets, sort: { kind: 'relevance' }, offset: 0, rows: 20 }),
  () => ({ query: { kind: 'all' }, facets: allFacets, sort: { kind: 'id', descending: false }, offset: 0, rows: 20 }),
];

/** In a thread: the indexes from the files (private) or from the shared image, then a few searches. */
async function open(dir: string, shared: SharedIndexes | undefined, replicated: boolean): Promise<SearchIndex[]> {
  const sources = shared ? sharedSources(shared, replicated) : (await readIndexes(dir, STORE)).sources;
  const out = [SearchIndex.fromImage(itemSchema, sources.item), SearchIndex.fromImage(personSchema, sources.person)];
  for (const r of searches(itemSchema)) out[0]!.search(r, Date.now() + 60_000);
  for (const r of searches(personSchema)) out[1]!.search(r, Date.now() + 60_000);
  return out;
}

if (!isMainThread) {
  const { dir, shared, replicated } = workerData as { dir: string; shared?: SharedIndexes; replicated: boolean };
  const held = await open(dir, shared, replicated);
  // The median wall time of each row over 101 runs, in this thread (the others idle).
  const times = ROWS.map((make) => {
    const t: number[] = [];
    for (let k = 0; k < 101; k++) {
      const r = make(k);
      const at = performance.now();
      held[0]!.search(r, Date.now() + 60_000);
      t.push(performance.now() - at);
    }
    return t.sort((a, b) => a - b)[50]!;
  });
  parentPort!.postMessage(times);
  // Then changes from the feed, as between two generations: new items and persons, and a search each.
  parentPort!.on('message', (m: string) => {
    if (m === 'exit') process.exit(0);
    const { items, persons, changes } = workerData as { items: number; persons: number; changes: number };
    for (let i = 0; i < changes; i++) held[0]!.upsert(itemDoc(items + i));
    for (let i = 0; i < changes; i++) held[1]!.upsert(personDoc(persons + i));
    held[0]!.refreshOrders(0);
    held[1]!.refreshOrders(0);
    for (const make of ROWS) held[0]!.search(make(0), Date.now() + 60_000);
    parentPort!.postMessage('changed');
  });
} else if (argv[0] === '--case') {
  // One case, in a fresh process: --case <dir> <private|shared> <threads>
  const [, dir, mode, threads, items, persons, changes] = argv as [
    string,
    string,
    'private' | 'shared' | 'replicated',
    string,
    string,
    string,
    string,
  ];
  const base = rss();
  const shared = mode !== 'private' ? await readSharedIndexes(dir, STORE, mode === 'replicated') : undefined;
  const image = shared ? { manifest: shared.manifest, buffers: shared.buffers } : undefined;
  const loader = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const workers = Array.from(
    { length: Number(threads) },
    () =>
      new Worker(`import(${loader}).then((m) => { m.register(); return import(${JSON.stringify(HERE)}); })`, {
        eval: true,
        workerData: {
          dir,
          shared: image,
          replicated: mode === 'replicated',
          items: Number(items),
          persons: Number(persons),
          changes: Number(changes),
        },
      }),
  );
  const times = (await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))))) as number[][];
  // Settle: let each thread's young garbage go (the process's own gc; workers idle).
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 2000));
  const held = rss();
  for (const w of workers) w.postMessage('change');
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 2000));
  console.log(JSON.stringify({ mode, threads: Number(threads), rss: held, changed: rss(), base, times: times[0] }));
  for (const w of workers) w.postMessage('exit');
  process.exit(0);
} else {
  const items = Number(option('items', '100000'));
  const persons = Number(option('persons', '100000'));
  const threads = option('threads', '1,2').split(',').map(Number);
  const changes = Number(option('changes', '1000'));
  const runs = Number(option('runs', '2'));
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-shared-bench-'));
  try {
    const started = Date.now();
    const item = new SearchIndex(itemSchema);
    for (let i = 0; i < items; i++) item.upsert(itemDoc(i));
    const person = new SearchIndex(personSchema);
    for (let i = 0; i < persons; i++) person.upsert(personDoc(i));
    item.refreshOrders(0);
    person.refreshOrders(0);
    const manifest = await writeIndexes(dir, STORE, {
      item: { image: item.image(), position: 'item:log:1', documents: item.size },
      person: { image: person.image(), position: 'person:log:1', documents: person.size },
    });
    console.log(`built and written in ${((Date.now() - started) / 1000).toFixed(1)} s: ${items} items, ${persons} persons`);
    breakdown(manifest);
    console.log('\nresident memory of a process holding the indexes in T search threads (VmRSS, after a few searches each):');
    for (const t of threads)
      for (const mode of option('modes', 'private,shared,replicated').split(','))
        for (let run = 0; run < runs; run++) {
          const args = ['--case', dir, mode, String(t), String(items), String(persons), String(changes)];
          const out = execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', HERE, ...args], {
            encoding: 'utf8',
            maxBuffer: 2 ** 26,
          });
          const r = JSON.parse(out.trim().split('\n').pop()!) as { rss: number; changed: number; base: number; times: number[] };
          console.log(
            `  ${mode.padEnd(8)} threads ${t}, run ${run + 1}: ${mb(r.rss)}, ${mb(r.changed)} after ${changes} changes of each kind per thread (process before reading: ${mb(r.base)}); ` +
              `median ms of rare / common+filter+facet / very common+filter+2 facets / *:*+4 facets / by id: ${r.times.map((x) => x.toFixed(2)).join(' / ')}`,
          );
        }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
