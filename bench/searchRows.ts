/**
 * The item search rows of the benchmark (bench/itemSearch.ts) against a
 * server already running, without the rest of `npm run bench`:
 *
 *   node --import tsx bench/searchRows.ts --base http://127.0.0.1:PORT [--seconds 10] [--key KEY] [--only WORD]
 *
 * Picks the terms and walks the cursor as the bench does, then drives each row with one
 * connection (bench/load.ts) and prints name, req/s, p50 and p99 per row, as JSON lines.
 * For profiling the server while it answers, and for before/after numbers of one session.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chooseItemTerms, itemCursorWalk, itemSearchCases, type Answer } from './itemSearch.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    key: { type: 'string' },
    only: { type: 'string' },
  },
});
if (values.base === undefined) throw new Error('usage: bench/searchRows.ts --base URL [--seconds N] [--key KEY] [--only WORD]');
const base = values.base;
const headers: Record<string, string> = {
  accept: 'application/json',
  ...(values.key ? { authorization: `OAuth oauth_consumer_key="${values.key}"` } : {}),
};

async function fetchJson(path: string): Promise<Answer> {
  const r = await fetch(`${base}${path}`, { headers });
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
}

const terms = await chooseItemTerms(fetchJson);
const walk = await itemCursorWalk(fetchJson, 100_000);
console.log(JSON.stringify({ terms, cursorWalkSeconds: +walk.seconds.toFixed(1), exact: walk.exact }));
for (const c of itemSearchCases(terms, walk.deepPages)) {
  if (values.only !== undefined && !c.name.includes(values.only)) continue;
  const paths = c.paths ?? [c.path];
  const options = {
    url: `${base}${paths[0]}`,
    headers,
    connections: 1,
    duration: Number(values.seconds),
    ...(paths.length > 1 ? { requests: paths.map((path) => ({ path })) } : {}),
  };
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/load.ts'), JSON.stringify(options)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const r = JSON.parse(out) as { requests: number; p50: number; p99: number; non2xx: number; errors: number };
  console.log(JSON.stringify({ name: c.name, rps: r.requests, p50: r.p50, p99: r.p99, non2xx: r.non2xx, errors: r.errors }));
}
