/**
 * Cost of the item search document (src/search/schemas/itemDocument.ts),
 * not a test: per package, the mapping alone (from the JSON form already parsed, as at
 * load, where prepareItem has it), from the stored JSON text (JSON.parse first, as at an
 * index build from the store) and from the cortex XML (parseXml and cortexToJson first),
 * on the real fixture packages and on N synthetic packages (bench/synth/items.ts).
 *
 *   node --import tsx bench/itemDocument.ts [N=2000]
 */
import { itemDocuments, itemDocumentsFromJson, itemDocumentsFromXml } from '../src/search/schemas/itemDocument.js';
import { readItemRecords } from '../src/ingest/items/readItemRecords.js';
import { cortexPackages, edmPackages } from '../test/search/itemFixtures.js';
import { planForest } from './synth/forest.js';
import { ItemGenerator } from './synth/items.js';
import { PersonGenerator } from './synth/persons.js';
import { loadVocab } from './synth/vocab.js';

const N = Number(process.argv[2] ?? 2000);

interface Sample {
  xml: string;
  json: string;
  pkg: unknown;
}

/** Mean time per package over whole passes, until a second has gone by (after one warm-up pass). */
function perPackage(samples: Sample[], run: (s: Sample) => unknown): number {
  for (const s of samples) run(s);
  const start = process.hrtime.bigint();
  let passes = 0;
  do {
    for (const s of samples) run(s);
    passes++;
  } while (process.hrtime.bigint() - start < 1_000_000_000n);
  return Number(process.hrtime.bigint() - start) / 1e6 / (passes * samples.length);
}

function report(name: string, samples: Sample[]): void {
  const kb = samples.reduce((a, s) => a + Buffer.byteLength(s.xml), 0) / samples.length / 1024;
  const ms = (f: (s: Sample) => unknown) => perPackage(samples, f).toFixed(4);
  console.log(
    `| ${name} | ${samples.length} | ${kb.toFixed(1)} KB | ${ms((s) => itemDocuments(s.pkg))} | ${ms((s) => itemDocumentsFromJson(s.json))} | ${ms((s) => itemDocumentsFromXml(s.xml))} |`,
  );
}

const sample = (xml: string, json: string): Sample => ({ xml, json, pkg: JSON.parse(json) });
const cortex = cortexPackages().map((p) => sample(p.item.xml, p.item.json));
const edm = (await edmPackages()).map((p) => sample(p.item.xml, p.item.json));
const vocab = loadVocab();
const generator = new ItemGenerator(planForest(N, 1), new PersonGenerator(vocab, 1), 10_000, 1);
const synth: Sample[] = [];
for (let i = 0; i < N; i++) {
  const { xml } = generator.item(i);
  const r = readItemRecords(xml)[0];
  if (r?.kind !== 'item') throw new Error(`synthetic item ${i} does not read: ${JSON.stringify(r)}`);
  synth.push(sample(xml, r.item.json));
}

console.log('| packages | n | mean XML size | mapping (ms) | from JSON text (ms) | from XML (ms) |');
console.log('| --- | --- | --- | --- | --- | --- |');
report('real cortex', cortex);
report('built from EDM', edm);
report('synthetic', synth);
