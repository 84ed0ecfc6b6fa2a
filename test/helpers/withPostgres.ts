/**
 * Runs a command with one PostgreSQL cluster for all of it (`npm test`): starts the
 * cluster, passes its address in TEST_POSTGRES_ADMIN_URL (test/helpers/postgres.ts),
 * runs the command with a temp directory of its own (TMPDIR), stops the cluster and exits
 * with the command's status, or 1 when the command left anything in that directory.
 *
 *   node --import tsx test/helpers/withPostgres.ts node --test …
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENV, startCluster } from './postgresCluster.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: withPostgres.ts <command> [args…]\n');
  process.exit(2);
}

const cluster = await startCluster();
// The run gets a temp directory of its own, so what the tests leave there is seen: a test
// must remove what it makes (test/helpers/tempDir.ts).
const runTemp = mkdtempSync(join(tmpdir(), 'heritage-api-run-'));
// A test that starts a cluster of its own (test/http/storeRestart.test.ts) runs PostgreSQL as the
// system user postgres when run as root (postgresCluster.ts), with its directory and initdb's
// password file in here: others may pass through the directory (not list it), as through /tmp.
chmodSync(runTemp, 0o711);
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, [ENV]: cluster.adminUrl, TMPDIR: runTemp } });
// Ctrl-C reaches the child through the terminal; the cluster is stopped once the child has gone.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const status = await new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
await cluster.stop();
// tsx keeps its compile cache there (tsx-<uid>): the tool's, not a test's, and removed with the directory.
const left = readdirSync(runTemp).filter((name) => !/^tsx-\d+$/.test(name));
rmSync(runTemp, { recursive: true, force: true });
if (left.length > 0) {
  process.stderr.write(
    `The tests left ${left.length} entries in the temp directory (make them with test/helpers/tempDir.ts, or remove them): ${left.join(', ')}\n`,
  );
  process.exit(status === 0 ? 1 : status);
}
process.exit(status);
