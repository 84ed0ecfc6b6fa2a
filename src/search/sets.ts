/**
 * Sets of row numbers as sorted, duplicate-free Uint32Arrays: the currency
 * of the entity search. Boolean queries become merges of these arrays.
 */
export type RowSet = Uint32Array;

export const EMPTY: RowSet = new Uint32Array(0);

export function intersect(a: RowSet, b: RowSet): RowSet {
  if (a.length > b.length) [a, b] = [b, a];
  const out = new Uint32Array(a.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j < b.length && b[j] === x) out[n++] = x;
  }
  return out.subarray(0, n);
}

export function union(a: RowSet, b: RowSet): RowSet {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) out[n++] = a[i++]!;
    else if (y < x) out[n++] = b[j++]!;
    else {
      out[n++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out.subarray(0, n);
}

/** a without b. */
export function difference(a: RowSet, b: RowSet): RowSet {
  const out = new Uint32Array(a.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j >= b.length || b[j] !== x) out[n++] = x;
  }
  return out.subarray(0, n);
}
