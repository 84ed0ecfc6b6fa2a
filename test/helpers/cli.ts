/** Runs the real CLI in-process and captures what it prints. */
import { Readable } from 'node:stream';
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
