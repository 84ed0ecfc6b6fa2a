/** One string per ordinal as UTF-8 bytes in a pool of chunks (src/search/engine/stringColumn.ts). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ImageSink, ImageSource, type SectionType } from '../../src/search/engine/indexImage.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { StringColumn } from '../../src/search/engine/stringColumn.js';

/** Strings of every length class: empty, ASCII, multi-byte and astral, one longer than a 1 MiB chunk. */
function strings(seed: number, n: number): Array<string | undefined> {
  let x = seed;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  const alphabet = ['a', 'z', 'Ä', 'ß', 'é', '中', '😀', ' ', '0'];
  const out: Array<string | undefined> = [];
  for (let i = 0; i < n; i++) {
    if (rnd() % 17 === 0) {
      out.push(undefined);
      continue;
    }
    const len = i === 7 ? 1_200_000 : rnd() % 5 === 0 ? rnd() % 300 : rnd() % 40;
    let s = '';
    for (let k = 0; k < len; k++) s += alphabet[rnd() % alphabet.length];
    out.push(s);
  }
  return out;
}

function check(column: StringColumn, want: Array<string | undefined>, label: string): void {
  want.forEach((s, ord) => {
    assert.equal(column.has(ord), s !== undefined, `${label}: has ${ord}`);
    assert.equal(column.get(ord), s, `${label}: string of ${ord}`);
  });
  const some = want.map((s, ord) => [s, ord] as const).filter(([s]) => s !== undefined);
  for (let k = 1; k < some.length; k++) {
    const [a, oa] = some[k - 1]!;
    const [b, ob] = some[k]!;
    assert.equal(Math.sign(column.compare(oa, ob)), Math.sign(compareCodePoints(a!, b!)), `${label}: order of ${oa}, ${ob}`);
    const { buf, len } = column.encode(Array.from(b!).slice(0, 3).join(''));
    assert.equal(column.startsWith(ob, buf, len), true, `${label}: ${ob} starts with its first letters`);
  }
}

it('gives back every string, in code point order, after an image and past a chunk longer than the rest', () => {
  const want = strings(5, 30_000);
  const column = new StringColumn();
  want.forEach((s, ord) => column.set(ord, s));
  check(column, want, 'written');
  const sink = new ImageSink();
  column.image(sink, 's', want.length);
  const sections = new Map<string, { type: SectionType; bytes: Uint8Array }>();
  for (const s of sink.sections) sections.set(s.name, { type: s.type, bytes: Buffer.concat([...s.pieces()].map((p) => Buffer.from(p))) });
  const back = new StringColumn();
  back.restore(new ImageSource(sink.values, sections), 's');
  check(back, want, 'restored');
});

it('names strings past 4 GiB, where 32-bit byte addresses wrapped around', () => {
  // The first string in chunk 4,200 (4.1 GiB) or 16,000 (15.6 GiB); the chunks below stand
  // empty (StringColumn's `firstChunk`).
  for (const firstChunk of [4_200, 16_000]) {
    const want = strings(firstChunk, 20_000);
    const column = new StringColumn(firstChunk);
    want.forEach((s, ord) => column.set(ord, s));
    check(column, want, `from chunk ${firstChunk}`);
  }
});

it('refuses strings past 16 GiB rather than wrap onto others', () => {
  const column = new StringColumn(16_383);
  assert.throws(() => {
    for (let ord = 0; ord < 100; ord++) column.set(ord, 'x'.repeat(400_000));
  }, /more than 16 GiB of strings/);
});
