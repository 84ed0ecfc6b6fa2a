/**
 * The bench's command line (documented in bench/run.ts) and the paths every part of it uses.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli/main.js');
const argv = process.argv.slice(2);
export const flag = (name: string) => argv.includes(`--${name}`);
export const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
export const quick = flag('quick');
/** `--store sqlite` (the default) or `--store postgres`. */
export const backend = option('store', 'sqlite');
if (backend !== 'sqlite' && backend !== 'postgres') throw new Error(`--store ${backend}: the backends are sqlite and postgres`);
/** `--store-url postgres://…`: a PostgreSQL database of the user's instead of the bench's own cluster. */
export const storeUrl = option('store-url', '');
if (storeUrl !== '' && backend !== 'postgres') throw new Error('--store-url needs --store postgres');
const defaultDir = backend === 'postgres' ? 'data/bench-pg' : 'data/bench';
export const dataDir = option('data', join(ROOT, quick ? `${defaultDir}-quick` : defaultDir));
export const seconds = Number(option('duration', quick ? '3' : '10'));
export const connections = Number(option('connections', '50'));
/**
 * The server's HTTP worker processes as a user gets them (server.workers, default one per
 * core; HERITAGE_API_SERVER_WORKERS in the environment sets it), and so the ceiling's.
 */
export const WORKERS = Number(process.env.HERITAGE_API_SERVER_WORKERS ?? '0') || availableParallelism();

export function log(line: string) {
  process.stderr.write(`${line}\n`);
}
