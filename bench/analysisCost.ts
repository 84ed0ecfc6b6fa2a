/**
 * What language analysis costs the item index (docs/benchmarks.md "Language analysis"), not a
 * test: the same synthetic items (bench/engineDocs.ts) built with the item schema and with
 * the same schema without `analysis` (no analysed forms), alternately, each build timed by
 * CPU (the upserts only; the documents are made first), then the bytes the index writes to
 * disk per item (its image, docs/search-engine.md "Persistence").
 *
 *   node --import tsx --expose-gc bench/analysisCost.ts [N=200000] [--runs=2]
 */
import { loadavg } from 'node:os';
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import type { Schema } from '../src/search/engine/schema.js';
import type { SearchDocument } from '../src/search/engine/types.js';
import { itemSchema } from '../src/search/schemas/itemSchema.js';
import { itemDoc } from './engineDocs.js';

const N = Number(process.argv.find((a, i) => i >= 2 && /^\d+$/.test(a)) ?? 200_000);
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 2);
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const docs: SearchDocument[] = [];
for (let i = 0; i < N; i++) docs.push(itemDoc(i));
const plain: Schema = { ...itemSchema, analysis: undefined };
const schemas: Array<[string, Schema]> = [
  ['without analysis', plain],
  ['with analysis', itemSchema],
];
const results = new Map<string, { rates: number[]; bytes: number }>();
const loads: number[] = [loadavg()[0]!];
for (let run = 0; run < RUNS; run++) {
  for (const [name, schema] of schemas) {
    gc();
    const ix = new SearchIndex(schema);
    const c0 = process.cpuUsage();
    for (const d of docs) ix.upsert(d);
    const c = process.cpuUsage(c0);
    const rate = N / ((c.user + c.system) / 1e6);
    let bytes = 0;
    for (const section of ix.image().sections) for (const piece of section.pieces()) bytes += piece.byteLength;
    const r = results.get(name) ?? { rates: [], bytes };
    r.rates.push(rate);
    results.set(name, r);
    loads.push(loadavg()[0]!);
    console.error(`${name}: ${Math.round(rate).toLocaleString('en')} docs/s CPU, ${Math.round(bytes / N)} bytes per item`);
  }
}
const before = results.get('without analysis')!;
const after = results.get('with analysis')!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `\n${N.toLocaleString('en')} items (bench/engineDocs.ts); load average (1 min): ${loads.map((l) => l.toFixed(1)).join(', ')}\n`,
);
console.log('| | without analysis | with analysis | change |\n| --- | --- | --- | --- |');
console.log(
  `| image bytes per item | ${Math.round(before.bytes / N)} | ${Math.round(after.bytes / N)} | ${((after.bytes / before.bytes - 1) * 100).toFixed(1)} % |`,
);
console.log(
  `| build, docs/s of CPU (${RUNS} runs each) | ${before.rates.map((x) => Math.round(x).toLocaleString('en')).join(' / ')} | ${after.rates.map((x) => Math.round(x).toLocaleString('en')).join(' / ')} | ${((mean(after.rates) / mean(before.rates) - 1) * 100).toFixed(1)} % |`,
);
