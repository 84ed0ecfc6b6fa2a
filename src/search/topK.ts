/**
 * The k rows with the smallest keys, in key order, without sorting all
 * hits: a bounded max-heap in typed arrays, O(n log k) with no allocation
 * per row. Rows with a key ≤ `after` are skipped (cursor paging).
 */
export function smallestK(rows: ArrayLike<number>, key: (row: number) => number, k: number, after = -Infinity): number[] {
  if (k <= 0) return [];
  const keys = new Float64Array(Math.min(k, rows.length));
  const vals = new Uint32Array(keys.length);
  const cap = keys.length;
  let size = 0;
  const siftDown = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && keys[l]! > keys[m]!) m = l;
      if (r < size && keys[r]! > keys[m]!) m = r;
      if (m === i) return;
      const tk = keys[i]!;
      keys[i] = keys[m]!;
      keys[m] = tk;
      const tv = vals[i]!;
      vals[i] = vals[m]!;
      vals[m] = tv;
      i = m;
    }
  };
  for (let n = 0; n < rows.length; n++) {
    const row = rows[n]!;
    const kv = key(row);
    if (kv <= after) continue;
    if (size < cap) {
      let i = size++;
      // Sift up.
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (keys[p]! >= kv) break;
        keys[i] = keys[p]!;
        vals[i] = vals[p]!;
        i = p;
      }
      keys[i] = kv;
      vals[i] = row;
    } else if (kv < keys[0]!) {
      keys[0] = kv;
      vals[0] = row;
      siftDown(0);
    }
  }
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]!);
  return order.map((i) => vals[i]!);
}
