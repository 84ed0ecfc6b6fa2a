/**
 * `npm run bench:relevance` (and the first step of `npm run bench`): the judged set
 * (./judgements.json, ./README.md) answered by our engine and by Xapian (./xapianPeer.py)
 * over the same documents with the same field weights, in one run; prints nDCG@10 and
 * recall@100 per engine, overall, per kind of query and per language, and writes the table
 * as the section "relevance" of docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseQuery } from '../../src/query/parse.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { queryFields } from '../../src/search/engine/schema.js';
import type { SearchDocument } from '../../src/search/engine/types.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { replaceSection } from '../report.js';
import { fixtureDocuments } from './fixtureDocuments.js';
import { KINDS, QUERY_LANGUAGES, readJudgements, type JudgedQuery } from './judgements.js';
import { ndcgAt, recallAt } from './metrics.js';

const ROOT = join(import.meta.dirname, '../..');
/** Debian's interpreter, which python3-xapian installs into (a python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';
const DEPTH = 100;

/** Our engine: the item schema's index of the documents, each query as GET /search asks it. */
function ours(docs: readonly SearchDocument[], queries: readonly JudgedQuery[]): Map<string, string[]> {
  const index = new SearchIndex(itemSchema);
  for (const d of docs) index.upsert(d);
  const out = new Map<string, string[]>();
  const fields = queryFields(itemSchema);
  for (const q of queries) {
    const ask = (text: string) =>
      index.search(
        {
          query: parseQuery(text, { fields }),
          sort: { kind: 'relevance' },
          offset: 0,
          rows: DEPTH,
          // as GET /search asks (src/http/searchRequest/itemSearch.ts)
          spellcheck: { minHits: 1, text },
        },
        Date.now() + 60_000,
      );
    let result = ask(q.query);
    // A reader who finds nothing follows "did you mean", as with Xapian (./xapianPeer.py).
    if (result.total === 0 && result.correctedQuery) result = ask(result.correctedQuery);
    out.set(q.id, result.ids);
  }
  return out;
}

function xapian(docs: readonly SearchDocument[], queries: readonly JudgedQuery[]): { ranked: Map<string, string[]>; cpuSeconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-relevance-'));
  try {
    const input = join(dir, 'in.json');
    const output = join(dir, 'out.json');
    const given = {
      fields: itemSchema.text.map((f) => [f.name, f.weight]),
      documents: docs.map((d) => ({ id: d.id, text: d.text, language: d.facets['language_fct'] ?? [] })),
      queries: queries.map((q) => ({ id: q.id, query: q.query, language: q.language })),
    };
    writeFileSync(input, JSON.stringify(given));
    execFileSync(PYTHON, [join(ROOT, 'bench/relevance/xapianPeer.py'), input, output], { stdio: ['ignore', 'inherit', 'inherit'] });
    const out = JSON.parse(readFileSync(output, 'utf8')) as { ranked: Record<string, string[]>; cpuSeconds: number };
    return { ranked: new Map(Object.entries(out.ranked)), cpuSeconds: out.cpuSeconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Scores {
  ndcg: number;
  recall: number;
}

function scoresOf(q: JudgedQuery, ranked: readonly string[]): Scores {
  return { ndcg: ndcgAt(ranked, q.judged, 10), recall: recallAt(ranked, q.judged, DEPTH) };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Runs both engines on the judged set; returns the section's markdown (also printed and written). */
export async function relevanceReport(): Promise<string> {
  const version = xapianVersion();
  const queries = readJudgements();
  const docs = await fixtureDocuments();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const oursRanked = ours(docs, queries);
  const oursCpu = process.cpuUsage(cpu0);
  const oursWall = performance.now() - t0;
  const t1 = performance.now();
  const { ranked: xapianRanked, cpuSeconds: xapianCpu } = xapian(docs, queries);
  const xapianWall = performance.now() - t1;
  const per = queries.map((q) => ({
    q,
    ours: scoresOf(q, oursRanked.get(q.id) ?? []),
    xapian: scoresOf(q, xapianRanked.get(q.id) ?? []),
  }));
  const groups: Array<[string, typeof per]> = [
    [`all (${per.length})`, per],
    ...KINDS.map((k): [string, typeof per] => [k, per.filter((p) => p.q.kind === k)]),
    ...QUERY_LANGUAGES.map((l): [string, typeof per] => [`language ${l}`, per.filter((p) => p.q.language === l)]),
  ];
  const f = (x: number) => x.toFixed(3);
  const lines = [
    '## Relevance on the judged set (bench/relevance/README.md)',
    '',
    `${per.length} judged queries over the ${docs.length} item documents of the fixtures; our engine and Xapian ${version} (python3-xapian) in the same run, the same documents, the same field weights. Means over the queries of each row.`,
    '',
    '| queries | n | ours nDCG@10 | Xapian nDCG@10 | ours recall@100 | Xapian recall@100 |',
    '| --- | --- | --- | --- | --- | --- |',
    ...groups
      .filter(([, g]) => g.length > 0)
      .map(
        ([name, g]) =>
          `| ${name} | ${g.length} | ${f(mean(g.map((p) => p.ours.ndcg)))} | ${f(mean(g.map((p) => p.xapian.ndcg)))} | ${f(mean(g.map((p) => p.ours.recall)))} | ${f(mean(g.map((p) => p.xapian.recall)))} |`,
      ),
    '',
    `Indexing and answering all: ours ${(oursWall / 1000).toFixed(2)} s wall, ${((oursCpu.user + oursCpu.system) / 1e6).toFixed(2)} s CPU (user + system); Xapian ${(xapianWall / 1000).toFixed(2)} s wall with its process's start, ${xapianCpu.toFixed(2)} s CPU; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} (${new Date().toISOString().slice(0, 10)}).`,
  ];
  const behind = per.filter((p) => p.ours.ndcg < p.xapian.ndcg - 1e-9 || p.ours.recall < p.xapian.recall - 1e-9);
  const short = per.filter((p) => (p.q.kind === 'inflection' || p.q.kind === 'transliteration') && p.ours.recall < 1);
  if (behind.length > 0 || short.length > 0) {
    lines.push('', 'Queries where ours is behind Xapian, or below recall 1 on an inflection or transliteration:', '');
    for (const p of new Set([...behind, ...short]))
      lines.push(
        `- \`${p.q.id}\` ${p.q.query}: nDCG@10 ${f(p.ours.ndcg)} vs ${f(p.xapian.ndcg)}, recall@100 ${f(p.ours.recall)} vs ${f(p.xapian.recall)}`,
      );
  }
  const text = lines.join('\n');
  process.stdout.write(`${text}\n`);
  const file = join(ROOT, 'docs/benchmarks.md');
  writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), 'relevance', text));
  return text;
}

function xapianVersion(): string {
  try {
    return execFileSync(PYTHON, ['-c', 'import xapian; print(xapian.version_string())'], { encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    throw new Error(`The relevance benchmark needs Xapian for ${PYTHON}: apt-get install python3-xapian`);
  }
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) await relevanceReport();
