/**
 * The server under measure, started as a user starts it; the ceiling beside it; one autocannon
 * run against either; what the bench reads of their processes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { CLI, connections, dataDir, log, ROOT, seconds, WORKERS } from './options.js';
import type { BenchStore } from './store.js';

/** Where the server's standard output, its log, goes: a file, as an operator would keep it. */
const serverLog = join(dataDir, 'server.log');
/** The server's log, in bytes, over the run (its file is emptied after each case, to spare the disk). */
let loggedBytes = 0;

export function emptyServerLog(): void {
  loggedBytes += statSync(serverLog).size;
  truncateSync(serverLog, 0);
}

export const serverLogBytes = () => loggedBytes;

/**
 * Where the server keeps its search indexes on disk (search.path): in the data directory, for
 * both backends, so that a run can start without one (bench/run.ts removes it before the
 * first start, which then builds from the store) and time a start from it (bench/restart.ts).
 */
export const searchIndexDir = join(dataDir, 'search-index');

/**
 * Starts the server as a user does, so that the bench measures what users run: `heritage-api
 * serve` with no flag but the store and the port, so at the default log level
 * and with every other default; HERITAGE_API_SERVER_LOG_LEVEL=info in the
 * environment measures the request log (docs/configuration.md "The request log").
 */
export function startServer(store: BenchStore, port: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  writeFileSync(serverLog, '');
  // Appending: the server keeps writing at the end after the file is emptied.
  const out = openSync(serverLog, 'a');
  // The pages' own limit per address (web.rateLimitMax, 600 a minute) would answer the
  // bench's one address with 429s within a second; so would the OAI-PMH provider's
  // (oai.rateLimitMax) to a full harvest, a request per page.
  const env = {
    ...store.env,
    HERITAGE_API_WEB_RATE_LIMIT_MAX: '0',
    HERITAGE_API_OAI_RATE_LIMIT_MAX: '0',
    HERITAGE_API_SEARCH_PATH: searchIndexDir,
    ...extraEnv,
  };
  const child = spawn(process.execPath, [CLI, ...store.args, 'serve', '--port', String(port)], { stdio: ['ignore', out, 'pipe'], env });
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

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const NODE_WRITES = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

export function sample(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
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

export type Sample = Awaited<ReturnType<typeof sample>>;

/**
 * The bare server for a case's responses, by path (bench/ceiling.ts); `relay`: each answer
 * passes the hops of a search (HTTP process, primary, thread and back).
 */
export function startCeiling(responses: ReadonlyMap<string, Sample>, relay = false): Promise<{ child: ChildProcess; port: number }> {
  const specFile = join(dataDir, 'ceiling.json');
  const spec = Object.fromEntries(
    [...responses].map(([path, r]) => [path, { status: r.status, headers: r.headers, body: r.body.toString('base64') }]),
  );
  writeFileSync(specFile, JSON.stringify({ responses: spec }));
  const args = [join(ROOT, 'bench/ceiling.ts'), specFile, String(WORKERS), ...(relay && WORKERS > 1 ? ['relay'] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => child.stdout.once('data', (d) => resolve({ child, port: Number(d.toString().trim()) })));
}

export interface LoadResult {
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Drives `base` + each of `paths` in turn on every connection (autocannon's `requests`). */
export function drive(
  base: string,
  paths: readonly string[],
  headers: Record<string, string>,
  conns = connections,
  duration = seconds,
): LoadResult {
  const options = {
    url: `${base}${paths[0]}`,
    headers,
    connections: conns,
    duration,
    ...(paths.length > 1 ? { requests: paths.map((path) => ({ path })) } : {}),
  };
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/load.ts'), JSON.stringify(options)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out) as LoadResult;
}

/**
 * Waits until the kernel has stopped stalling on IO (Linux pressure stall
 * information): after a load of 50 GB, `sync` returns while reclaim and
 * write-back still go on, and a case measured then read a third low.
 * At most five minutes; elsewhere than on Linux it does not wait.
 */
export async function ioSettled(): Promise<void> {
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

export interface NodeMemory {
  primary: number;
  workers: number[];
}

/** The peak memory of the server's primary and of each of its worker processes (serve --workers). */
export function nodeMemory(pid: number): NodeMemory {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    children = []; // A kernel without the children file: the primary alone.
  }
  return { primary: peakMemoryMb(pid), workers: children.map(peakMemoryMb) };
}
