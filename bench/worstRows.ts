/**
 * The row "parents while the five worst requests run" of the benchmark (
 * bench/cases.ts parentsUnderWorstRequests) against a server already running, without the
 * rest of `npm run bench`:
 *
 *   node --import tsx bench/worstRows.ts --base http://127.0.0.1:PORT --key KEY --leaf ID [--items N] [--seconds 10] [--rounds 1] [--connections 1]
 *
 * Each round measures `parents` of the item ID alone, then beside the five loops, and prints
 * both as JSON lines: the machine is shared, so a number means something only beside the
 * one measured in the same round. For before/after numbers of one session and profiling.
 */
import { parseArgs } from 'node:util';
import { parentsUnderWorstRequests } from './cases.js';
import { drive } from './server.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    key: { type: 'string' },
    leaf: { type: 'string' },
    items: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '1' },
    connections: { type: 'string', default: '1' },
  },
});
if (values.base === undefined || values.leaf === undefined)
  throw new Error('usage: bench/worstRows.ts --base URL --leaf ID [--key KEY] [--items N] [--seconds N] [--rounds N]');
const headers: Record<string, string> = {
  accept: 'application/json',
  ...(values.key ? { authorization: `OAuth oauth_consumer_key="${values.key}"` } : {}),
};
const path = `/items/${values.leaf}/parents`;
const seconds = Number(values.seconds);
const conns = Number(values.connections);
for (let round = 1; round <= Number(values.rounds); round++) {
  const alone = drive(values.base, [path], headers, conns, seconds);
  console.log(
    JSON.stringify({ round, case: 'parents alone', rps: Math.round(alone.requests), p50: alone.p50, p99: alone.p99, non2xx: alone.non2xx }),
  );
  const { parents, searches } = await parentsUnderWorstRequests(values.base, path, headers, Number(values.items), seconds, conns);
  console.log(
    JSON.stringify({
      round,
      case: 'parents beside the five',
      rps: Math.round(parents.requests),
      p50: parents.p50,
      p99: parents.p99,
      non2xx: parents.non2xx,
    }),
  );
  for (const s of searches)
    console.log(
      JSON.stringify({
        round,
        search: decodeURIComponent(s.path).slice(0, 70),
        rps: +s.requests.toFixed(2),
        p50: s.p50,
        p99: s.p99,
        non2xx: s.non2xx,
        errors: s.errors,
      }),
    );
}
