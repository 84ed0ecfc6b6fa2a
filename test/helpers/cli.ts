/** Runs the real CLI in-process and captures what it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

export async function cli(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { out: (l) => out.push(l), err: (l) => err.push(l), stdin: Readable.from([options.stdin ?? '']), progressStream: undefined },
    options.env ?? {},
  );
  return { code, out, err };
}

export const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI as its own process, as an operator does: what reaches the
 * terminal, stack traces included, and the exit code. The environment is
 * only what is given (plus PATH), so the caller's HERITAGE_API_* do not leak in.
 */
export function spawnCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string } = {}): Promise<ProcessRun> {
  // tsx resolved here, not from the child's working directory (which may be anywhere).
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(options.stdin ?? '');
  return collect(child);
}

/** Waits for a spawned process to end, with everything it wrote. */
export function collect(child: ChildProcess): Promise<ProcessRun> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
