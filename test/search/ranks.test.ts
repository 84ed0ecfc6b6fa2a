/** Ranks of string sort keys (src/search/engine/ranks.ts): the full merge and the few-strings insert agree with the strings' order. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { RankedStrings } from '../../src/search/engine/ranks.js';
import { StringColumn } from '../../src/search/engine/stringColumn.js';

/** Every ordinal's rank against every string: monotone, equal integer ranks = equal strings, and after a refresh the rank names its string. */
function check(ranks: RankedStrings, col: StringColumn, n: number, refreshed: boolean): void {
  const ords = Array.from({ length: n }, (_, d) => d).filter((d) => col.has(d));
  const r = ranks.rank.array;
  ords.sort((a, b) => compareCodePoints(col.get(a)!, col.get(b)!));
  for (let k = 1; k < ords.length; k++) {
    const a = ords[k - 1]!;
    const b = ords[k]!;
    const c = compareCodePoints(col.get(a)!, col.get(b)!);
    assert.ok(r[a]! <= r[b]!, `rank of ${col.get(a)} (${r[a]}) above ${col.get(b)} (${r[b]})`);
    if (Number.isInteger(r[a]) && r[a] === r[b]) assert.equal(c, 0, `${col.get(a)} and ${col.get(b)} share rank ${r[a]}`);
    if (Number.isInteger(r[a]) && Number.isInteger(r[b]) && c === 0) assert.equal(r[a], r[b]);
  }
  for (let d = 0; d < n; d++) {
    if (!col.has(d)) assert.ok(Number.isNaN(r[d]));
    else if (refreshed) {
      assert.ok(Number.isInteger(r[d]), `ordinal ${d} has rank ${r[d]} after a refresh`);
      assert.equal(ranks.distinct(r[d]!), col.get(d));
    }
  }
  if (refreshed) assert.equal(ranks.size, new Set(ords.map((d) => col.get(d))).size);
}

it('keeps ranks in string order through large merges and small inserts, duplicates and surrogates included', () => {
  let x = 7;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8;
  const alphabet = ['a', 'b', 'ä', 'z', '𝔄', '\uffff', ' '];
  const word = () => Array.from({ length: 1 + (next() % 3) }, () => alphabet[next() % alphabet.length]).join('');
  const col = new StringColumn();
  const ranks = new RankedStrings(col);
  let n = 0;
  const add = (count: number) => {
    for (let k = 0; k < count; k++, n++) {
      col.set(n, next() % 10 === 0 ? undefined : word());
      ranks.set(n);
    }
  };
  add(3000);
  check(ranks, col, n, false);
  ranks.refresh(n); // the full merge (nothing known yet)
  check(ranks, col, n, true);
  for (const count of [1, 5, 40, 2000, 17, 3]) {
    add(count); // few into many: the binary-search insert; 2000 into 3000: the merge
    check(ranks, col, n, false);
    ranks.refresh(n);
    check(ranks, col, n, true);
  }
});

it('inserts new strings among many without decoding the known ones, as the merge would rank them', () => {
  const words = (seed: number, count: number) => Array.from({ length: count }, (_, k) => `w${((k * 7919 + seed) % 100_003).toString(36)}`);
  const build = (batches: string[][]) => {
    const col = new StringColumn();
    const ranks = new RankedStrings(col);
    let n = 0;
    for (const batch of batches) {
      for (const w of batch) {
        col.set(n, w);
        ranks.set(n++);
      }
      ranks.refresh(n);
    }
    return { ranks, n };
  };
  const first = words(1, 50_000);
  const added = [...words(2, 30), first[17]!, first[17]!, 'w0', '~last', ''];
  const few = build([first, added]); // 35 into 50,000: insertFew
  const once = build([[...first, ...added]]); // all at once: the merge
  assert.equal(few.ranks.size, once.ranks.size);
  assert.deepEqual(few.ranks.rank.array.subarray(0, few.n), once.ranks.rank.array.subarray(0, once.n));
});
