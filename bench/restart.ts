/**
 * Time to `/health/ready` after a start from the search indexes on disk (docs/search-engine.md
 * "Persistence"), after a clean stop (SIGTERM) and after a SIGKILL: a row of
 * `npm run bench` (bench/run.ts), and on its own:
 *
 *   node --import tsx bench/restart.ts [--data DIR] [--store postgres] [--repeat N]
 *
 * loads DIR as `npm run bench` does (or measures its store again), then starts the server N
 * times (default 3) each way: with `search.persist` off (every start builds the indexes from
 * the store: the time before persistence), from the written index after a clean stop, and
 * after a SIGKILL. The machine is shared: repeat, and read the spread.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, log, option } from './options.js';
import { freePort, sample, searchIndexDir, startServer } from './server.js';
import { load, openBenchStore, type BenchStore } from './store.js';

/** Seconds from a start to `/health/ready` 200; the server, running. */
export async function startReady(
  store: BenchStore,
  env: NodeJS.ProcessEnv = {},
): Promise<{ server: ChildProcess; port: number; seconds: number }> {
  const port = await freePort();
  const started = performance.now();
  const server = await startServer(store, port, env);
  while ((await sample(`http://127.0.0.1:${port}/health/ready`, {})).status !== 200) {
    if (performance.now() - started > 1_800_000) throw new Error('the server was not ready 30 minutes after its start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { server, port, seconds: (performance.now() - started) / 1000 };
}

/** Waits until a generation of the indexes written after `since` (ms since the epoch) is on disk. */
export async function indexWritten(since: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const manifests = existsSync(searchIndexDir) ? readdirSync(searchIndexDir).filter((f) => /^manifest-\d+\.json$/.test(f)) : [];
    if (manifests.some((f) => statSync(join(searchIndexDir, f)).mtimeMs >= since)) return;
    if (Date.now() - started > 1_800_000) throw new Error('the server did not write its search indexes within 30 minutes');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function stop(server: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill(signal);
  await exited;
}

export interface RestartTimes {
  /** Seconds to ready from the index on disk after a clean stop, and after a SIGKILL. */
  clean: number;
  killed: number;
}

/**
 * Stops `running` (which has written its indexes) cleanly, starts the server again and times
 * it to ready; then kills that one with SIGKILL and does the same. Returns the server left running.
 */
export async function restartTimes(
  store: BenchStore,
  running: ChildProcess,
): Promise<RestartTimes & { server: ChildProcess; port: number }> {
  await stop(running, 'SIGTERM');
  const clean = await startReady(store);
  log(`ready ${clean.seconds.toFixed(2)} s after a start from the index on disk (clean stop)`);
  await stop(clean.server, 'SIGKILL');
  const killed = await startReady(store);
  log(`ready ${killed.seconds.toFixed(2)} s after a start from the index on disk (SIGKILL)`);
  return { clean: clean.seconds, killed: killed.seconds, server: killed.server, port: killed.port };
}

async function main(): Promise<void> {
  const repeat = Number(option('repeat', '3'));
  const store = await openBenchStore();
  try {
    if (!existsSync(join(dataDir, 'manifest.json')))
      throw new Error(`No data in ${dataDir}: npm run bench:data -- --persons 300000 --items 30000 --out ${dataDir}`);
    await load(store);
    const before: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const r = await startReady(store, { HERITAGE_API_SEARCH_PERSIST: 'false' });
      before.push(r.seconds);
      log(`ready ${r.seconds.toFixed(2)} s after a start that builds the indexes from the store`);
      await stop(r.server, 'SIGTERM');
    }
    rmSync(searchIndexDir, { recursive: true, force: true });
    const since = Date.now();
    let { server } = await startReady(store);
    await indexWritten(since);
    const clean: number[] = [];
    const killed: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const r = await restartTimes(store, server);
      clean.push(r.clean);
      killed.push(r.killed);
      server = r.server;
    }
    await stop(server, 'SIGTERM');
    const show = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
    process.stdout.write(
      [
        `built from the store (search.persist false): ${show(before)} s`,
        `from the index on disk after a clean stop: ${show(clean)} s`,
        `from the index on disk after a SIGKILL: ${show(killed)} s`,
        `index on disk: ${(
          readdirSync(searchIndexDir)
            .filter((f) => f.endsWith('.seg'))
            .reduce((n, f) => n + statSync(join(searchIndexDir, f)).size, 0) /
          2 ** 20
        ).toFixed(1)} MB (the generations kept)`,
        '',
      ].join('\n'),
    );
  } finally {
    await store.close();
  }
}

if (process.argv[1]?.endsWith('restart.ts')) await main();
