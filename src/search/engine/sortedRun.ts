/**
 * A run of strings in code point order read by position: the sorted parts of a dictionary
 * (dictionary.ts), front-coded in an index image (frontCoded.ts) or an array of the strings
 * added since.
 */
import { stringOfUnits, unitsOfString, type Units } from './codeUnits.js';
import { compareCodePoints } from './order.js';

/** A run of strings in code point order, read by position (nearTerms.ts, dictionary.ts). */
export interface SortedRun {
  readonly length: number;
  /** The string at position `i`. */
  at(i: number): string;
  /**
   * The UTF-16 code units of the string at position `i` into `out` from 0; their count. Makes
   * no string: a walk over many terms (nearTerms.ts) reads them this way, in order, so that a
   * search does not leave a heap of short strings behind (docs/search-engine.md "Dictionaries").
   */
  unitsAt(i: number, out: Units): number;
  /** The first position whose string is not below `s`. */
  lowerBound(s: string): number;
  /** From `from`, where the strings starting with `p` (a run in sorted order) end, at most `end`. */
  prefixEnd(from: number, p: string, end: number): number;
  /** prefixEnd for the prefix `units[0, n)`. */
  prefixEndUnits(from: number, units: Uint16Array, n: number, end: number): number;
}

/** A sorted array of JS strings as a SortedRun (a dictionary's strings added since its image). */
export class ArrayRun implements SortedRun {
  constructor(private readonly a: readonly string[]) {}

  get length(): number {
    return this.a.length;
  }

  at(i: number): string {
    return this.a[i]!;
  }

  unitsAt(i: number, out: Units): number {
    return unitsOfString(this.a[i]!, out);
  }

  prefixEndUnits(from: number, units: Uint16Array, n: number, end: number): number {
    return this.prefixEnd(from, stringOfUnits(units, n), end);
  }

  lowerBound(s: string): number {
    const a = this.a;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCodePoints(a[mid]!, s) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  prefixEnd(from: number, p: string, end: number): number {
    const a = this.a;
    let lo = from;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (a[mid]!.startsWith(p)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
