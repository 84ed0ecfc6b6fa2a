/**
 * `node --import tsx bench/dictionary.ts [--terms N]`: the CPU cost of a dictionary lookup
 * (src/search/engine/dictionary.ts) over the engine bench's vocabulary (bench/engineDocs.ts,
 * 300,000 words), in a dictionary built in the heap (JS strings, a Map: how a build from the
 * store holds it) and in one restored from its image in shared memory (front-coded blocks:
 * how every search thread holds it after a start; docs/search-engine.md "Memory layout").
 * Not a test. Prints CPU ns per operation, and the live heap each takes.
 */
import { getHeapStatistics } from 'node:v8';
import { parseArgs } from 'node:util';
import { Dictionary } from '../src/search/engine/dictionary.js';
import { ImageSink, ImageSource, type SectionType } from '../src/search/engine/indexImage.js';
import { nearTerms } from '../src/search/engine/nearTerms.js';
import { VOCAB, word } from './engineDocs.js';

const { values } = parseArgs({ options: { terms: { type: 'string', default: String(VOCAB) } } });
const N = Number(values.terms);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heap = () => {
  gc();
  return getHeapStatistics().used_heap_size;
};

const h0 = heap();
const built = new Dictionary();
for (let r = 0; r < N; r++) built.intern(word(r));
built.view(); // sorted, as after the first prefix lookup
const h1 = heap();

const sink = new ImageSink();
built.image(sink, 't');
const sections = new Map<string, { type: SectionType; bytes: Uint8Array }>();
let shared = 0;
for (const s of sink.sections) {
  const data = Buffer.concat([...s.pieces()].map((x) => Buffer.from(x)));
  const bytes = new Uint8Array(new SharedArrayBuffer(data.length));
  bytes.set(data);
  shared += data.length;
  sections.set(s.name, { type: s.type, bytes });
}
const h2 = heap();
const restored = new Dictionary();
restored.restore(new ImageSource(sink.values, sections, true), 't');
const h3 = heap();

const cpuNs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) * 1000;
};
function time(name: string, ops: number, f: (d: Dictionary) => void): void {
  const out: string[] = [];
  for (const [label, d] of [
    ['heap (built)', built],
    ['shared (restored)', restored],
  ] as const) {
    f(d); // warm up
    const t0 = cpuNs();
    f(d);
    out.push(`${label} ${((cpuNs() - t0) / ops).toFixed(0)} ns`);
  }
  console.log(`| ${name} | ${out.join(' | ')} |`);
}

let seed = 3;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const Q = 200_000;
const hits = Array.from({ length: Q }, () => word(Math.floor(rnd() * N)));
// Zipf-like: the words queries take most (the rows' common and rare terms lie among these)
const common = Array.from({ length: Q }, () => word(Math.floor(rnd() * 1000)));
const misses = hits.map((w) => `${w}q`);
const ids = Array.from({ length: Q }, () => Math.floor(rnd() * N));
let sink0 = 0;
console.log(`| ${N.toLocaleString('en')} terms: CPU per operation | built in the heap | restored over shared memory |`);
console.log('| --- | --- | --- |');
time('get, a random known term', Q, (d) => {
  for (const w of hits) sink0 += d.get(w) ?? 0;
});
time('get, one of the 1,000 commonest', Q, (d) => {
  for (const w of common) sink0 += d.get(w) ?? 0;
});
time('get, an unknown word', Q, (d) => {
  for (const w of misses) sink0 += d.get(w) ?? 0;
});
time('string of an id', Q, (d) => {
  for (const id of ids) sink0 += d.string(id).length;
});
const prefixes = hits.slice(0, 2000).map((w) => w.slice(0, 3));
time('withPrefix, 3 letters (per prefix)', prefixes.length, (d) => {
  for (const p of prefixes)
    sink0 += d.withPrefix(
      p,
      () => true,
      Infinity,
      () => new Error('too many'),
    ).length;
});
const near = hits.slice(0, 300).map((w) => (w.length > 4 ? w.slice(0, 2) + w.slice(3) : `${w}x`));
time('nearTerms, 2 edits, first letter fixed (per word)', near.length, (d) => {
  for (const w of near) nearTerms(d, w, 2, 1, () => sink0++);
});
const MiB = 2 ** 20;
console.log(
  `\nlive heap: built ${((h1 - h0) / MiB).toFixed(1)} MiB; restored ${((h3 - h2) / MiB).toFixed(1)} MiB in the heap + ${(shared / MiB).toFixed(1)} MiB shared (once per process); checksum ${sink0 % 7}`,
);
