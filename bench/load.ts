/**
 * One autocannon run, in its own process (`node --import tsx bench/load.ts
 * '<json options>'`), so the load generator never shares a core's event loop
 * with the server it measures. Prints autocannon's result as JSON.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options;
// The programmatic API renders nothing unless asked to.
const result = await autocannon(options);
process.stdout.write(JSON.stringify({
  requests: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  total: result.requests.total,
}));
