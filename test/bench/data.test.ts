/**
 * The synthetic bench data (bench/data.ts): the same
 * arguments give byte-identical files whatever the number of threads, every
 * record loads through the real ingest, the depth-12 chain is one, and the
 * manifest's term hit counts are exact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, type Manifest } from '../../bench/data.js';
import { textValues } from '../../bench/synth/persons.js';
import type { Person } from '../../src/domain/person.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { fold, tokens } from '../../src/search/engine/fold.js';
import { BACKENDS } from '../helpers/backends.js';

const PERSONS = 200;
const ITEMS = 300;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'heritage-api-bench-data-'));
  dirs.push(d);
  return d;
};

// One generation in this thread and one with two item workers: same bytes expected.
const first = tmp();
const second = tmp();
let manifest: Manifest;

test.before(async () => {
  manifest = await generate({ persons: PERSONS, items: ITEMS, out: first, seed: 42, threads: 1 });
  await generate({ persons: PERSONS, items: ITEMS, out: second, seed: 42, threads: 2 });
});

test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('the same arguments give byte-identical files (1 thread and 2 threads)', () => {
  const a = files(first);
  const b = files(second);
  assert.deepEqual(a, b);
  assert.ok(a.includes('manifest.json'));
  assert.equal(a.filter((f) => f.endsWith('.xml')).length, ITEMS);
  for (const f of a) assert.ok(readFileSync(join(first, f)).equals(readFileSync(join(second, f))), `${f} differs`);
});

test('in slices (files handed over and deleted as they come) the files and the manifest are the same', async () => {
  const sliced = tmp();
  const seen = new Map<string, Buffer>();
  const take = (sub: string) => {
    for (const f of files(join(sliced, sub))) {
      const path = join(sub, f);
      assert.ok(!seen.has(path), `${path} handed over twice`);
      seen.set(path, readFileSync(join(sliced, path)));
      rmSync(join(sliced, path));
    }
  };
  const sliceSizes: number[] = [];
  const m = await generate({
    persons: PERSONS,
    items: ITEMS,
    out: sliced,
    seed: 42,
    threads: 2,
    slices: {
      items: 100,
      afterPersons: async () => take('persons'),
      afterSlice: async (items) => {
        sliceSizes.push(items);
        assert.equal(files(join(sliced, 'items')).length, items, 'a slice holds exactly the items it reports');
        take('items');
      },
    },
  });
  assert.deepEqual(m, manifest);
  assert.equal(
    sliceSizes.reduce((a, b) => a + b, 0),
    ITEMS,
  );
  assert.ok(sliceSizes.length >= ITEMS / 100, `${sliceSizes.length} slices`);
  const expected = files(first).filter((f) => f !== 'manifest.json' && f !== '.bench-data');
  assert.deepEqual([...seen.keys()].sort(), expected);
  for (const f of expected) assert.ok(seen.get(f)!.equals(readFileSync(join(first, f))), `${f} differs`);
});

test('another seed gives other data', async () => {
  const other = tmp();
  const m = await generate({ persons: PERSONS, items: 20, out: other, seed: 43, threads: 1 });
  assert.notDeepEqual(m.itemIdsSample, manifest.itemIdsSample.slice(0, m.itemIdsSample.length));
  // The known persons are the same for every seed.
  assert.deepEqual(m.knownPersonIds, manifest.knownPersonIds);
});

test('layout: persons as JSON lines, items in folders of 1,000, 10–60 KB, base32 ids', () => {
  const lines = readFileSync(join(first, 'persons/persons-0001.jsonl'), 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, PERSONS);
  const persons = lines.map((l) => JSON.parse(l) as Person);
  assert.deepEqual(
    persons.slice(0, 10).map((p) => p.id),
    manifest.knownPersonIds,
  );
  assert.equal(new Set(persons.map((p) => p.id)).size, PERSONS);
  for (const p of persons) {
    assert.match(p.id, /^http:\/\/d-nb\.info\/gnd\/[0-9]{9}[0-9X]$/);
    assert.equal(p.type, 'person');
    assert.ok(p.preferredName.length > 0);
  }
  const items = files(join(first, 'items'));
  assert.ok(
    items.every((f) => /^0001\/[A-Z2-7]{32}\.xml$/.test(f)),
    'one folder 0001, base32 ids',
  );
  assert.equal(new Set(items).size, ITEMS);
  for (const f of items) {
    const size = statSync(join(first, 'items', f)).size;
    assert.ok(size >= 10_240 && size <= 60_000, `${f}: ${size} bytes`);
  }
  assert.equal(manifest.items, ITEMS);
  assert.equal(manifest.persons, PERSONS);
  assert.equal(
    manifest.files.itemBytes,
    items.reduce((s, f) => s + statSync(join(first, 'items', f)).size, 0),
  );
});

test('manifest terms: the hit counts are exact and in their bands', () => {
  const persons = readFileSync(join(first, 'persons/persons-0001.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Person);
  const hits = (term: string) => {
    const t = fold(term);
    return persons.filter((p) => textValues(p).some((v) => tokens(v).includes(t))).length;
  };
  for (const [term, n] of [
    [manifest.rareTerm, manifest.rareTermHits],
    [manifest.commonTerm, manifest.commonTermHits],
    [manifest.veryCommonTerm, manifest.veryCommonTermHits],
  ] as const) {
    assert.ok(term !== null);
    assert.equal(hits(term), n, term);
  }
  assert.ok(manifest.rareTermHits >= 1 && manifest.rareTermHits < 100);
  assert.ok(manifest.veryCommonTermHits > 0.15 * PERSONS, `${manifest.veryCommonTerm}: ${manifest.veryCommonTermHits}`);
  assert.ok(manifest.commonTermHits >= 0.01 * PERSONS && manifest.commonTermHits <= 0.05 * PERSONS);
});

test('everything loads through the real ingest; the depth-12 leaf has 11 ancestors', async () => {
  for (const backend of BACKENDS) {
    const { store, dispose } = await backend.open();
    try {
      const items = await ingestItems(store, [join(first, 'items')], { batchSize: 100 });
      assert.deepEqual(items.problems, []);
      assert.deepEqual(items.cycles, []);
      assert.equal(items.inserted, ITEMS);
      const entities = await ingestEntities(store, [join(first, 'persons')], { batchSize: 100 });
      assert.deepEqual(entities.problems, []);
      assert.equal(entities.inserted, PERSONS);

      assert.ok(manifest.deepLeafId !== null);
      const deep = (await store.getAncestry(manifest.deepLeafId))!;
      assert.equal(deep.cycle, false);
      assert.equal(deep.nodes.length, 12);
      assert.equal(deep.nodes[0]!.leaf, true);
      assert.equal(deep.nodes[11]!.parent, null);
      assert.ok(manifest.idsByDepth['12']!.includes(manifest.deepLeafId));
      for (const [depth, ids] of Object.entries(manifest.idsByDepth)) {
        for (const id of ids) assert.equal(Math.max(1, (await store.getAncestry(id))!.nodes.length), Number(depth), id);
      }
      assert.equal((await store.getAncestry(manifest.shallowItemId!))!.nodes.length, 2);
    } finally {
      await dispose();
    }
  }
});

test('about 30 % of items refer to persons, the popular ones most', () => {
  const share = manifest.personRefs.itemsWithRefs / ITEMS;
  assert.ok(share > 0.15 && share < 0.45, `share ${share}`);
  const counts = manifest.knownPersons.map((p) => p.items);
  assert.ok(counts[0]! > 0 && counts[0]! >= counts[9]!, counts.join(', '));
  let referring = 0;
  for (const f of files(join(first, 'items'))) {
    const xml = readFileSync(join(first, 'items', f), 'utf8');
    if (xml.includes('<facet name="affiliate_fct_normdata">')) {
      referring++;
      assert.match(xml, /<dcterms:subject [^>]*rdf:resource="http:\/\/d-nb\.info\/gnd\/\d+[\dX]"\/>/);
    }
  }
  assert.equal(referring, manifest.personRefs.itemsWithRefs);
});
