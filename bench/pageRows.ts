/**
 * `npm run bench:pages [-- --data DIR] [-- --duration S]`: only the page rows of the bench
 * (bench/pageCases.ts), on a loaded bench store (`npm run bench` made it in DIR, default
 * data/bench), served by a server started for the purpose as the bench starts it
 * (bench/server.ts: its defaults, its index on disk). Each row as the bench measures it: one
 * connection, a warm-up, then `--duration` seconds, beside the ceiling. Prints the rows; writes
 * nothing into docs/benchmarks.md. For the question a full run leaves (docs/benchmarks.md
 * "Conditions and reading"): what a page costs on a freshly started server, without the hour of
 * other rows before it. `ONLY=<text>` in the environment keeps the rows whose name has it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure, type Manifest } from './cases.js';
import { chooseItemTerms } from './itemSearch.js';
import { CLI, dataDir, log } from './options.js';
import { pageCases } from './pageCases.js';
import { freePort, sample, startServer } from './server.js';
import { cli, openBenchStore } from './store.js';

if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first.');
if (!existsSync(join(dataDir, 'manifest.json'))) throw new Error(`${dataDir} holds no bench data: run \`npm run bench\` first.`);
const manifest = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as Manifest;
const store = await openBenchStore();
// The pages need no key; the terms and the hierarchy the rows are made of are read from the API, which does.
const key = cli(store, ['keys', 'create', '--name', `bench-pages-${process.pid}`]).trim();
const port = await freePort();
const server = await startServer(store, port);
const base = `http://127.0.0.1:${port}`;
try {
  while ((await sample(`${base}/health/ready`, {})).status !== 200) await new Promise((r) => setTimeout(r, 200));
  const json = { authorization: `OAuth oauth_consumer_key="${key}"`, accept: 'application/json' };
  const fetchJson = (path: string) => sample(`${base}${path}`, json);
  const terms = await chooseItemTerms(fetchJson);
  const chain = JSON.parse((await fetchJson(`/items/${manifest.deepLeafId}/parents`)).body.toString()) as {
    hierarchy: Array<{ id: string }>;
  };
  const visitor = [...manifest.knownPersons].sort((a, b) => b.items - a.items)[0];
  const pages = pageCases({
    deepItem: manifest.deepLeafId,
    rootItem: chain.hierarchy.at(-1)?.id ?? manifest.deepLeafId,
    gnd: (visitor?.id ?? manifest.knownPersonIds[0]!).replace(/^.*\//, ''),
    terms,
  });
  const html = { accept: 'text/html', 'accept-language': 'de' };
  const only = process.env.ONLY;
  log('| case | conns | bytes | req/s | p50 ms | p99 ms | errors | ceiling req/s | ratio | target |');
  for (const c of pages) {
    if (only !== undefined && !c.name.includes(only)) continue;
    log(`| ${(await measure(base, { ...c, headers: html, connections: 1 })).join(' | ')} |`);
  }
} finally {
  server.kill('SIGTERM');
  await store.close();
}
