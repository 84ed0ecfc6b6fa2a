/**
 * `npm run bench:scale [-- --items N --persons N]`: the search engine at national scale
 * (docs/benchmarks.md "Scale"; docs/deployment.md "Sizing"), not a test. Three processes in turn:
 *
 * 1. bench/scaleBuild.ts builds the item and person indexes of N synthetic documents
 *    (bench/engineDocs.ts: the engine bench's Zipf vocabulary) and writes them to disk as the
 *    server does (docs/search-engine.md "Persistence");
 * 2. bench/scaleServe.ts, a fresh process, starts from those files with the page cache of
 *    them dropped (a cold start), as a server's search pool does (docs/search-engine.md "One
 *    copy per process"), and drives the item and person search rows of `npm run bench` on the
 *    engine at 1 and at 50 connections;
 * 3. the same start once more with the files in the page cache (a warm start), timed to ready.
 *
 * Prints build rate, bytes on disk per item, resident memory per item after the start and
 * after the rows, the time to ready, and p50/p99 wall and CPU per row, as a Markdown table,
 * and writes the measures as JSON beside the index (DIR/scale-<items>.json).
 *
 * Options: `--items` (10,000,000), `--persons` (1,000,000), `--workers` (search threads; one
 * per core), `--shards` (threads one search is scattered over when they are free; default
 * `--workers`, as the server's `search.shards`), `--connections` (`1,50`), `--seconds` per row and connection count (5; at least `--min-requests`, 100, and
 * at most four times the seconds), `--dir` (data/bench-scale), `--keep` (keep the index files),
 * `--reuse` (start from the index a run with `--keep` left, without building it again).
 *
 * The machine is guarded: a step starts only with 6 GiB available (MemAvailable), and a
 * step is stopped when less than 1.5 GiB is left, so the bench cannot exhaust a shared machine.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './options.js';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000000' },
    persons: { type: 'string', default: '1000000' },
    workers: { type: 'string' },
    shards: { type: 'string' },
    connections: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    'min-requests': { type: 'string', default: '100' },
    dir: { type: 'string', default: join(ROOT, 'data/bench-scale') },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});
const items = Number(values.items);
const persons = Number(values.persons);
const base = values.dir;
const dir = join(base, `index-${items}`);
const GiB = 2 ** 30;
const log = (line: string) => process.stderr.write(`${line}\n`);

function available(): number {
  const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

/** Runs a step as a child process, guarded; resolves its JSON lines (stdout) and when each came. */
function step(script: string, args: string[], nodeFlags: string[]): Promise<Array<{ at: number; line: Record<string, unknown> }>> {
  if (available() < 6 * GiB)
    throw new Error(`only ${(available() / GiB).toFixed(1)} GiB available: the scale bench needs 6 GiB free to start a step`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeFlags, join(ROOT, 'bench', script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<{ at: number; line: Record<string, unknown> }> = [];
  let rest = '';
  child.stdout.on('data', (d: Buffer) => {
    rest += d.toString();
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      const text = rest.slice(0, i);
      rest = rest.slice(i + 1);
      const line = JSON.parse(text) as Record<string, unknown>;
      lines.push({ at: performance.now() - started, line });
      if (line.event === 'row') log(`  ${String(line.name)} @${String(line.connections)}: p50 ${n(line.p50)} / p99 ${n(line.p99)} ms`);
    }
  });
  let stopped = '';
  const guard = setInterval(() => {
    if (available() < 1.5 * GiB) {
      stopped = `stopped: only ${(available() / GiB).toFixed(1)} GiB left on the machine`;
      child.kill('SIGKILL');
    }
  }, 500);
  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) => {
      clearInterval(guard);
      if (code === 0) resolve(lines);
      else reject(new Error(`${script} ${stopped || `exited with ${code ?? signal}`}`));
    });
  });
}

const n = (v: unknown, digits = 1) => (typeof v === 'number' ? v.toFixed(digits) : '–');
const bytesIn = (d: string) => readdirSync(d).reduce((s, f) => s + statSync(join(d, f)).size, 0);

mkdirSync(base, { recursive: true });
const load0 = loadavg();
const builtFile = join(base, `build-${items}.json`);
let built: Record<string, Record<string, number>>;
if (values.reuse && existsSync(builtFile) && existsSync(dir)) {
  log(`reusing the index in ${dir} (built as ${builtFile} says)`);
  built = JSON.parse(readFileSync(builtFile, 'utf8')) as typeof built;
} else {
  log(`building ${items.toLocaleString('en')} items + ${persons.toLocaleString('en')} persons into ${dir} ...`);
  // The JavaScript heap holds the dictionaries and a batch of documents; the index's arrays lie outside it.
  const args = ['--items', String(items), '--persons', String(persons), '--dir', dir];
  built = (await step('scaleBuild.ts', args, ['--max-old-space-size=8192']))[0]!.line as typeof built;
  writeFileSync(builtFile, JSON.stringify(built));
}
const diskBytes = bytesIn(dir);

// Cold: the files' pages dropped from the page cache (GNU dd: nocache with count=0 drops a whole file's).
for (const f of readdirSync(dir)) execFileSync('dd', [`if=${join(dir, f)}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' });
log('starting from the files (cold page cache), then the rows ...');
const serveArgs = ['--dir', dir, '--seconds', values.seconds, '--min-requests', values['min-requests']];
if (values.workers) serveArgs.push('--workers', values.workers);
if (values.shards) serveArgs.push('--shards', values.shards);
if (values.connections) serveArgs.push('--connections', values.connections);
// --expose-gc: each thread's live heap is measured after a full collection (bench/scaleWorker.ts).
const served = await step('scaleServe.ts', serveArgs, ['--expose-gc']);
const ready = served.find((l) => l.line.event === 'ready')!;
const rows = served.filter((l) => l.line.event === 'row').map((l) => l.line);
const terms = served.find((l) => l.line.event === 'terms')!.line;
const end = served.find((l) => l.line.event === 'end')!.line as {
  memory: { afterReady: { rss: number }; afterRows: { rss: number; hwm: number } };
  heaps: number[];
};
const readyHeaps = (ready.line as { heaps: number[] }).heaps;
log('starting again (warm page cache) ...');
const warm = (await step('scaleServe.ts', [...serveArgs, '--ready-only'], [])).find((l) => l.line.event === 'ready')!;
const load1 = loadavg();
if (!values.keep) rmSync(dir, { recursive: true, force: true });

const b = built as unknown as {
  item: { documents: number; wallMs: number; cpuMs: number; makeWallMs: number; bytes: number; terms: number };
  person: { documents: number; wallMs: number; cpuMs: number; makeWallMs: number; bytes: number; terms: number };
  write: { wallMs: number; cpuMs: number };
  memory: { afterBuild: { rss: number }; peak: number };
};
const rate = (docs: number, ms: number) => Math.round(docs / (ms / 1000)).toLocaleString('en');
const readyOf = (r: { at: number; line: Record<string, unknown> }) => {
  const l = r.line as { sinceStartMs: number; cpuMs: number; readMs: number; restoreMs: number[]; workers: number };
  return `${(r.at / 1000).toFixed(1)} s from the spawn, ${(l.cpuMs / 1000).toFixed(1)} s CPU (in the process: ${(l.sinceStartMs / 1000).toFixed(1)} s; reading and checking the files ${(l.readMs / 1000).toFixed(1)} s, restoring in each of ${l.workers} threads ${l.restoreMs.map((m) => (m / 1000).toFixed(1)).join(' / ')} s)`;
};
const perItem = (bytes: number) => `${(bytes / GiB).toFixed(2)} GiB, ${(bytes / items / 1024).toFixed(3)} KiB per item`;
const table: Array<[string, string]> = [
  [
    'items build',
    `${(b.item.wallMs / 1000).toFixed(1)} s wall, ${(b.item.cpuMs / 1000).toFixed(1)} s CPU: ${rate(items, b.item.wallMs)} items/s wall, ${rate(items, b.item.cpuMs)}/s CPU (making the documents: ${(b.item.makeWallMs / 1000).toFixed(1)} s apart)`,
  ],
  [
    'persons build',
    `${(b.person.wallMs / 1000).toFixed(1)} s wall, ${(b.person.cpuMs / 1000).toFixed(1)} s CPU: ${rate(persons, b.person.wallMs)} persons/s wall, ${rate(persons, b.person.cpuMs)}/s CPU`,
  ],
  [
    'build process, resident after the build / peak',
    `${(b.memory.afterBuild.rss / GiB).toFixed(2)} / ${(b.memory.peak / GiB).toFixed(2)} GiB`,
  ],
  ['write to disk (both indexes)', `${(b.write.wallMs / 1000).toFixed(1)} s wall, ${(b.write.cpuMs / 1000).toFixed(1)} s CPU`],
  [
    'on disk',
    `${perItem(diskBytes)} (items ${(b.item.bytes / items).toFixed(0)} bytes per item, persons ${(b.person.bytes / Math.max(1, persons)).toFixed(0)} bytes per person; terms: ${b.item.terms.toLocaleString('en')} items, ${b.person.terms.toLocaleString('en')} persons)`,
  ],
  ['ready, cold page cache', readyOf(ready)],
  ['ready, warm page cache', readyOf(warm)],
  ['resident after the start', perItem(end.memory.afterReady.rss)],
  ['resident after the rows (peak)', `${perItem(end.memory.afterRows.rss)} (peak ${(end.memory.afterRows.hwm / GiB).toFixed(2)} GiB)`],
  [
    'live JS heap per search thread after the start / after the rows',
    `${readyHeaps.map((h) => (h / 2 ** 20).toFixed(0)).join(' / ')} MiB / ${end.heaps.map((h) => (h / 2 ** 20).toFixed(0)).join(' / ')} MiB`,
  ],
  ['load average (1 min) before / after', `${load0[0]!.toFixed(1)} / ${load1[0]!.toFixed(1)}`],
];
const out: string[] = [];
out.push(`| Measure (${items.toLocaleString('en')} items + ${persons.toLocaleString('en')} persons) | Result |`, '| --- | --- |');
for (const [k, v] of table) out.push(`| ${k} | ${v} |`);
out.push(
  '',
  '| Row (engine, no HTTP) | conns | req/s | p50 ms | p99 ms | CPU p50 ms | CPU p99 ms | CPU mean ms | first ms | target |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
);
for (const r of rows) {
  out.push(
    `| ${String(r.name)} | ${String(r.connections)} | ${n(r.perSecond)} | ${n(r.p50)} | ${n(r.p99)} | ${n(r.cpuP50)} | ${n(r.cpuP99)} | ${n(r.cpuMean)} | ${n(r.firstMs)} | ${String(r.target)} |`,
  );
}
console.log(out.join('\n'));
writeFileSync(
  join(base, `scale-${items}.json`),
  JSON.stringify({ items, persons, built, diskBytes, ready, warm, terms, rows, end, loadavg: [load0, load1] }, null, 1),
);
