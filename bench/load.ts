/**
 * One autocannon run, in its own process (`node --import tsx bench/load.ts
 * '<json options>'`), so the load generator never shares a core's event loop
 * with the server it measures. Prints autocannon's result as JSON. Given an array of
 * options, it runs them all at once and prints an array of results, in their order
 * (loops of different requests from one process: bench/cases.ts parentsUnderWorstRequests).
 */
import autocannon from 'autocannon';

async function run(options: autocannon.Options) {
  // The programmatic API renders nothing unless asked to.
  const result = await autocannon(options);
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

const options = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options | autocannon.Options[];
process.stdout.write(JSON.stringify(Array.isArray(options) ? await Promise.all(options.map(run)) : await run(options)));
