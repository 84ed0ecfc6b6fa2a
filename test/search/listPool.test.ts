/** The varint block pool under the search engine's postings (src/search/engine/listPool.ts). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ImageSink, ImageSource, type SectionType } from '../../src/search/engine/indexImage.js';
import { ListPool } from '../../src/search/engine/listPool.js';

it('gives back every value of many interleaved lists, across block and chunk boundaries', () => {
  const pool = new ListPool();
  const lists = 300;
  const want: number[][] = [];
  for (let l = 0; l < lists; l++) {
    assert.equal(pool.create(), l);
    want.push([]);
  }
  let x = 12345;
  const last = new Array<number>(lists).fill(0);
  // about 9 MB of varints: more than two 4 MiB chunks
  for (let i = 0; i < 3_000_000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const l = (x >>> 8) % (l0(i) ? 7 : lists); // a few long lists and many short ones
    const big = (x & 3) === 0;
    if (big) {
      const v = last[l]! + ((x >>> 4) % 5_000_000);
      pool.pushDelta(l, v);
      last[l] = v;
      want[l]!.push(-v - 1);
    } else {
      const v = x >>> 0;
      pool.push(l, v);
      want[l]!.push(v);
    }
  }
  for (let l = 0; l < lists; l++) {
    const r = pool.reader(l);
    const got: number[] = [];
    for (const w of want[l]!) {
      assert.ok(!r.done);
      got.push(w < 0 ? -r.readDelta() - 1 : r.read());
    }
    assert.ok(r.done, `list ${l} ends where it was written`);
    assert.deepEqual(got, want[l]);
  }
  assert.ok(pool.bytes > 8 * 2 ** 20);
});

function l0(i: number): boolean {
  return i % 2 === 0;
}

/** An image of the pool with its bytes in one SharedArrayBuffer, as a search worker gets it (indexFiles.ts sharedSources). */
function sharedImage(
  pool: ListPool,
  sink = new ImageSink(),
): { source: ImageSource; bytes: Uint8Array; names: string[]; sections: Map<string, { type: SectionType; bytes: Uint8Array }> } {
  pool.image(sink, 'p');
  const parts = sink.sections.map((s) => ({ s, data: Buffer.concat([...s.pieces()].map((x) => Buffer.from(x))) }));
  const size = parts.reduce((n, p) => n + ((p.data.length + 63) & ~63), 0);
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  const sections = new Map<string, { type: SectionType; bytes: Uint8Array }>();
  let at = 0;
  for (const { s, data } of parts) {
    bytes.set(data, at);
    sections.set(s.name, { type: s.type, bytes: bytes.subarray(at, at + data.length) });
    at += (data.length + 63) & ~63;
  }
  return { source: new ImageSource(sink.values, sections, true), bytes, names: [...sections.keys()], sections };
}

it('restored over shared memory, copies a chunk before writing into it: the shared bytes never change, every list reads back', () => {
  const pool = new ListPool();
  const lists = 2000;
  const want: number[][] = [];
  for (let l = 0; l < lists; l++) {
    pool.create();
    want.push([]);
  }
  let x = 777;
  const add = (p: ListPool, n: number) => {
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const l = (x >>> 8) % lists;
      p.push(l, x);
      want[l]!.push(x);
    }
  };
  add(pool, 2_000_000); // about 10 MB: three chunks, lists with open blocks in each
  const { source, bytes } = sharedImage(pool);
  const snapshot = Buffer.from(bytes.slice());
  const a = new ListPool();
  a.restore(source, 'p');
  const b = new ListPool();
  b.restore(source, 'p');
  const before = want.map((w) => w.slice());
  // A reader of a long list, done, then resumed after appends (as the postings cache does).
  const cached = a.reader(0);
  while (!cached.done) cached.read();
  add(a, 300_000);
  for (let l = 0; l < lists; l++) {
    const r = a.reader(l);
    const got: number[] = [];
    while (!r.done) got.push(r.read());
    assert.deepEqual(got, want[l], `list ${l} of the pool written after its restore`);
  }
  cached.resume();
  const tail: number[] = [];
  while (!cached.done) tail.push(cached.read());
  assert.deepEqual(tail, want[0]!.slice(before[0]!.length), 'a resumed reader reads what was appended to a copied chunk');
  for (let l = 0; l < lists; l++) {
    const r = b.reader(l);
    const got: number[] = [];
    while (!r.done) got.push(r.read());
    assert.deepEqual(got, before[l], `list ${l} of the other pool over the same bytes`);
  }
  assert.ok(Buffer.from(bytes).equals(snapshot), 'the shared bytes are as written');
  assert.ok(bytes.length > 8 * 2 ** 20);
});

it('a pool of more bytes than a section holds is written in several sections of whole chunks and reads back', () => {
  const pool = new ListPool();
  const lists = 500;
  const want: number[][] = Array.from({ length: lists }, () => []);
  for (let l = 0; l < lists; l++) pool.create();
  let x = 4242;
  for (let i = 0; i < 2_000_000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const l = (x >>> 8) % lists;
    pool.push(l, x);
    want[l]!.push(x);
  }
  // 5 MiB a section: each 4 MiB chunk alone in its own (the server writes 1 GiB: indexImage.ts SECTION_BYTES)
  const { source, names, sections } = sharedImage(pool, new ImageSink(5 * 2 ** 20));
  const chunks = source.value<number>('p.chunks');
  assert.ok(chunks >= 3);
  assert.deepEqual(
    names.filter((n) => n.startsWith('p.bytes')),
    Array.from({ length: chunks }, (_, k) => (k === 0 ? 'p.bytes' : `p.bytes#${k}`)),
  );
  const back = new ListPool();
  back.restore(source, 'p');
  for (let l = 0; l < lists; l++) {
    const r = back.reader(l);
    const got: number[] = [];
    while (!r.done) got.push(r.read());
    assert.deepEqual(got, want[l], `list ${l}`);
  }
  // A section missing is a damaged image, not a shorter pool.
  const { source: whole } = sharedImage(pool);
  assert.equal(whole.has('p.bytes#1'), false);
  sections.delete(`p.bytes#${chunks - 1}`);
  assert.throws(() => new ListPool().restore(new ImageSource(source.values, sections), 'p'), /section p\.bytes/);
});

it('writes and reads lists at addresses past 4 GiB and 32 GiB, where 32-bit byte addresses wrapped around', () => {
  // The pool's first block in chunk 1,100 (4.3 GiB) or 8,200 (32 GiB); the chunks below stand
  // empty, so the test holds only what it writes (ListPool's `firstChunk`).
  for (const firstChunk of [1_100, 8_200]) {
    const pool = new ListPool(firstChunk);
    const lists = 400;
    const want: number[][] = Array.from({ length: lists }, () => []);
    for (let l = 0; l < lists; l++) pool.create();
    let x = 99;
    // about 9 MB: blocks of every level, links across three chunks, all above 2^32
    for (let i = 0; i < 2_000_000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const l = (x >>> 8) % (i % 3 === 0 ? 3 : lists);
      pool.push(l, x);
      want[l]!.push(x);
    }
    const cached = pool.reader(1);
    while (!cached.done) cached.read();
    for (let l = 0; l < lists; l++) {
      const r = pool.reader(l);
      const got: number[] = [];
      while (!r.done) got.push(r.read());
      assert.deepEqual(got, want[l], `list ${l} from chunk ${firstChunk}`);
    }
    const before = want[1]!.length;
    for (let i = 0; i < 50_000; i++) {
      pool.push(1, i * 7919);
      want[1]!.push(i * 7919);
    }
    cached.resume();
    const tail: number[] = [];
    while (!cached.done) tail.push(cached.read());
    assert.deepEqual(tail, want[1]!.slice(before), 'a resumed reader reads on past 4 GiB');
    assert.ok(pool.bytes >= 8 * 2 ** 20 && pool.bytes < 64 * 2 ** 20, 'the empty chunks below are not counted');
  }
});

it('refuses a block past 64 GiB, all that 32-bit slot numbers reach, rather than wrap onto another list', () => {
  const pool = new ListPool(16_383); // the last chunk 32-bit slots reach
  pool.create();
  assert.throws(() => {
    for (let i = 0; i < 2_000_000; i++) pool.push(0, 0xffffffff);
  }, /64 GiB of postings in one pool/);
});
