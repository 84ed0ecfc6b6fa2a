/** The varint block pool under the search engine's postings (src/search/engine/listPool.ts). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
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
