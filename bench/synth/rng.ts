/**
 * Seeded randomness for the synthetic data set (bench/data.ts): a 32-bit PRNG,
 * per-record seeds so that every record is a pure function of (seed, stream,
 * index) and can be made in any order or thread, and samplers for skewed
 * (Zipf-like) and empirical distributions.
 */

/** Avalanche mix of a 32-bit integer (the MurmurHash3 finaliser); a bijection on 32 bits. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit seed for record `index` of `stream` under the run's `seed`. */
export function seedFor(seed: number, stream: number, index: number): number {
  return mix32(mix32(mix32(seed ^ 0x9e3779b9) ^ Math.imul(stream + 1, 0x7feb352d)) ^ index);
}

/** Mulberry32: small, fast, good enough for synthetic data (not for anything secret). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static for(seed: number, stream: number, index: number): Rng {
    return new Rng(seedFor(seed, stream, index));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A full 32-bit unsigned integer. */
  u32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [lo, hi], both included. */
  between(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)] as T;
  }

  /** Integer in [lo, hi] skewed towards lo: lo + (hi-lo) * u^power. */
  skewed(lo: number, hi: number, power: number): number {
    return lo + Math.floor((hi - lo + 1) * Math.pow(this.next(), power));
  }

  /** Integer in [lo, hi], uniform in log space (as many 10–100 as 100–1000). */
  logUniform(lo: number, hi: number): number {
    return Math.min(hi, Math.floor(Math.exp(Math.log(lo) + this.next() * (Math.log(hi + 1) - Math.log(lo)))));
  }
}

/** Index of the first cumulative weight greater than u (cum is ascending). */
function search(cum: Float64Array, u: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cum[mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Zipf–Mandelbrot over ranks 0..n-1: P(rank r) ∝ (r + 1 + q)^-s. With q = 0 it is
 * plain Zipf (the most common term takes 1/H(n,s) of all draws); a positive q
 * flattens the head (surnames: the most common is ~0.5 %, not ~13 %).
 */
export class Zipf {
  private readonly cum: Float64Array;
  private readonly total: number;

  constructor(
    readonly n: number,
    readonly s: number,
    readonly q = 0,
  ) {
    this.cum = new Float64Array(n);
    let sum = 0;
    for (let r = 0; r < n; r++) {
      sum += Math.pow(r + 1 + q, -s);
      this.cum[r] = sum;
    }
    this.total = sum;
  }

  /** Share of all draws that rank r gets. */
  share(r: number): number {
    return Math.pow(r + 1 + this.q, -this.s) / this.total;
  }

  sample(rng: Rng): number {
    if (this.n === 0) throw new Error('Zipf over an empty vocabulary');
    return search(this.cum, rng.next() * this.total);
  }
}

/** Draws value v with probability weights[v] / sum(weights) (an empirical histogram). */
export class Discrete {
  private readonly cum: Float64Array;
  private readonly total: number;

  constructor(weights: readonly number[]) {
    this.cum = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += w;
      this.cum[i] = sum;
    });
    this.total = sum;
  }

  sample(rng: Rng): number {
    return search(this.cum, rng.next() * this.total);
  }
}
