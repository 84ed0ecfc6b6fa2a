/**
 * `heritage-api serve` as its own process, as an operator runs it, for the tests that stop
 * or cut its store under it (test/http/storeRestart.test.ts, test/scaleout/*): started on a
 * free port, ready once /health/ready says so; asked over real connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { MAIN } from './cli.js';

export interface Answer {
  status: number;
  contentType: string | undefined;
  retryAfter: string | undefined;
  body: string;
}

/** A GET on a connection of its own (so that a node of several workers hands each to the next). */
export function ask(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpGet(`${base}${path}`, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          contentType: res.headers['content-type'],
          retryAfter: res.headers['retry-after'],
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Polls `check` until it holds: waits for a condition, never for a time. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 120_000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface ServeNode {
  child: ChildProcess;
  base: string;
  output(): string;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
}

/**
 * `serve --port 0 --workers N --log-level L` with the given HERITAGE_API_* environment (and PATH alone
 * besides), once it says where it listens and /health/ready answers 200.
 */
export async function serveNode(env: NodeJS.ProcessEnv, workers: number, logLevel = 'error'): Promise<ServeNode> {
  const args = [
    '--import',
    import.meta.resolve('tsx'),
    MAIN,
    '--log-level',
    logLevel,
    'serve',
    '--port',
    '0',
    '--workers',
    String(workers),
  ];
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const base = await until('the server to listen', () => {
      if (child.exitCode !== null) throw new Error(`serve exited: ${output}`);
      return /listening on (http:\/\/[^ ]+)/.exec(output)?.[1];
    });
    await until('/health/ready', async () => (await ask(base, '/health/ready')).status === 200);
    return { child, base, output: () => output, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
