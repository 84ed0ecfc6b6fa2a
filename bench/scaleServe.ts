/**
 * The second half of the scale benchmark (bench/scale.ts runs it as a fresh process): starts
 * from the indexes bench/scaleBuild.ts wrote, as a server's search pool does (the newest
 * generation read once into shared memory and every section's checksum checked, then each
 * search thread restores both indexes over it: src/search/indexFiles.ts readSharedIndexes,
 * SearchIndex.fromImage), and drives the item and person search rows of `npm run bench`
 * against the threads at 1 and at 50 connections. Prints JSON lines: `ready`, one `row` per
 * row and connection count, `end`.
 *
 *   node --import tsx bench/scaleServe.ts --dir DIR [--workers N] [--shards N] [--connections 1,50]
 *     [--seconds S] [--min-requests N] [--ready-only]
 *
 * A request is the engine searches its route runs (bench/scaleOps.ts), dispatched at once to a
 * queue the threads take from in turn, as src/search/searchPool.ts does; an engine search is
 * scattered over `--shards` threads (default: `--workers`, as the server's `search.shards`
 * defaults to the cores) when that many are free and nothing waits, as the pool scatters it
 * (SearchIndex.searchPart, merged by mergeParts); its time runs from the dispatch to its last
 * answer. CPU per request is the process's CPU over it (all
 * threads: the searches, the collector, the dispatch), exact at one connection, where
 * nothing else runs; at 50 the mean (the row's CPU over its requests).
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { readSharedIndexes } from '../src/search/indexFiles.js';
import { fingerprintOf } from '../src/search/engine/search.js';
import { mergeParts, type SearchPart } from '../src/search/engine/shards.js';
import { entitySearchCases } from './cases.js';
import { itemCursorWalk, itemSearchCases, type Answer, type ItemTerms, type SearchCase } from './itemSearch.js';
import { misspelling } from './pageCases.js';
import { resident } from './resident.js';
import { opsOf, v1Body, type EngineHits, type PersonTerms, type ScaleAnswer, type ScaleOp, type ScaleSetup } from './scaleOps.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    identity: { type: 'string', default: 'bench-scale' },
    workers: { type: 'string', default: String(availableParallelism()) },
    shards: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    'min-requests': { type: 'string', default: '100' },
    connections: { type: 'string', default: '1,50' },
    'ready-only': { type: 'boolean', default: false },
  },
});
const dir = values.dir!;
const W = Number(values.workers);
const S = Math.min(W, Number(values.shards ?? W));
const seconds = Number(values.seconds);
const minRequests = Number(values['min-requests']);
const emit = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

// --- start: read once, restore in every thread ---
const r0 = performance.now();
const shared = W >= 2 ? await readSharedIndexes(dir, values.identity) : undefined;
const readMs = performance.now() - r0;
const setup: ScaleSetup = {
  dir,
  identity: values.identity,
  ...(shared ? { shared: { manifest: shared.manifest, buffers: shared.buffers } } : {}),
};
const loader = JSON.stringify(import.meta.resolve('tsx/esm/api'));
const workerUrl = JSON.stringify(new URL('./scaleWorker.ts', import.meta.url).href);

interface Slot {
  worker: Worker;
  busy: boolean;
}
interface Job {
  op: ScaleOp;
  resolve: (r: unknown) => void;
  reject: (e: Error) => void;
}
const slots: Slot[] = [];
const queue: Job[] = [];
const pending = new Map<number, Job>();
let nextId = 0;

function pump(): void {
  for (const slot of slots) {
    if (slot.busy || queue.length === 0) continue;
    const job = queue.shift()!;
    const id = nextId++;
    pending.set(id, job);
    slot.busy = true;
    slot.worker.postMessage({ id, op: job.op });
  }
}

function dispatch(op: ScaleOp): Promise<unknown> {
  if (op.op === 'engine' && S >= 2 && queue.length === 0 && slots.filter((s) => !s.busy).length >= S) {
    // as the pool's scatter: one part to each of S free threads, merged exactly
    const parts = Array.from(
      { length: S },
      (_, shard) =>
        new Promise<SearchPart>((resolve, reject) => {
          queue.push({
            op: { op: 'part', kind: op.kind, request: op.request, shard, shards: S },
            resolve: (r) => resolve(r as SearchPart),
            reject,
          });
        }),
    );
    pump();
    return Promise.all(parts).then((done) => {
      const r = mergeParts(op.request, done, fingerprintOf(op.request));
      return { total: r.total, ids: r.ids, facets: r.facets, nextCursor: r.nextCursor, correctedQuery: r.correctedQuery };
    });
  }
  return new Promise((resolve, reject) => {
    queue.push({ op, resolve, reject });
    pump();
  });
}

const restored = await Promise.all(
  Array.from(
    { length: W },
    () =>
      new Promise<{ ms: number; kinds: Record<string, number>; heap: number }>((resolve, reject) => {
        const worker = new Worker(`import(${loader}).then((m) => { m.register(); return import(${workerUrl}); })`, {
          eval: true,
          workerData: setup,
        });
        const slot: Slot = { worker, busy: true };
        worker.on('error', reject);
        worker.on('message', (m: ScaleAnswer) => {
          if (m.type === 'ready') {
            slot.busy = false;
            slots.push(slot);
            resolve({ ms: m.ms, kinds: m.kinds, heap: m.heap });
            return;
          }
          const job = pending.get(m.id)!;
          pending.delete(m.id);
          slot.busy = false;
          if (m.type === 'done') job.resolve(m.result);
          else job.reject(new Error(m.message));
          pump();
        });
      }),
  ),
);
emit({
  event: 'ready',
  sinceStartMs: performance.now(),
  // CPU of the whole process to here (every thread): what the start costs on a machine of its own.
  cpuMs: cpuMs(),
  readMs,
  restoreMs: restored.map((r) => r.ms),
  restoreKindsMs: restored.map((r) => r.kinds),
  workers: W,
  shards: S,
  memory: resident(),
  heaps: restored.map((r) => r.heap),
});
if (values['ready-only']) process.exit(0);

// --- the rows, chosen as npm run bench chooses them, through the engine ---
async function fetchEngine(path: string): Promise<Answer> {
  return { status: 200, body: v1Body(path, (await dispatch(opsOf(path)[0]!)) as EngineHits) };
}

/** The most frequent value of each facet of a `*:*` search of the route. */
async function topValues(path: string): Promise<Record<string, string>> {
  const body = JSON.parse((await fetchEngine(path)).body.toString()) as {
    facets: Array<{ field: string; facetValues: Array<{ value: string }> }>;
  };
  return Object.fromEntries(body.facets.map((f) => [f.field, f.facetValues[0]?.value ?? '']));
}

const top = await topValues('/search?query=*:*&rows=0&facet=type_fct&facet=sector_fct');
const { spell: itemSpell, ...chosen } = (await dispatch({ op: 'itemTerms' })) as Omit<ItemTerms, 'topType' | 'topSector'> & {
  spell: string[];
};
const terms: ItemTerms = { ...chosen, topType: top.type_fct!, topSector: top.sector_fct! };
const walk = await itemCursorWalk(fetchEngine, 100_000);
const people = (await dispatch({ op: 'personTerms' })) as PersonTerms;
const topPlace = (await topValues('/entities?query=*:*&facet=person_place_fct&rows=1')).person_place_fct!;
emit({
  event: 'terms',
  items: terms,
  persons: { ...people, topPlace },
  cursorWalk: { hits: walk.hits, seconds: walk.seconds, exact: walk.exact },
});

const json = { accept: 'application/json' };
const entityRows = entitySearchCases({ ...people, topPlace, personId: 'http://d-nb.info/gnd/100000000' }, json);
// Each entity row once (the HTTP bench has some at 1 and at 50 connections: here every row runs at both).
const seen = new Set<string>();
const cases: SearchCase[] = [
  ...itemSearchCases(terms, walk.deepPages),
  ...(await misspeltRows()),
  ...entityRows
    .filter((c) => !seen.has(c.name) && seen.add(c.name))
    .map((c) => ({ name: c.name, path: c.path, target: c.target ?? '', ...(c.paths ? { paths: c.paths } : {}) })),
];

/**
 * The did-you-mean rows of bench/pageCases.ts spellCases, each on the first of its candidates
 * that has a misspelling corrected back to it (the common term first, for items, as there).
 */
async function misspeltRows(): Promise<SearchCase[]> {
  const rows: SearchCase[] = [];
  const kinds = [
    { route: '/search', label: 'search', candidates: [terms.common, ...itemSpell] },
    { route: '/entities', label: 'entities', candidates: people.spell },
  ];
  for (const { route, label, candidates } of kinds) {
    const ask = (q: string) => `${route}?query=${encodeURIComponent(q)}`;
    for (const term of candidates) {
      const wrong = await misspelling(fetchEngine, term, ask).catch(() => undefined);
      if (wrong === undefined) continue;
      rows.push({ name: `${label} misspelt '${wrong}' → correctedQuery '${term}'`, path: ask(wrong), target: 'p99 ≤ 5 ms' });
      break;
    }
  }
  return rows;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function measure(c: SearchCase, connections: number): Promise<void> {
  const requests = (c.paths ?? [c.path]).map(opsOf);
  // One of each first: the first search of a row after the start is reported apart.
  const f0 = performance.now();
  for (const ops of requests) await Promise.all(ops.map(dispatch));
  const firstMs = performance.now() - f0;
  const walls: number[] = [];
  const cpus: number[] = [];
  let k = 0;
  const stopAt = performance.now() + seconds * 1000;
  const capAt = performance.now() + seconds * 4000;
  const c0 = cpuMs();
  const t0 = performance.now();
  const loop = async () => {
    for (;;) {
      const now = performance.now();
      if (now >= capAt || (now >= stopAt && walls.length >= minRequests)) return;
      const ops = requests[k++ % requests.length]!;
      const rc = cpuMs();
      const rt = performance.now();
      await Promise.all(ops.map(dispatch));
      walls.push(performance.now() - rt);
      cpus.push(cpuMs() - rc);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = performance.now() - t0;
  const cpu = cpuMs() - c0;
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  emit({
    event: 'row',
    name: c.name,
    target: c.target,
    connections,
    requests: walls.length,
    perSecond: walls.length / (elapsed / 1000),
    firstMs,
    p50: percentile(walls, 0.5),
    p99: percentile(walls, 0.99),
    max: walls.at(-1),
    // Per request at one connection; at more only the mean means anything (requests overlap).
    cpuP50: connections === 1 ? percentile(cpus, 0.5) : undefined,
    cpuP99: connections === 1 ? percentile(cpus, 0.99) : undefined,
    cpuMean: cpu / walls.length,
  });
}

const afterReady = resident();
for (const connections of values.connections.split(',').map(Number)) for (const c of cases) await measure(c, connections);
// Each thread's live heap after the rows (one op per thread: every thread is idle now).
const heaps: number[] = [];
for (const slot of [...slots]) {
  slot.busy = true;
  const id = nextId++;
  heaps.push(
    await new Promise<number>((resolve, reject) => {
      pending.set(id, { op: { op: 'heap' }, resolve: (r) => resolve(r as number), reject });
      slot.worker.postMessage({ id, op: { op: 'heap' } });
    }),
  );
}
emit({ event: 'end', memory: { afterReady, afterRows: resident() }, heaps });
process.exit(0);
