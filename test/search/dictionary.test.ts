/**
 * Dictionaries restored from an index image (src/search/engine/dictionary.ts) read their
 * strings from front-coded blocks in shared memory (frontCoded.ts), with the strings added
 * since in the thread: ids, strings, prefixes and walks in code point order answer as a
 * dictionary built by hand, before and after additions and after an image of both parts, and
 * the shared bytes never change.
 */
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { it } from 'node:test';
import { DECODED_MAX, Dictionary } from '../../src/search/engine/dictionary.js';
import { BLOCK, FrontCoded } from '../../src/search/engine/frontCoded.js';
import { ArrayRun } from '../../src/search/engine/sortedRun.js';
import { ImageSink, ImageSource, type SectionType } from '../../src/search/engine/indexImage.js';
import { compareCodePoints } from '../../src/search/engine/order.js';

/** An image of the dictionary with its bytes in one SharedArrayBuffer, as a search worker gets it (indexFiles.ts sharedSources). */
function sharedImage(dict: Dictionary): { source: ImageSource; bytes: Uint8Array } {
  const sink = new ImageSink();
  dict.image(sink, 'd');
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
  return { source: new ImageSource(sink.values, sections, true), bytes };
}

let seed = 11;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
// Letters of one, two, three and four UTF-8 bytes (𝔘 and 𠀋 lie past U+FFFF: two UTF-16 units).
const LETTERS = ['a', 'b', 'c', 'e', 'z', '0', '9', 'ä', 'ß', 'é', 'ж', 'ー', '𝔘', '𠀋'];
const word = () => Array.from({ length: 1 + Math.floor(rnd() * 9) }, () => LETTERS[Math.floor(rnd() * LETTERS.length)]).join('');

/** Checks `dict` against `ids` (every string it must hold, with its id). */
function check(dict: Dictionary, ids: Map<string, number>): void {
  assert.equal(dict.size, ids.size);
  for (const [s, id] of ids) {
    assert.equal(dict.get(s), id, `get ${s}`);
    assert.equal(dict.string(id), s, `string ${id}`);
  }
  for (let q = 0; q < 400; q++) {
    const w = word();
    assert.equal(dict.get(w), ids.get(w), `get ${w}`);
  }
  const all = [...ids.keys()].sort(compareCodePoints);
  const { runs, recent } = dict.view();
  const walked: string[] = [...recent];
  for (const run of runs) {
    const a: string[] = [];
    for (let i = 0; i < run.length; i++) a.push(run.at(i));
    assert.deepEqual(a, [...a].sort(compareCodePoints), 'a run is in code point order');
    walked.push(...a);
  }
  assert.deepEqual(walked.sort(compareCodePoints), all);
  const prefixes = [
    '',
    'a',
    'ä',
    'ß',
    'z',
    '𝔘',
    'ba',
    'aaa',
    'q',
    '\uffff',
    ...Array.from({ length: 150 }, () => word().slice(0, 1 + Math.floor(rnd() * 3))),
  ];
  for (const p of prefixes) {
    const got = dict.withPrefix(
      p,
      () => true,
      Infinity,
      () => new Error('unreachable'),
    );
    const want = all.filter((s) => s.startsWith(p)).map((s) => ids.get(s)!);
    assert.deepEqual(got, want, `prefix ${p}`);
  }
  const byId = [...ids.entries()].sort((a, b) => a[1] - b[1]).map((e) => e[0]);
  const strings = dict.strings();
  assert.deepEqual(
    byId.map((_, id) => strings(id)),
    byId,
  );
  // ids compare as their strings do, image's and added alike
  for (let q = 0; q < 3000; q++) {
    const a = Math.floor(rnd() * byId.length);
    const b = Math.floor(rnd() * byId.length);
    assert.equal(Math.sign(dict.compareIds(a, b)), Math.sign(compareCodePoints(byId[a]!, byId[b]!)), `${byId[a]} ${byId[b]}`);
  }
}

it('a dictionary restored over shared memory answers as the one imaged, before and after additions and through a second image', () => {
  const dict = new Dictionary();
  const ids = new Map<string, number>();
  for (let i = 0; i < 5000; i++) {
    const w = word();
    const id = dict.intern(w);
    if (!ids.has(w)) ids.set(w, id);
    assert.equal(id, ids.get(w));
  }
  ids.set('', dict.intern(''));
  check(dict, ids);

  const { source, bytes } = sharedImage(dict);
  const crc = crc32(bytes);
  const restored = new Dictionary();
  restored.restore(source, 'd');
  check(restored, ids);

  // additions: known strings keep their ids, new ones follow, sorted and unsorted both
  for (let i = 0; i < 3000; i++) {
    const w = word() + word();
    const id = restored.intern(w);
    if (!ids.has(w)) ids.set(w, id);
    assert.equal(id, ids.get(w));
    if (i === 2000) restored.view(); // what came so far is sorted, the rest stays in the tail
  }
  assert.ok(restored.view().runs.length === 2 && restored.view().recent.length > 0);
  check(restored, ids);
  assert.equal(crc32(bytes), crc, 'the shared bytes are unchanged');

  const again = new Dictionary();
  again.restore(sharedImage(restored).source, 'd');
  assert.equal(again.view().runs.length, 1);
  check(again, ids);
});

it('a dictionary larger than DECODED_MAX gives each string by id without decoding them all', () => {
  const dict = new Dictionary();
  const ids = new Map<string, number>();
  while (ids.size <= DECODED_MAX + 100) {
    const w = word() + word();
    if (!ids.has(w)) ids.set(w, dict.intern(w));
  }
  const restored = new Dictionary();
  restored.restore(sharedImage(dict).source, 'd');
  for (let i = 0; i < 200; i++) {
    const w = `${word()}-${i}`;
    ids.set(w, restored.intern(w));
  }
  check(restored, ids);
});

it('front-coded runs find bounds and prefix ends as a sorted array does', () => {
  const strings = [...new Set(Array.from({ length: 3 * BLOCK * 40 + 7 }, word))].sort(compareCodePoints);
  const dict = new Dictionary();
  for (const s of strings) dict.intern(s);
  const restored = new Dictionary();
  restored.restore(sharedImage(dict).source, 'd');
  const run = restored.view().runs[0] as FrontCoded;
  const ref = new ArrayRun(strings);
  assert.equal(run.length, strings.length);
  for (let q = 0; q < 2000; q++) {
    const w = q % 3 === 0 ? strings[Math.floor(rnd() * strings.length)]!.slice(0, 1 + Math.floor(rnd() * 4)) : word();
    const lo = ref.lowerBound(w);
    assert.equal(run.lowerBound(w), lo, `lowerBound ${w}`);
    assert.equal(run.prefixEnd(lo, w, strings.length), ref.prefixEnd(lo, w, strings.length), `prefixEnd ${w}`);
    assert.equal(run.find(w), strings[lo] === w ? lo : undefined, `find ${w}`);
    // the same prefix as code units, cut anywhere (inside a surrogate pair too)
    const cut = Math.floor(rnd() * (w.length + 1));
    const units = Uint16Array.from({ length: cut }, (_, j) => w.charCodeAt(j));
    const from = ref.lowerBound(w.slice(0, cut));
    assert.equal(
      run.prefixEndUnits(from, units, cut, strings.length),
      ref.prefixEnd(from, w.slice(0, cut), strings.length),
      `prefixEndUnits ${w} ${cut}`,
    );
  }
  // code units by position: in order, backwards, and by jumps, after lookups in between
  const out = { units: new Uint16Array(1) };
  const read = (i: number) => {
    const n = run.unitsAt(i, out);
    return String.fromCharCode(...out.units.subarray(0, n));
  };
  for (let i = 0; i < strings.length; i++) assert.equal(read(i), strings[i], `unitsAt ${i}`);
  for (let i = strings.length - 1; i >= 0; i -= 7) assert.equal(read(i), strings[i], `unitsAt ${i} backwards`);
  for (let q = 0; q < 2000; q++) {
    const i = Math.floor(rnd() * strings.length);
    assert.equal(read(i), strings[i], `unitsAt ${i}`);
    if (q % 2 === 0) run.lowerBound(word());
    assert.equal(read(Math.min(i + 1, strings.length - 1)), strings[Math.min(i + 1, strings.length - 1)]);
  }
});

it('a damaged dictionary section is named on restore', () => {
  const dict = new Dictionary();
  for (const s of ['a', 'b', 'c']) dict.intern(s);
  const sink = new ImageSink();
  dict.image(sink, 'd');
  const sections = new Map<string, { type: SectionType; bytes: Uint8Array }>();
  for (const s of sink.sections) {
    const data = Buffer.concat([...s.pieces()].map((x) => Buffer.from(x)));
    const copy = new Uint8Array(new ArrayBuffer(data.length + (s.name === 'd.bytes' ? 1 : 0)));
    copy.set(data);
    sections.set(s.name, { type: s.type, bytes: copy });
  }
  assert.throws(() => new Dictionary().restore(new ImageSource(sink.values, sections), 'd'), /dictionary d: front-coded strings/);
});
