/**
 * The k rows with the smallest keys, in key order, without sorting all
 * hits: a bounded max-heap, O(n log k). Keys must be unique per row (ties
 * are broken by the caller when it builds the key).
 */
export function smallestK(rows: ArrayLike<number>, key: (row: number) => number, k: number, after = -Infinity): number[] {
  if (k <= 0) return [];
  const heapKeys: number[] = [];
  const heapRows: number[] = [];
  const swap = (i: number, j: number) => {
    [heapKeys[i], heapKeys[j]] = [heapKeys[j]!, heapKeys[i]!];
    [heapRows[i], heapRows[j]] = [heapRows[j]!, heapRows[i]!];
  };
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const kv = key(row);
    if (kv <= after) continue;
    if (heapKeys.length < k) {
      heapKeys.push(kv);
      heapRows.push(row);
      for (let i = heapKeys.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (heapKeys[p]! >= heapKeys[i]!) break;
        swap(i, p);
        i = p;
      }
    } else if (kv < heapKeys[0]!) {
      heapKeys[0] = kv;
      heapRows[0] = row;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const rr = l + 1;
        let m = i;
        if (l < k && heapKeys[l]! > heapKeys[m]!) m = l;
        if (rr < k && heapKeys[rr]! > heapKeys[m]!) m = rr;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  const order = heapKeys.map((kv, i) => [kv, heapRows[i]!] as const).sort((a, b) => a[0] - b[0]);
  return order.map((x) => x[1]);
}
