/**
 * Phrases beside two real engines (docs/benchmarks.md "Phrases beside Xapian and FTS5"), not a
 * test: the synthetic items of the engine benchmark (bench/engineDocs.ts) in our engine, in
 * Xapian (Debian's python3-xapian, bench/xapianPhrase.py) and in SQLite FTS5 (better-sqlite3),
 * the text folded as our engine folds it, then the same two-word phrases of common words
 * (the row of bench/engine.ts) and sloppy phrases in each, one query at a time. Prints CPU
 * per query (p50 / p99; the machine is shared, so CPU is what compares) beside wall time,
 * the mean hits and the load average.
 *
 *   node --import tsx --expose-gc --max-old-space-size=4096 bench/phrasePeers.ts [N=200000] [--no-peers] [--no-fts5] [--positions-mib=N]
 *
 * `--no-fts5` leaves SQLite FTS5 out (at 1,000,000 items its build is most of the run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import { fold } from '../src/search/engine/fold.js';
import { itemSchema } from '../src/search/schemas/itemSchema.js';
import type { QueryNode } from '../src/query/ast.js';
import { itemDoc, word } from './engineDocs.js';

const N = Number(process.argv.find((a, i) => i >= 2 && /^\d+$/.test(a)) ?? 200_000);
const PEERS = !process.argv.includes('--no-peers');
const FTS5 = !process.argv.includes('--no-fts5');
/** `--positions-mib=N`: the positions cache's budget (SearchIndexOptions.positionsCache; default 96 MiB). */
const POSITIONS_MIB = process.argv.find((a) => a.startsWith('--positions-mib='))?.slice('--positions-mib='.length);
const RUNS = 70;

interface Query {
  words: string[];
  slop: number;
}
const queries: Array<{ name: string; make: (k: number) => Query }> = [
  { name: 'two-word phrase of common words', make: (k) => ({ words: [word(k % 10), word(10 + (k % 7))], slop: 0 }) },
  { name: 'two-word phrase, a common and a rarer word', make: (k) => ({ words: [word(k % 10), word(200 + k * 13)], slop: 0 }) },
  { name: 'two common words within 3 positions (slop 3)', make: (k) => ({ words: [word(k % 10), word(10 + (k % 7))], slop: 3 }) },
];

interface Row {
  engine: string;
  name: string;
  cpu: number[];
  wall: number[];
  hits: number;
}
const results: Row[] = [];
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const loads: number[][] = [];
const noteLoad = () => loads.push(loadavg());

function cpuMs(c: NodeJS.CpuUsage): number {
  return (c.user + c.system) / 1000;
}

// ---- our engine ----
noteLoad();
const ix = new SearchIndex(itemSchema, POSITIONS_MIB === undefined ? {} : { positionsCache: { bytes: Number(POSITIONS_MIB) * 2 ** 20 } });
// the documents are made again for the peers (itemDoc is a pure function of its number), not
// kept: at 1,000,000 items a heap holding them all made each garbage collection of the query
// rows walk a gigabyte the server would not hold, and the CPU per query was mostly that
let buildCpu = 0;
for (let i = 0; i < N; i++) {
  const d = itemDoc(i);
  const c0 = process.cpuUsage();
  ix.upsert(d);
  buildCpu += cpuMs(process.cpuUsage(c0));
}
console.error(`ours: built ${N} in ${(buildCpu / 1000).toFixed(1)} s CPU`);
(globalThis as { gc?: () => void }).gc?.();
console.error(`ours: heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`);
const ourQuery = (q: Query): QueryNode<string> => ({
  kind: 'phrase',
  field: null,
  text: q.words.join(' '),
  ...(q.slop > 0 ? { slop: q.slop } : {}),
});
for (const { name, make } of queries) {
  for (let k = 0; k < 10; k++)
    ix.search({ query: ourQuery(make(k)), sort: { kind: 'relevance' }, offset: 0, rows: 20 }, Date.now() + 60_000);
  const row: Row = { engine: 'ours', name, cpu: [], wall: [], hits: 0 };
  for (let k = 0; k < RUNS; k++) {
    const req = { query: ourQuery(make(k)), sort: { kind: 'relevance' as const }, offset: 0, rows: 20 };
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = ix.search(req, Date.now() + 60_000);
    row.wall.push(performance.now() - t0);
    row.cpu.push(cpuMs(process.cpuUsage(c0)));
    row.hits += res.total;
  }
  results.push(row);
  console.error(
    `ours: positions kept ${(ix.positionsCache.used / 2 ** 20).toFixed(1)} MiB in ${(ix.positionsCache.size / 2 ** 20).toFixed(1)} MiB`,
  );
  console.error(`${row.engine}: ${name}: CPU p50 ${pct(row.cpu, 0.5).toFixed(2)} / p99 ${pct(row.cpu, 0.99).toFixed(2)} ms`);
  noteLoad();
}

if (PEERS) {
  const dir = mkdtempSync(join(tmpdir(), 'phrase-peers-'));
  try {
    // the text of each document as our engine sees it: folded, field by field, value by value
    const fields = itemSchema.text;
    const docsPath = join(dir, 'docs.jsonl');
    const out = createWriteStream(docsPath);
    for (let i = 0; i < N; i++) {
      const d = itemDoc(i);
      const line = JSON.stringify(fields.map((f) => [f.weight, (d.text[f.name] ?? []).map(fold)]));
      if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
    const all: Query[] = [];
    for (const { make } of queries) for (let k = 0; k < RUNS; k++) all.push(make(k));
    const queriesPath = join(dir, 'queries.jsonl');
    writeFileSync(queriesPath, all.map((q) => JSON.stringify({ words: q.words.map(fold), slop: q.slop })).join('\n') + '\n');

    // ---- Xapian ----
    const x = spawnSync('/usr/bin/python3', [join(import.meta.dirname, 'xapianPhrase.py'), docsPath, queriesPath, join(dir, 'xapian')], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    if (x.status !== 0) throw new Error(`xapianPhrase.py failed: ${x.stderr}`);
    const xr = JSON.parse(x.stdout) as { build: { cpu: number }; queries: Array<{ exact: boolean; cpu: number; hits: number }> };
    console.error(`xapian: built in ${xr.build.cpu.toFixed(1)} s CPU`);
    for (const exact of [true, false]) {
      const mine = xr.queries.filter((q) => q.exact === exact);
      queries.forEach(({ name }, i) => {
        const part = mine.slice(i * RUNS, (i + 1) * RUNS);
        results.push({
          engine: exact ? 'Xapian (exact total)' : 'Xapian (estimated total)',
          name,
          cpu: part.map((q) => q.cpu),
          wall: part.map((q) => q.cpu),
          hits: part.reduce((s, q) => s + q.hits, 0),
        });
      });
    }
    noteLoad();

    // ---- SQLite FTS5 ----
    if (FTS5) fts5(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fts5(dir: string): void {
  const fields = itemSchema.text;
  {
    const db = new Database(join(dir, 'fts.db'));
    db.pragma('journal_mode = off');
    const cols = fields.map((f) => f.name);
    db.exec(`CREATE VIRTUAL TABLE docs USING fts5(${cols.join(', ')}, tokenize = 'unicode61 remove_diacritics 2')`);
    const ins = db.prepare(`INSERT INTO docs(rowid, ${cols.join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`);
    const c0 = process.cpuUsage();
    db.transaction(() => {
      for (let i = 0; i < N; i++) {
        const d = itemDoc(i);
        ins.run(i + 1, ...fields.map((f) => (d.text[f.name] ?? []).map(fold).join(' \u2029 ')));
      }
    })();
    console.error(`fts5: built in ${(cpuMs(process.cpuUsage(c0)) / 1000).toFixed(1)} s CPU`);
    const weights = fields.map((f) => f.weight).join(', ');
    // the total and the top 20 by bm25 in one statement, as our engine answers both
    const sel = db.prepare(
      `WITH m AS MATERIALIZED (SELECT rowid, bm25(docs, ${weights}) AS r FROM docs WHERE docs MATCH ?) ` +
        'SELECT rowid, (SELECT count(*) FROM m) AS total FROM m ORDER BY r LIMIT 20',
    );
    const match = (q: Query) =>
      q.slop === 0 ? `"${q.words.map(fold).join(' ')}"` : `NEAR(${q.words.map((w) => `"${fold(w)}"`).join(' ')}, ${q.slop})`;
    for (const { name, make } of queries) {
      for (let k = 0; k < 10; k++) sel.all(match(make(k)));
      const row: Row = { engine: 'SQLite FTS5', name, cpu: [], wall: [], hits: 0 };
      for (let k = 0; k < RUNS; k++) {
        const c1 = process.cpuUsage();
        const t0 = performance.now();
        const rs = sel.all(match(make(k))) as Array<{ total: number }>;
        row.wall.push(performance.now() - t0);
        row.cpu.push(cpuMs(process.cpuUsage(c1)));
        row.hits += rs[0]?.total ?? 0;
      }
      results.push(row);
    }
    db.close();
    noteLoad();
  }
}

const f = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
console.log(`\n${N.toLocaleString('en')} items; load average (1 min) during the run: ${loads.map((l) => l[0]!.toFixed(1)).join(', ')}\n`);
console.log('| query | engine | CPU p50 / p99 ms | wall p50 / p99 ms | mean hits |\n| --- | --- | --- | --- | --- |');
for (const { name } of queries) {
  for (const r of results.filter((x) => x.name === name)) {
    const wall = r.engine.startsWith('Xapian') ? '(CPU)' : `${f(pct(r.wall, 0.5))} / ${f(pct(r.wall, 0.99))}`;
    console.log(
      `| ${name} | ${r.engine} | ${f(pct(r.cpu, 0.5))} / ${f(pct(r.cpu, 0.99))} | ${wall} | ${Math.round(r.hits / r.cpu.length).toLocaleString('en')} |`,
    );
  }
}
