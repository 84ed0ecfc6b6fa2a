/**
 * `heritage-api export items|persons [--query Q] [--fq FIELD:VALUE ...] [--out FILE] [--resume]`:
 * every hit of a search as JSON Lines (docs/export.md), from the search
 * engine's index of the store the config names, built here in-process (IndexHost) and paged
 * by id (src/search/exportHits.ts), so memory stays constant and a stopped export resumes
 * after the last id it wrote.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import type { Config } from '../../config.js';
import { terminalProgress, silentProgress } from '../../ingest/progress.js';
import { QuerySyntaxError } from '../../query/errors.js';
import { parseQuery } from '../../query/parse.js';
import { SearchDeadlineError, SearchRequestError } from '../../search/engine/errors.js';
import { queryFields } from '../../search/engine/schema.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { personSchema } from '../../search/schemas/personSchema.js';
import { exportHits, type ExportProgress, type ExportRequest } from '../../search/exportHits.js';
import { IndexHost } from '../../search/indexHost.js';
import type { Store } from '../../store/Store.js';
import type { SearchKind } from '../../domain/searchFeed.js';
import { EXIT, type CliIo } from '../io.js';
import { shellWord } from './items.js';

export interface ExportFlags {
  query?: string;
  fq?: string[];
  out?: string;
  resume?: boolean;
}

const KINDS: Record<string, SearchKind> = { items: 'item', persons: 'person' };
const SCHEMAS = { item: itemSchema, person: personSchema } as const;
/** Time for one page of hits: generous, an export is not a request that holds a server. */
const PAGE_SECONDS = 60;
/** Bytes of lines gathered before a write to --out. */
const WRITE_BYTES = 1 << 18;

/** A problem with the arguments or the --out file: said in one line, exit code 1. */
class ExportUsage extends Error {}

/** `--fq FIELD:VALUE` to filters: values of one facet OR-ed, facets AND-ed (as v1 /search). */
export function parseFilters(fqs: readonly string[], facets: readonly string[]): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const fq of fqs) {
    const colon = fq.indexOf(':');
    const field = colon < 0 ? '' : fq.slice(0, colon).trim();
    let value = colon < 0 ? '' : fq.slice(colon + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (field === '' || value === '') throw new ExportUsage(`--fq takes FIELD:VALUE, e.g. --fq 'place_fct:"Berlin"'; got '${fq}'.`);
    if (!facets.includes(field)) throw new ExportUsage(`--fq: '${field}' is not a facet; the facets are ${facets.join(', ')}.`);
    (filters[field] ??= []).push(value);
  }
  return filters;
}

/**
 * Where a resumed export goes on: the id of the last complete line of `path`, after
 * cutting a half-written last line off the file. Reads backwards from the end, so a large
 * file costs what its last lines cost. undefined: the file holds no complete line.
 */
export function resumePoint(path: string): string | undefined {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    // the end of the last complete line: the last "\n"
    const end = lastNewline(fd, size);
    if (end < 0) {
      if (size > 0) ftruncateSync(fd, 0);
      return undefined;
    }
    if (end + 1 < size) ftruncateSync(fd, end + 1);
    const start = lastNewline(fd, end) + 1;
    const line = readRange(fd, start, end).trim();
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    if (typeof id !== 'string' || id === '') {
      throw new ExportUsage(
        `Cannot resume: the last line of ${path} is not an exported hit with an "id" (${line.slice(0, 80)}). Export to a new file instead.`,
      );
    }
    return id;
  } finally {
    closeSync(fd);
  }
}

/** Offset of the last "\n" before `before`, or -1. */
function lastNewline(fd: number, before: number): number {
  const chunk = Buffer.alloc(1 << 16);
  for (let end = before; end > 0;) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, n).lastIndexOf(10);
    if (at >= 0) return start + at;
    end = start;
  }
  return -1;
}

function readRange(fd: number, start: number, end: number): string {
  const buffer = Buffer.alloc(end - start);
  readSync(fd, buffer, 0, buffer.length, start);
  return buffer.toString('utf8');
}

export async function exportCommand(
  config: Config,
  store: Store,
  what: string,
  flags: ExportFlags,
  io: CliIo,
  options: { signal?: AbortSignal | undefined; cli: string },
): Promise<number> {
  const kind = KINDS[what];
  let afterId: string | undefined;
  let request: ExportRequest;
  try {
    if (kind === undefined) throw new ExportUsage(`export takes items or persons, not '${what}'.`);
    const schema = SCHEMAS[kind];
    let query;
    try {
      query = parseQuery(flags.query ?? '*:*', { fields: queryFields(schema) });
    } catch (e) {
      if (e instanceof QuerySyntaxError) throw new ExportUsage(`--query: ${e.message}`);
      throw e;
    }
    const filters = parseFilters(flags.fq ?? [], schema.facets);
    if (flags.resume && flags.out === undefined) throw new ExportUsage('--resume continues an --out FILE; give the file with --out.');
    if (flags.out !== undefined && existsSync(flags.out)) {
      if (!statSync(flags.out).isFile()) throw new ExportUsage(`--out ${flags.out} is not a file.`);
      if (flags.resume) afterId = resumePoint(flags.out);
      else if (statSync(flags.out).size > 0) {
        throw new ExportUsage(
          `${flags.out} exists already: add --resume to continue it after its last line, or remove it to export again.`,
        );
      }
    }
    request = { kind, query, ...(Object.keys(filters).length > 0 ? { filters } : {}), afterId };
  } catch (e) {
    if (!(e instanceof ExportUsage)) throw e;
    io.err(`heritage-api: ${e.message}`);
    return EXIT.failed;
  }

  const started = Date.now();
  const host = new IndexHost(store);
  io.err(`Indexing the ${what} of the store...`);
  while (!(await host.refresh(kind, 250))) if (options.signal?.aborted) return stopped(io, 0, flags, what, options.cli);
  io.err(`Indexed ${host.index(kind).size.toLocaleString('en-US')} ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  if (afterId !== undefined) io.err(`Resuming ${flags.out} after ${afterId}.`);

  const progress = config.ingest.progress && io.progressStream ? terminalProgress(`export ${what}`, io.progressStream) : silentProgress;
  const fd = flags.out === undefined ? undefined : openSync(flags.out, flags.resume ? 'a' : 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (fd !== undefined && pending.length > 0) writeSync(fd, pending.join(''));
    pending = [];
    pendingBytes = 0;
  };
  let state: ExportProgress = { total: 0, exported: 0 };
  const exportStarted = Date.now();
  try {
    const run = async (search: Parameters<IndexHost['search']>[0]) => host.search(search, Date.now() + PAGE_SECONDS * 1000);
    for await (const line of exportHits(run, request, (p) => {
      state = p;
      progress.update({ records: p.exported, errors: 0, done: p.exported, total: p.total, unit: 'hits' });
    })) {
      if (fd === undefined) io.out(line.slice(0, -1));
      else {
        pending.push(line);
        pendingBytes += line.length;
        if (pendingBytes >= WRITE_BYTES) flush();
      }
      // Ctrl-C: stop at a line's end, so the file ends with a whole line.
      if (options.signal?.aborted) {
        flush();
        progress.stop();
        return stopped(io, state.exported, flags, what, options.cli);
      }
    }
    flush();
  } catch (e) {
    flush();
    progress.stop();
    if (e instanceof SearchRequestError || e instanceof SearchDeadlineError) {
      io.err(`heritage-api: ${e.message}`);
      return EXIT.failed;
    }
    throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  progress.stop();
  const seconds = (Date.now() - exportStarted) / 1000;
  io.err(
    `Exported ${state.exported.toLocaleString('en-US')} ${what}${afterId === undefined ? '' : ` after ${afterId}`}` +
      `${flags.out === undefined ? '' : ` to ${flags.out}`} in ${seconds.toFixed(1)} s.`,
  );
  return EXIT.ok;
}

function stopped(io: CliIo, exported: number, flags: ExportFlags, what: string, cli: string): number {
  if (flags.out === undefined) {
    io.err(`Stopped by Ctrl-C after ${exported} ${what}.`);
  } else {
    const again = [cli, 'export', what];
    if (flags.query !== undefined) again.push('--query', shellWord(flags.query));
    for (const fq of flags.fq ?? []) again.push('--fq', shellWord(fq));
    again.push('--out', shellWord(flags.out), '--resume');
    io.err(`Stopped by Ctrl-C after ${exported} ${what}; ${flags.out} ends with a whole line. Go on with: ${again.join(' ')}`);
  }
  return EXIT.interrupted;
}
