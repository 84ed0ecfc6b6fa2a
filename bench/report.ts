/**
 * The bench's report: printed, and written into docs/benchmarks.md as the section of its
 * backend, between the markers `<!-- bench:BACKEND -->` and `<!-- /bench:BACKEND -->`, so that a
 * run on one backend leaves the other's section and the notes around them as they are.
 */
import type { OaiHarvestResult } from './oaiHarvest.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, type } from 'node:os';
import { join } from 'node:path';
import type { Manifest } from './cases.js';
import { ROW_HEADER } from './cases.js';
import { dataDir, quick, ROOT, seconds, WORKERS } from './options.js';
import type { NodeMemory } from './server.js';
import type { BenchStore, LoadRates, StoreSize } from './store.js';

export interface Report {
  store: BenchStore;
  manifest: Manifest;
  loadRates: LoadRates;
  size: StoreSize;
  memory: NodeMemory;
  loggedBytes: number;
  readySeconds: number;
  /** Seconds to ready from the search indexes on disk (bench/restart.ts). */
  restart?: { clean: number; killed: number };
  rows: string[][];
  itemPaging?: { hits: number; seconds: number; exact: boolean };
  freshness?: { searchableAfter: number; items: number };
  paging?: { query: string; hits: number; pages: number; seconds: number; exact: boolean };
  oaiHarvest?: OaiHarvestResult;
  /** The 1-minute load average (os.loadavg) when the page rows started and ended. */
  pageLoad?: { before: number; after: number } | undefined;
}

const TITLES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** Said in the heading: a log level set in the environment is not the default. */
const logLevelNote = process.env.HERITAGE_API_SERVER_LOG_LEVEL
  ? ` but HERITAGE_API_SERVER_LOG_LEVEL=${process.env.HERITAGE_API_SERVER_LOG_LEVEL}`
  : '';

function sizeLines(r: Report): string[] {
  const { size } = r;
  const lines = [
    `- Store on disk after the load: ${mb(size.total)} MB for ${size.items} items and ${size.persons} persons` +
      (r.store.backend === 'postgres' ? ' (pg_database_size)' : ' (the file with its WAL)'),
  ];
  if (size.tables.length > 0) {
    // Per record: the tables of items (bodies, references, links, change log) by item, those of persons by person.
    const personTables = new Set(['persons', 'search_person_changes']);
    const items = size.tables.filter((t) => !personTables.has(t.name)).reduce((n, t) => n + t.bytes, 0);
    const persons = size.tables.filter((t) => personTables.has(t.name)).reduce((n, t) => n + t.bytes, 0);
    lines.push(
      `- Per package ${kb(items / Math.max(size.items, 1))} KB, per person ${kb(persons / Math.max(size.persons, 1))} KB, tables with their indexes and TOAST (pg_total_relation_size): ` +
        size.tables
          .filter((t) => t.bytes >= 1 << 20)
          .map((t) => `${t.name} ${mb(t.bytes)} MB`)
          .join(', '),
    );
  }
  return lines;
}

export function section(r: Report): string {
  const { store, manifest, loadRates, memory } = r;
  const table = [ROW_HEADER, ROW_HEADER.map(() => '---'), ...r.rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
  const cpu = cpus();
  const machine = `${type()} ${process.arch}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  return [
    `## ${TITLES[store.backend]}${quick ? ' (quick run)' : ''}`,
    '',
    `Written by \`npm run bench${store.backend === 'postgres' ? ' -- --store postgres' : ''}${quick ? ' --quick' : ''}\`. Server and load generator are separate processes on the same machine, over loopback;`,
    `each case runs ${seconds} s with the connections given (latency targets of /entities with 1, so p99 is a request's own time, not the queue in front of it).`,
    `"ceiling" is a bare node:http server answering the same bytes from memory with the same connections, measured in the same run, in ${WORKERS} process${WORKERS > 1 ? 'es (node:cluster)' : ''} as the server has HTTP workers.`,
    ...(WORKERS > 1
      ? [
          'For the search rows (/search, /entities, the select, suggest) the ceiling relays each answer through the hops a search takes in the server (the HTTP process asks the primary over IPC, the primary a thread, and back; bench/ceiling.ts): its p99 is the floor of such a row on this machine, whatever the search costs.',
        ]
      : []),
    `The server runs as a user starts it, ${store.given} with every other setting at its default${logLevelNote} (${WORKERS} HTTP worker process${WORKERS > 1 ? 'es' : ''}), except web.rateLimitMax=0 and oai.rateLimitMax=0 (the pages' and the OAI-PMH provider's limits per address)`,
    '(docs/configuration.md), its standard output to a file.',
    'A case over many paths asks for each in turn on every connection (ours and the ceiling alike); its bytes are their mean.',
    ...(store.where ? [store.where] : []),
    '',
    `- Machine: ${machine}`,
    `- Data: ${manifest.persons} persons, ${manifest.items} items (${dataDir.startsWith(ROOT) ? `\`${dataDir.replace(ROOT, '')}\`` : 'a --data directory outside the repository'})`,
    `- Load: ${loadRates.persons} persons/s, ${loadRates.items} packages/s (targets: ≥ 20,000 persons/s, ≥ 1,000 packages/s)` +
      (loadRates.reused ? ', measured when the store was made by --generate; this run measured that store again' : ''),
    ...sizeLines(r),
    `- Ready (indexes built from the store) ${r.readySeconds.toFixed(0)} s after the server listened`,
    r.restart
      ? `- Ready from the search indexes on disk ${r.restart.clean.toFixed(2)} s after a start that followed a clean stop, ${r.restart.killed.toFixed(2)} s after one that followed a SIGKILL (target ${manifest.items >= 1_000_000 ? '≤ 10 s at 1.1 M items + 1 M persons' : '≤ 3 s at 300,000 persons + 30,000 items'})`
      : '- Ready from the search indexes on disk: not run',
    `- Server peak memory (VmHWM): ${memory.primary} MB` +
      (memory.workers.length > 0
        ? ` the primary (which holds the search indexes), ${memory.workers.join(' + ')} MB its ${memory.workers.length} HTTP workers`
        : '') +
      ' (target ≤ 1,536 MB for the indexes at 1 M each)',
    `- Server log (standard output, log level ${process.env.HERITAGE_API_SERVER_LOG_LEVEL ?? 'default'}): ${mb(r.loggedBytes)} MB over the run`,
    r.itemPaging
      ? `- Item cursor paging (rows=1000) through ${r.itemPaging.hits} hits of '*:*': ${r.itemPaging.seconds.toFixed(2)} s, ` +
        `${r.itemPaging.exact ? 'every hit once' : 'NOT EXACT: duplicates'}`
      : '- Item cursor paging: not run',
    r.freshness
      ? `- The last of ${r.freshness.items} items loaded while serving was searchable ${r.freshness.searchableAfter.toFixed(2)} s after its load ended (target ≤ 1 s)`
      : '- Freshness: not run',
    r.paging
      ? `- Cursor paging (rows=1000) through all ${r.paging.hits} hits of '${r.paging.query}': ${r.paging.pages} pages in ${r.paging.seconds.toFixed(2)} s, ` +
        `${((r.paging.seconds * 100_000) / Math.max(r.paging.hits, 1)).toFixed(2)} s per 100,000 hits (target ≤ 10 s); ` +
        `${r.paging.exact ? 'every hit exactly once' : 'NOT EXACT: duplicates or missing hits'}`
      : '- Cursor paging: not run',
    r.oaiHarvest
      ? `- OAI-PMH ListRecords in edm, the whole store (${r.oaiHarvest.pages} pages of oai.pageSize, one request at a time): ${r.oaiHarvest.records} records in ` +
        `${r.oaiHarvest.seconds.toFixed(1)} s, ${(r.oaiHarvest.records / r.oaiHarvest.seconds).toFixed(0)} records/s (target ≥ 5,000/s); ` +
        `${r.oaiHarvest.distinct === r.oaiHarvest.records && r.oaiHarvest.records === r.oaiHarvest.expected ? 'every item exactly once' : `NOT EXACT: ${r.oaiHarvest.distinct} distinct of ${r.oaiHarvest.expected} items`}; ` +
        `server resident memory ${r.oaiHarvest.rssBeforeMb} MB before, ${r.oaiHarvest.rssAfterMb} MB after`
      : '- OAI-PMH harvest: not run',
    r.pageLoad
      ? `- Load average (1 min) during the page rows: ${r.pageLoad.before.toFixed(1)} at their start, ${r.pageLoad.after.toFixed(1)} at their end`
      : '- Load average during the page rows: not measured',
    '',
    table,
    '',
  ].join('\n');
}

/** `doc` with the section of `backend` replaced by `text`, or added at the end if it has none. */
export function replaceSection(doc: string, backend: string, text: string): string {
  const open = `<!-- bench:${backend} -->`;
  const close = `<!-- /bench:${backend} -->`;
  // Markers on lines of their own: the file's text may name them.
  const lines = doc.split('\n');
  const at = (marker: string) => {
    const line = lines.indexOf(marker);
    return line < 0 ? -1 : lines.slice(0, line).join('\n').length + (line > 0 ? 1 : 0);
  };
  const start = at(open);
  const end = at(close);
  const marked = `${open}\n${text.trimEnd()}\n${close}`;
  return start >= 0 && end > start ? doc.slice(0, start) + marked + doc.slice(end + close.length) : `${doc.trimEnd()}\n\n${marked}\n`;
}

/** Prints the report and writes it as the backend's section of docs/benchmarks.md. */
export function writeReport(r: Report): void {
  const text = section(r);
  process.stdout.write(`${text}\n`);
  const file = join(ROOT, 'docs/benchmarks.md');
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  writeFileSync(file, replaceSection(doc, r.store.backend, text));
}
