/**
 * `node --import tsx bench/scaleRowCpu.ts --dir DIR [--type T]`: CPU per search of a few item
 * rows of `npm run bench:scale` in one thread, on the index a run with `--keep` left in DIR
 * (DIR/index-N): each row's engine requests 200 times after 20, p50 and mean. For comparing
 * two versions of the engine on the same documents (docs/benchmarks.md "Note: dictionaries in
 * shared memory"), where the scale bench's rows measure the whole process. The words are the
 * ones the scale bench chose at 1 M items; `--type` the top type it printed.
 */
import { parseArgs } from 'node:util';
import { readIndexes } from '../src/search/indexFiles.js';
import { SCHEMAS } from '../src/search/indexHost.js';
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import { opsOf } from './scaleOps.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    identity: { type: 'string', default: 'bench-scale' },
    type: { type: 'string', default: 'mediatype_000' },
  },
});
const { sources } = await readIndexes(values.dir!, values.identity);
const ix = { item: SearchIndex.fromImage(SCHEMAS.item, sources.item), person: SearchIndex.fromImage(SCHEMAS.person, sources.person) };
const type = encodeURIComponent(values.type);
const rows: Record<string, string> = {
  rare: '/search?query=aabffn',
  common: `/search?query=mcdn&facet=place_fct&type_fct=${type}`,
  select: `/search/index/search/select?q=mcdn&fq=${encodeURIComponent(`type_fct:"${values.type}"`)}&facet=true&facet.field=place_fct&facet.field=sector_fct&rows=20&wt=json`,
  misspelt: '/search?query=mcnd',
  prefix: '/search?query=mcd*',
};
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
for (const [name, path] of Object.entries(rows)) {
  const ops = opsOf(path);
  const run = () => {
    for (const op of ops) if (op.op === 'engine') ix[op.kind].search(op.request, Date.now() + 600_000);
  };
  for (let i = 0; i < 20; i++) run();
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = cpuMs();
    run();
    times.push(cpuMs() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(10)} CPU p50 ${times[100]!.toFixed(3)} ms, mean ${(times.reduce((a, b) => a + b) / times.length).toFixed(3)} ms`,
  );
}
