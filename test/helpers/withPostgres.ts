/**
 * Runs a command with one PostgreSQL cluster for all of it (`npm test`): starts the
 * cluster, passes its address in TEST_POSTGRES_ADMIN_URL (test/helpers/postgres.ts),
 * runs the command, stops the cluster and exits with the command's status.
 *
 *   node --import tsx test/helpers/withPostgres.ts node --test …
 */
import { spawn } from 'node:child_process';
import { ENV, startCluster } from './postgresCluster.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: withPostgres.ts <command> [args…]\n');
  process.exit(2);
}

const cluster = await startCluster();
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, [ENV]: cluster.adminUrl } });
// Ctrl-C reaches the child through the terminal; the cluster is stopped once the child has gone.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const status = await new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
await cluster.stop();
process.exit(status);
