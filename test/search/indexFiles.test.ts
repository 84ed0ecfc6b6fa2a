/**
 * The indexes on disk (src/search/indexFiles.ts, engine/indexImage.ts): an index written
 * and read back answers every search exactly as the one written, and goes on taking
 * changes as it would have; a written image does not move while the index changes under
 * the writer; damaged files, another format and another store are told apart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { itemDoc, personDoc } from '../../bench/engineDocs.js';
import { parseQuery } from '../../src/query/parse.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { queryFields, type Schema } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';
import type { SearchDocument, SearchRequest, SearchSort } from '../../src/search/engine/types.js';
import { crc32 } from 'node:zlib';
import {
  alignedOffset,
  INDEX_FORMAT,
  IndexProblem,
  readIndexes,
  readSharedIndexes,
  sharedSources,
  writeIndexes,
  type KindImage,
} from '../../src/search/indexFiles.js';

const FAR = () => Date.now() + 60_000;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'heritage-api-index-'));
  dirs.push(d);
  return d;
}

/** An index with history: documents added, some replaced (a new ordinal each), some deleted. */
function build(schema: Schema, doc: (i: number) => SearchDocument, n: number, variant = 0): SearchIndex {
  const index = new SearchIndex(schema);
  for (let i = 0; i < n; i++) index.upsert(doc(i));
  for (let i = 0; i < n; i += 7) index.upsert({ ...doc(i + variant * 100_000), id: doc(i).id });
  for (let i = 3; i < n; i += 11) index.delete(doc(i).id);
  index.refreshOrders(0);
  for (let i = n; i < n + 50; i++) index.upsert(doc(i)); // half-ranked, not refreshed
  return index;
}

function image(index: SearchIndex, position: string): KindImage {
  return { image: index.image(), position, documents: index.size };
}

/** Every search a server makes of an index, the words taken from its own documents. */
function requests(schema: Schema, words: string[]): SearchRequest[] {
  const fields = queryFields(schema);
  const q = (text: string) => parseQuery(text, { fields });
  const facets = schema.facets.slice(0, 4).map((field) => ({ field, limit: 10, mincount: 1, sort: 'count' as const }));
  const sorts: SearchSort[] = [
    { kind: 'relevance' },
    { kind: 'id', descending: true },
    { kind: 'random', seed: '7' },
    ...schema.sortKeys.map((k) => ({ kind: 'key' as const, key: k.name, descending: false })),
    ...schema.sortKeys.map((k) => ({ kind: 'key' as const, key: k.name, descending: true })),
  ];
  const out: SearchRequest[] = [];
  for (const sort of sorts) {
    for (const text of [
      '*:*',
      words[0]!,
      words[1]!,
      `${words[2]} OR ${words[3]}`,
      `${words[0]!.slice(0, 2)}*`,
      `"${words[0]} ${words[1]}"`,
      `NOT ${words[0]}`,
    ]) {
      out.push({ query: q(text), sort, offset: 0, rows: 15, facets });
      out.push({ query: q(text), sort, offset: 40, rows: 5 });
    }
  }
  // misspelt words for the spellchecker, and a cursor walk
  for (const w of words.slice(0, 4)) {
    const wrong = `${w.slice(0, -1)}${w.endsWith('x') ? 'y' : 'x'}`;
    out.push({ query: q(wrong), sort: { kind: 'relevance' }, offset: 0, rows: 5, spellcheck: { minHits: 1, text: wrong } });
  }
  return out;
}

function answers(index: SearchIndex, reqs: SearchRequest[]): unknown[] {
  const out: unknown[] = [];
  for (const r of reqs) {
    const first = index.search(r, FAR());
    out.push(first);
    // a cursor walk of three pages
    if (r.offset === 0 && r.sort.kind !== 'random') {
      let cursor = first.nextCursor;
      for (let p = 0; p < 3 && cursor !== undefined; p++) {
        const page = index.search({ ...r, facets: undefined, cursor }, FAR());
        out.push(page);
        cursor = page.nextCursor;
      }
    }
  }
  out.push(index.suggest('a', 10), index.suggest('st', 10));
  return out;
}

/** An index of 3,000 items written, and item indexes restored over it as a pool's replicas read it: room behind the per-document columns, written in place. */
async function itemReplicas() {
  const dir = tempDir();
  const index = build(itemSchema, itemDoc, 3000);
  const persons = build(personSchema, personDoc, 100);
  await writeIndexes(dir, 'store-a', { item: image(index, 'item:log:1'), person: image(persons, 'person:log:2') });
  const shared = await readSharedIndexes(dir, 'store-a', true);
  const replica = () => SearchIndex.fromImage(itemSchema, sharedSources({ manifest: shared.manifest, buffers: shared.buffers }, true).item);
  return { index, shared, replica };
}

function wordsOf(index: SearchIndex): string[] {
  const counted = index.termsWithPrefix('').map((t) => [t, index.documentFrequency(t)] as const);
  counted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return [counted[0]![0], counted[5]![0], counted[50]![0], counted[200]![0]];
}

describe('the search indexes on disk', () => {
  for (const [name, schema, doc] of [
    ['items', itemSchema, itemDoc],
    ['persons', personSchema, personDoc],
  ] as const) {
    test(`${name}: an index read back answers every search as the one written, and takes the same changes alike`, async () => {
      const dir = tempDir();
      const index = build(schema, doc, 3000);
      const other = build(name === 'items' ? personSchema : itemSchema, name === 'items' ? personDoc : itemDoc, 200);
      const kinds =
        name === 'items'
          ? { item: image(index, 'item:log:1'), person: image(other, 'person:log:2') }
          : { item: image(other, 'item:log:1'), person: image(index, 'person:log:2') };
      const manifest = await writeIndexes(dir, 'store-a', kinds);
      assert.equal(manifest.format, INDEX_FORMAT);
      assert.equal(manifest.generation, 1);
      const read = await readIndexes(dir, 'store-a');
      assert.deepEqual(read.problems, []);
      const kind = name === 'items' ? 'item' : 'person';
      assert.equal(read.manifest.kinds[kind].documents, index.size);
      const back = SearchIndex.fromImage(schema, read.sources[kind]);
      assert.equal(back.size, index.size);
      assert.equal(back.ordinals, index.ordinals);
      const reqs = requests(schema, wordsOf(index));
      assert.deepEqual(answers(back, reqs), answers(index, reqs));
      // The same changes to both: the same answers (ordinals, pools and ranks go on alike).
      for (const ix of [index, back]) {
        for (let i = 3000; i < 3600; i++) ix.upsert(doc(i));
        for (let i = 0; i < 3000; i += 13) ix.upsert({ ...doc(i + 500_000), id: doc(i).id });
        for (let i = 1; i < 3000; i += 17) ix.delete(doc(i).id);
        ix.refreshOrders(1024);
      }
      assert.deepEqual(answers(back, reqs), answers(index, reqs));
    });
    test(`${name}: indexes viewing one shared image answer as a private one, take changes alike, and never write the shared bytes`, async () => {
      const dir = tempDir();
      const index = build(schema, doc, 3000);
      const other = build(name === 'items' ? personSchema : itemSchema, name === 'items' ? personDoc : itemDoc, 200);
      const kind = name === 'items' ? 'item' : 'person';
      const kinds =
        name === 'items'
          ? { item: image(index, 'item:log:1'), person: image(other, 'person:log:2') }
          : { item: image(other, 'item:log:1'), person: image(index, 'person:log:2') };
      await writeIndexes(dir, 'store-a', kinds);
      const shared = await readSharedIndexes(dir, 'store-a');
      assert.deepEqual(shared.problems, []);
      assert.ok(shared.buffers[kind] instanceof SharedArrayBuffer);
      // Two threads' indexes over the same bytes (sharedSources is what a search worker calls), and one read privately.
      const a = SearchIndex.fromImage(schema, sharedSources({ manifest: shared.manifest, buffers: shared.buffers })[kind]);
      const b = SearchIndex.fromImage(schema, sharedSources({ manifest: shared.manifest, buffers: shared.buffers })[kind]);
      const own = SearchIndex.fromImage(schema, (await readIndexes(dir, 'store-a')).sources[kind]);
      const reqs = requests(schema, wordsOf(index));
      const before = answers(index, reqs);
      assert.deepEqual(answers(a, reqs), before);
      // What an index writes in place (live bits, per-term counts, ranks) is lent, not copied:
      // after searches both still view the shared bytes, one copy for the two.
      const lent = (ix: SearchIndex) => [ix.live.array, ix.termDocs.array, ix.idRanks.rank.array];
      for (const ix of [a, b]) for (const column of lent(ix)) assert.equal(column.buffer, shared.buffers[kind]);
      // Changes to one of them, the private one and the original, searched between the changes
      // (so that cached postings resume over chunks copied meanwhile): the same answers.
      for (const ix of [index, own, a]) {
        for (let i = 3000; i < 3300; i++) ix.upsert(doc(i));
        answers(ix, reqs.slice(0, 20));
        for (let i = 3300; i < 3600; i++) ix.upsert(doc(i));
        for (let i = 0; i < 3000; i += 13) ix.upsert({ ...doc(i + 500_000), id: doc(i).id });
        for (let i = 1; i < 3000; i += 17) ix.delete(doc(i).id);
        ix.refreshOrders(1024);
      }
      const changed = answers(index, reqs);
      assert.notDeepEqual(changed, before);
      assert.deepEqual(answers(own, reqs), changed);
      assert.deepEqual(answers(a, reqs), changed);
      // The other view saw none of it, and every shared byte is as written; the changed one
      // wrote into copies of its own.
      assert.deepEqual(answers(b, reqs), before);
      for (const column of lent(b)) assert.equal(column.buffer, shared.buffers[kind]);
      for (const column of lent(a)) assert.notEqual(column.buffer, shared.buffers[kind]);
      for (const k of ['item', 'person'] as const) {
        const bytes = new Uint8Array(shared.buffers[k]);
        for (const s of shared.manifest.kinds[k].sections)
          assert.equal(crc32(bytes.subarray(s.offset, s.offset + s.bytes)), s.crc32, `${k} section ${s.name} unchanged`);
      }
    });
  }

  test("over a shared image, new ids go into a table of the thread's own: the shared slots stay one copy, an image and a rebuild take both", async () => {
    const dir = tempDir();
    const index = build(itemSchema, itemDoc, 3000);
    const persons = build(personSchema, personDoc, 100);
    await writeIndexes(dir, 'store-a', { item: image(index, 'item:log:1'), person: image(persons, 'person:log:2') });
    const shared = await readSharedIndexes(dir, 'store-a');
    const a = SearchIndex.fromImage(itemSchema, sharedSources({ manifest: shared.manifest, buffers: shared.buffers }).item);
    assert.equal(a.byId.table.buffer, shared.buffers.item);
    const reqs = requests(itemSchema, wordsOf(index));
    // The same changes to both: new ids, ids upserted again, deleted (some of them after an upsert).
    const change = (ix: SearchIndex, from: number, to: number) => {
      for (let i = from; i < to; i++) ix.upsert(itemDoc(i));
      for (let i = 0; i < to; i += 13) ix.upsert({ ...itemDoc(i + 500_000), id: itemDoc(i).id });
      for (let i = 1; i < to; i += 17) ix.delete(itemDoc(i).id);
      ix.refreshOrders(1024);
    };
    const ids = (to: number) => Array.from({ length: to + 10 }, (_, i) => itemDoc(i).id);
    const sameIds = (ix: SearchIndex, to: number, what: string) => {
      for (const id of ids(to)) assert.equal(ix.byId.get(id), index.byId.get(id), `${what}: ${id}`);
    };
    for (const ix of [index, a]) change(ix, 3000, 3600);
    assert.equal(a.byId.table.buffer, shared.buffers.item, 'the shared slots are not copied');
    sameIds(a, 3600, 'in the table of its own');
    assert.deepEqual(answers(a, reqs), answers(index, reqs));
    // An image of the changed index holds both tables in one.
    const dir2 = tempDir();
    await writeIndexes(dir2, 'store-a', { item: image(a, 'item:log:3'), person: image(persons, 'person:log:2') });
    const back = SearchIndex.fromImage(itemSchema, (await readIndexes(dir2, 'store-a')).sources.item);
    sameIds(back, 3600, 'read back');
    assert.deepEqual(answers(back, reqs), answers(index, reqs));
    // Past two thirds of the shared slots, a rebuild takes the live ordinals of both into one of its own.
    const size = a.byId.table.length;
    for (const ix of [index, a]) change(ix, 3600, 3600 + size);
    assert.notEqual(a.byId.table.buffer, shared.buffers.item);
    sameIds(a, 3600 + size, 'after the rebuild');
    assert.deepEqual(answers(a, reqs), answers(index, reqs));
    const bytes = new Uint8Array(shared.buffers.item);
    for (const s of shared.manifest.kinds.item.sections)
      assert.equal(crc32(bytes.subarray(s.offset, s.offset + s.bytes)), s.crc32, `section ${s.name} unchanged`);
  });

  test('replicas over one shared image with room append to the one copy: per-document columns, multi-valued facets and ranks stay shared', async () => {
    const { index, shared, replica } = await itemReplicas();
    const [a, b] = [replica(), replica()];
    const multi = index.facets.flatMap((f, i) => (f.ids === null ? [] : [i]));
    assert.ok(multi.length > 0, 'the documents have a facet of several values');
    const ranks = (ix: SearchIndex) => [ix.idRanks.rank.array, ...ix.sortRanks.flatMap((r) => (r ? [r.rank.array] : []))];
    const appended = (ix: SearchIndex) => [ix.idHash.array, ...multi.map((i) => ix.facets[i]!.ids!.array), ...ranks(ix)];
    const reqs = requests(itemSchema, wordsOf(index));
    // The same new documents, in the same order, to every replica (and the original): fewer than the room holds.
    for (const ix of [index, a, b]) for (let i = 3000; i < 3200; i++) ix.upsert(itemDoc(i));
    for (const ix of [a, b]) {
      assert.deepEqual(answers(ix, reqs), answers(index, reqs));
      for (const column of appended(ix)) assert.equal(column.buffer, shared.buffers.item, 'appended in place');
    }
    // A refresh of the ranks rewrites every rank: into a copy of the replica's own, never the shared bytes.
    a.refreshOrders(0);
    for (const column of ranks(a)) assert.notEqual(column.buffer, shared.buffers.item, 'a refresh copies');
    for (const ix of [index, a, b]) for (let i = 3200; i < 3300; i++) ix.upsert(itemDoc(i));
    for (const ix of [a, b]) assert.deepEqual(answers(ix, reqs), answers(index, reqs));
    for (const column of ranks(b)) assert.equal(column.buffer, shared.buffers.item);
    const bytes = new Uint8Array(shared.buffers.item);
    for (const s of shared.manifest.kinds.item.sections)
      assert.equal(crc32(bytes.subarray(s.offset, s.offset + s.bytes)), s.crc32, `section ${s.name} unchanged`);
  });

  test("one replica's refresh of the ranks, in shared memory, is taken by the others: one copy, the same ranks, the same answers", async () => {
    const { index, shared, replica } = await itemReplicas();
    // a refreshes and shares; b takes it at once; c takes it late, after more documents
    const [a, b, c] = [replica(), replica(), replica()];
    const kinds = (ix: SearchIndex) => [ix.idRanks, ...ix.sortRanks.flatMap((r) => (r ? [r] : []))];
    const reqs = requests(itemSchema, wordsOf(index));
    const upsert = (ixs: SearchIndex[], from: number, to: number) => {
      for (const ix of ixs) for (let i = from; i < to; i++) ix.upsert(itemDoc(i));
    };
    upsert([index, a, b, c], 3000, 5200); // more than a catch-up's 1,024 half-ranked
    index.refreshOrders(1024);
    a.refreshOrders(1024, true);
    const refreshes = a.sharedRanks();
    assert.equal(refreshes.length, kinds(a).length, 'every order refreshed into shared memory');
    for (const { ranks } of refreshes) assert.ok(ranks.rank.buffer instanceof SharedArrayBuffer);
    assert.equal(b.adoptRanks(refreshes), refreshes.length);
    upsert([index, a, b, c], 5200, 5300);
    assert.equal(c.adoptRanks(refreshes), refreshes.length, 'taken behind new ordinals');
    assert.equal(c.adoptRanks(refreshes), 0, 'not twice');
    upsert([index, a, b, c], 5300, 5400);
    for (const ix of [a, b, c]) {
      // the numbers a refresh of its own would give, for every ordinal
      kinds(ix).forEach((r, k) => {
        const mine = kinds(index)[k]!;
        assert.deepEqual(r.rank.array.subarray(0, ix.ordinals), mine.rank.array.subarray(0, index.ordinals));
        assert.equal(r.stale, mine.stale);
      });
      assert.deepEqual(answers(ix, reqs), answers(index, reqs));
    }
    // one copy: b and c view a's refresh, and their new ordinals' ranks were written into it alike
    for (const ix of [b, c])
      kinds(ix).forEach((r, k) => assert.equal(r.rank.array.buffer, kinds(a)[k]!.rank.array.buffer, 'viewed in place'));
    // the others' later refresh of their own (a search's, past an eighth) copies as before
    upsert([index, a, b, c], 5400, 6400);
    b.refreshOrders(0);
    index.refreshOrders(0);
    for (const r of kinds(b)) assert.notEqual(r.rank.array.buffer, refreshes[0]!.ranks.rank.buffer);
    assert.deepEqual(answers(b, reqs), answers(index, reqs));
    assert.deepEqual(answers(c, reqs), answers(index, reqs));
    const bytes = new Uint8Array(shared.buffers.item);
    for (const s of shared.manifest.kinds.item.sections)
      assert.equal(crc32(bytes.subarray(s.offset, s.offset + s.bytes)), s.crc32, `section ${s.name} unchanged`);
  });

  test('an image holds the index as it was taken, while the index goes on changing under the writer', async () => {
    const dir = tempDir();
    const index = build(itemSchema, itemDoc, 2000);
    const persons = build(personSchema, personDoc, 100);
    const reqs = requests(itemSchema, wordsOf(index));
    const before = answers(index, reqs);
    const kinds = { item: image(index, 'item:log:9'), person: image(persons, 'person:log:9') };
    // changes after the image was taken and before the writer reads its sections
    for (let i = 2000; i < 6000; i++) index.upsert(itemDoc(i));
    for (let i = 0; i < 2000; i += 3) index.delete(itemDoc(i).id);
    index.refreshOrders(0);
    await writeIndexes(dir, 'store-a', kinds);
    const back = SearchIndex.fromImage(itemSchema, (await readIndexes(dir, 'store-a')).sources.item);
    assert.deepEqual(answers(back, reqs), before);
  });

  test('a segment read in pieces ahead of its checksums: the same index, and a damaged piece named', async () => {
    const dir = tempDir();
    const items = build(itemSchema, itemDoc, 2000);
    const persons = build(personSchema, personDoc, 300);
    await writeIndexes(dir, 'store-a', { item: image(items, 'item:log:1'), person: image(persons, 'person:log:1') });
    const reqs = requests(itemSchema, wordsOf(items));
    const want = answers(items, reqs);
    // pieces of an odd size: sections start and end within pieces, and span several
    for (const piece of [4099, 65_536, 2 ** 30]) {
      const shared = await readSharedIndexes(dir, 'store-a', false, piece);
      assert.deepEqual(shared.problems, [], `pieces of ${piece}`);
      const ix = SearchIndex.fromImage(itemSchema, sharedSources({ manifest: shared.manifest, buffers: shared.buffers }).item);
      assert.deepEqual(answers(ix, reqs), want, `pieces of ${piece}`);
    }
    // one byte changed in the last piece of a section that spans pieces
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000001.json'), 'utf8')) as {
      kinds: { item: { file: string; sections: Array<{ name: string; offset: number; bytes: number }> } };
    };
    const section = manifest.kinds.item.sections.find((s) => s.name === 'text.bytes')!;
    assert.ok(section.bytes > 3 * 4099, 'the section spans pieces');
    const seg = join(dir, manifest.kinds.item.file);
    const bytes = readFileSync(seg);
    bytes[section.offset + section.bytes - 1]! ^= 0x01;
    writeFileSync(seg, bytes);
    await assert.rejects(
      readSharedIndexes(dir, 'store-a', false, 4099),
      (e) => e instanceof IndexProblem && e.reason === 'damaged' && /item-000001-.*section text\.bytes fails its checksum/.test(e.message),
    );
  });

  test('another store, another format and damaged files are each told; a damaged newest generation falls back to the one before', async () => {
    const dir = tempDir();
    const items = build(itemSchema, itemDoc, 300);
    const persons = build(personSchema, personDoc, 300);
    const write = () => writeIndexes(dir, 'store-a', { item: image(items, 'item:log:1'), person: image(persons, 'person:log:1') });
    await assert.rejects(readIndexes(dir, 'store-a'), (e) => e instanceof IndexProblem && e.reason === 'missing');
    await write();
    await write();
    await write();
    // two generations are kept
    assert.deepEqual(
      readdirSync(dir)
        .filter((f) => /^manifest-\d+\.json$/.test(f))
        .sort(),
      ['manifest-000002.json', 'manifest-000003.json'],
    );
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.seg')).length, 4);

    await assert.rejects(
      readIndexes(dir, 'store-b'),
      (e) => e instanceof IndexProblem && e.reason === 'store' && /another store/.test(e.message),
    );

    // one byte of the newest item segment changed: the one before is read, and the damage named
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000003.json'), 'utf8')) as {
      kinds: { item: { file: string; sections: Array<{ name: string; offset: number; bytes: number }> } };
    };
    const section = manifest.kinds.item.sections.find((s) => s.name === 'text.bytes')!;
    const seg = join(dir, manifest.kinds.item.file);
    const bytes = readFileSync(seg);
    bytes[section.offset + Math.floor(section.bytes / 2)]! ^= 0x10;
    writeFileSync(seg, bytes);
    const fallback = await readIndexes(dir, 'store-a');
    assert.equal(fallback.manifest.generation, 2);
    assert.equal(fallback.problems.length, 1);
    assert.match(fallback.problems[0]!.message, /item-000003-[0-9a-f]{8}\.seg is damaged: section text\.bytes fails its checksum$/);

    // both damaged: the newest's damage is what is told
    const m2 = JSON.parse(readFileSync(join(dir, 'manifest-000002.json'), 'utf8')) as { kinds: { person: { file: string } } };
    writeFileSync(join(dir, m2.kinds.person.file), 'truncated');
    await assert.rejects(
      readIndexes(dir, 'store-a'),
      (e) => e instanceof IndexProblem && e.reason === 'damaged' && /item-000003-.*text\.bytes fails its checksum/.test(e.message),
    );

    // another format: not read, and the older generation is not tried
    const m3 = JSON.parse(readFileSync(join(dir, 'manifest-000003.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'manifest-000004.json'), JSON.stringify({ ...m3, format: INDEX_FORMAT + 1, generation: 4 }));
    await assert.rejects(
      readIndexes(dir, 'store-a'),
      (e) =>
        e instanceof IndexProblem &&
        e.reason === 'format' &&
        new RegExp(`of format ${INDEX_FORMAT + 1}; this version reads format ${INDEX_FORMAT}$`).test(e.message),
    );
  });
});

test('section offsets are aligned past 2 GiB and 4 GiB, where a 32-bit mask went negative', () => {
  for (const [n, aligned] of [
    [0, 0],
    [1, 64],
    [64, 64],
    [65, 128],
    [2 ** 31 - 1, 2 ** 31],
    [2 ** 31 + 1, 2 ** 31 + 64],
    [3_808_415_744 + 5, 3_808_415_744 + 64],
    [2 ** 32 + 100, 2 ** 32 + 128],
    [50 * 2 ** 30 + 1, 50 * 2 ** 30 + 64],
  ] as const) {
    assert.equal(alignedOffset(n), aligned, String(n));
  }
});
