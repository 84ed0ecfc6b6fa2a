/**
 * The first half of the scale benchmark (bench/scale.ts runs it as a process of its own):
 * builds the item and person indexes of bench/engineDocs.ts's synthetic documents and
 * writes them to disk as the server does (src/search/indexFiles.ts writeIndexes;
 * docs/search-engine.md "Persistence"), then prints one JSON line of what it measured.
 *
 *   node --import tsx --expose-gc bench/scaleBuild.ts --items N --persons N --dir DIR
 *
 * The documents are made in batches of 10,000 and upserted as the change feed applies them
 * (the ranks brought up to date once the feed is drained, engine/feed.ts); making them is
 * timed apart from the build.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeIndexes } from '../src/search/indexFiles.js';
import { SCHEMAS } from '../src/search/indexHost.js';
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import type { SearchDocument } from '../src/search/engine/types.js';
import { itemDoc, personDoc } from './engineDocs.js';
import { resident } from './resident.js';

const { values } = parseArgs({
  options: { items: { type: 'string' }, persons: { type: 'string' }, dir: { type: 'string' }, identity: { type: 'string' } },
});
const items = Number(values.items);
const persons = Number(values.persons);
const dir = values.dir!;
const identity = values.identity ?? 'bench-scale';
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

interface Built {
  index: SearchIndex;
  documents: number;
  /** Upserts and the final rank refresh. */
  wallMs: number;
  cpuMs: number;
  /** Making the documents (not the engine's work). */
  makeWallMs: number;
}

function build(kind: 'item' | 'person', n: number, make: (i: number) => SearchDocument): Built {
  const index = new SearchIndex(SCHEMAS[kind]);
  let wall = 0;
  let cpu = 0;
  let makeWall = 0;
  const BATCH = 10_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i += BATCH) {
    const m0 = performance.now();
    const docs: SearchDocument[] = [];
    for (let j = i; j < Math.min(n, i + BATCH); j++) docs.push(make(j));
    const w0 = performance.now();
    makeWall += w0 - m0;
    const c0 = cpuMs();
    for (const d of docs) index.upsert(d);
    cpu += cpuMs() - c0;
    wall += performance.now() - w0;
    if ((i / BATCH) % 100 === 99) {
      const done = i + BATCH;
      process.stderr.write(
        `  ${kind}s: ${done.toLocaleString('en')} of ${n.toLocaleString('en')} (${((performance.now() - t0) / 1000).toFixed(0)} s, rss ${(resident().rss / 2 ** 30).toFixed(2)} GiB)\n`,
      );
    }
  }
  const w0 = performance.now();
  const c0 = cpuMs();
  index.refreshOrders(1024);
  cpu += cpuMs() - c0;
  wall += performance.now() - w0;
  return { index, documents: n, wallMs: wall, cpuMs: cpu, makeWallMs: makeWall };
}

rmSync(dir, { recursive: true, force: true });
const person = build('person', persons, personDoc);
const item = build('item', items, itemDoc);
const afterBuild = resident();
const w0 = performance.now();
const c0 = cpuMs();
const manifest = await writeIndexes(dir, identity, {
  person: { image: person.index.image(), position: 'person:log:0', documents: person.documents },
  item: { image: item.index.image(), position: 'item:log:0', documents: item.documents },
});
const writeWallMs = performance.now() - w0;
const writeCpuMs = cpuMs() - c0;
const summary = (b: Built) => ({ documents: b.documents, wallMs: b.wallMs, cpuMs: b.cpuMs, makeWallMs: b.makeWallMs });
process.stdout.write(
  `${JSON.stringify({
    person: { ...summary(person), bytes: manifest.kinds.person.bytes, terms: person.index.terms.size },
    item: { ...summary(item), bytes: manifest.kinds.item.bytes, terms: item.index.terms.size },
    write: { wallMs: writeWallMs, cpuMs: writeCpuMs, generation: manifest.generation },
    memory: { afterBuild, peak: resident().hwm },
  })}\n`,
);
