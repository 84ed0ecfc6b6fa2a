/**
 * Where the memory of the engine's indexes goes (target: the server ≤ 1.5 GB
 * RSS with both indexes at 1 M each), not a test: builds the indexes of bench/engine.ts
 * (the same generated documents) and prints the bytes per structure: typed arrays by
 * their capacity, JS strings, arrays and maps by the heap freed when they are dropped.
 *
 *   node --import tsx --expose-gc --max-old-space-size=5000 bench/engineMemory.ts [N=1000000] [--persons]
 */
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import { itemSchema } from '../src/search/schemas/itemSchema.js';
import { personSchema } from '../src/search/schemas/personSchema.js';
import { itemDoc, personDoc } from './engineDocs.js';

const N = Number(process.argv.find((a, i) => i >= 2 && /^\d+$/.test(a)) ?? 1_000_000);
const PERSONS = process.argv.includes('--persons');
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
const rssOf = () => process.memoryUsage().rss;
import { readFileSync } from 'node:fs';
/** Resident bytes of the malloc heap ([heap]) and of the other anonymous mappings. */
function smaps(): string {
  let heap = 0;
  let anon = 0;
  let name = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const m = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) name = m[1]!;
    else if (line.startsWith('Rss:')) {
      const kb = Number(line.split(/\s+/)[1]) * 1024;
      if (name === '[heap]') heap += kb;
      else if (name === '') anon += kb;
    }
  }
  return `[heap] ${mb(heap)}, anonymous ${mb(anon)}`;
}

function build(schema: typeof itemSchema, make: (i: number) => ReturnType<typeof itemDoc>): SearchIndex {
  const ix = new SearchIndex(schema);
  // in batches, as bench/engine.ts builds
  for (let i = 0; i < N; i += 10_000) {
    const docs = [];
    for (let j = i; j < Math.min(N, i + 10_000); j++) docs.push(make(j));
    for (const d of docs) ix.upsert(d);
  }
  return ix;
}

gc();
const m0 = process.memoryUsage();
const indexes: Array<[string, SearchIndex]> = [['items', build(itemSchema, itemDoc)]];
if (PERSONS) indexes.push(['persons', build(personSchema, personDoc)]);
gc();
const m1 = process.memoryUsage();
for (const [, ix] of indexes) ix.refreshOrders(0);
gc();
console.log(`after refreshOrders: rss ${mb(rssOf())}`);
console.log(smaps());
for (let t = 0; t < 4; t++) {
  await new Promise((r) => setTimeout(r, 5000));
  const m = process.memoryUsage();
  console.log(`${(t + 1) * 5} s idle: rss ${mb(m.rss)}, heapTotal ${mb(m.heapTotal)}, heapUsed ${mb(m.heapUsed)}, ${smaps()}`);
}
console.log(
  `after build: rss ${mb(m1.rss)}, heapUsed ${mb(m1.heapUsed - m0.heapUsed)}, heapTotal ${mb(m1.heapTotal)}, arrayBuffers ${mb(m1.arrayBuffers - m0.arrayBuffers)}, external ${mb(m1.external)}`,
);

/** Bytes of every typed array reachable from `o` (own enumerable and private fields), once each. */
function typedBytes(o: unknown, seen = new Set<unknown>()): number {
  if (o === null || typeof o !== 'object' || seen.has(o)) return 0;
  seen.add(o);
  if (ArrayBuffer.isView(o)) return o.buffer.byteLength;
  let n = 0;
  if (Array.isArray(o)) {
    if (o.length > 0 && typeof o[0] === 'string') return 0;
    for (const x of o) n += typedBytes(x, seen);
    return n;
  }
  if (o instanceof Map) return 0;
  for (const k of Object.keys(o)) n += typedBytes((o as Record<string, unknown>)[k], seen);
  return n;
}

for (const [label, ix] of indexes) {
  const x = ix as unknown as Record<string, unknown>;
  const parts: Array<[string, unknown]> = [
    ['text postings (ListPool)', x.text],
    ['facets (values, postings, per-doc ids)', x.facets],
    ['numbers', x.numbers],
    ['sortNumbers', x.sortNumbers],
    ['sort ranks (Float64)', x.sortRanks],
    ['id ranks (Float64)', x.idRanks],
    [
      'idHash, live, fieldMask, exactA/B, termDocs, seen, slotOf',
      [x.idHash, x.live, x.fieldMask, x.exactA, x.exactB, x.termDocs, x.seen, x.slotOf],
    ],
  ];
  for (const [name, o] of parts) console.log(`${label}: ${name}: ${mb(typedBytes(o))} typed`);
}

/** Heap freed by dropping what `drop` drops. */
function freed(name: string, drop: () => void): void {
  gc();
  const h0 = process.memoryUsage();
  drop();
  gc();
  gc();
  const h1 = process.memoryUsage();
  console.log(
    `drop ${name}: heap −${mb(h0.heapUsed - h1.heapUsed)}, arrayBuffers −${mb(h0.arrayBuffers - h1.arrayBuffers)}, rss −${mb(h0.rss - h1.rss)}`,
  );
}
for (const [label, ix] of indexes) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks the index's private fields to weigh them
  const x = ix as unknown as Record<string, any>;
  freed(`${label} postings cache`, () => (x.postingsCache = null));
  freed(`${label} suggest displays`, () => (x.displays = null));
  freed(`${label} byId map`, () => (x.byId = null));
  freed(`${label} id ranks`, () => (x.idRanks = null));
  freed(`${label} ids array (+ id strings)`, () => (x.ids = null));
  freed(`${label} sort strings`, () => (x.sortStrings = null));
  freed(`${label} sort ranks`, () => (x.sortRanks = null));
  freed(`${label} facets`, () => (x.facets = null));
  freed(`${label} analyzer`, () => (x.analyzer = null));
  freed(`${label} terms dictionary`, () => (x.terms = null));
  freed(`${label} text pool`, () => (x.text = null));
}
indexes.length = 0;
gc();
console.log(`at the end: rss ${mb(rssOf())}`);
