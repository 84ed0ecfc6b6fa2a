/**
 * Prints the precision@1 table of docs/reconciliation.md "Precision": the fixture persons
 * loaded into a fresh SQLite store, queried by variant names and by names with a typo
 * (test/reconcile/precision.ts). `node --import tsx scripts/reconcile-precision.ts`.
 */
import { ingestEntities } from '../src/ingest/ingestEntities.js';
import { SQLITE } from '../test/helpers/backends.js';
import { FIXTURES } from '../test/helpers/paths.js';
import { measurePrecision, precisionCases, storedPersons, storeSources } from '../test/reconcile/precision.js';

const opened = await SQLITE.open();
try {
  await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
  const sources = await storeSources(opened.store);
  const persons = await storedPersons(sources);
  const started = performance.now();
  const rows = await measurePrecision(sources, precisionCases(persons));
  const seconds = (performance.now() - started) / 1000;
  const queries = rows.reduce((n, r) => n + r.queries, 0);
  console.log(
    `${persons.length} persons, ${queries} queries in ${seconds.toFixed(1)} s (${((seconds * 1000) / queries).toFixed(1)} ms a query)\n`,
  );
  console.log('| queried by | queries | first candidate right | precision@1 |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.set} | ${r.queries} | ${r.top1} | ${r.precision.toFixed(4)} |`);
  console.log('\nMissed:');
  for (const r of rows) for (const m of r.misses) console.log(`- ${r.set}: "${m.query}" (${m.person}) → ${m.got ?? 'nothing'}`);
} finally {
  await opened.dispose();
}
