/**
 * Wildcard matching of one word against a pattern of `*` (any run of
 * characters, also none) and `?` (exactly one character), without
 * backtracking (issue #13, point 1).
 *
 * A regular expression built from the pattern (`.*` per `*`) backtracks:
 * `*?*?*?…z` against a long word takes exponential time, and 33 repeats of
 * it held the server for 55 s. Here a match is the classic two-pointer scan
 * that, on a mismatch, only moves the last `*` on by one character: at most
 * (word length × pattern length) steps, whatever the pattern. Runs of `*`
 * and `?` are first put in a normal form (`*?*?` → `??*`: the same words
 * match), and a word shorter than the pattern's fixed characters is refused
 * before any scan, so hostile patterns cost a length comparison per word.
 *
 * Characters are Unicode code points, as `?` means one letter of the word.
 */
export interface Glob {
  /** The fewest code points a matching word has. */
  readonly minLength: number;
  /** The most code points a matching word has: Infinity when the pattern has a `*`. */
  readonly maxLength: number;
  matches(word: string): boolean;
}

const STAR = '*';
const ONE = '?';
const SURROGATE = /[\uD800-\uDFFF]/;

/** `pattern` is plain text with `*` and `?` as wildcards (no escapes: a folded word has neither). */
export function compileGlob(pattern: string): Glob {
  const p = normalize(Array.from(pattern));
  let fixed = 0;
  let stars = false;
  for (const c of p) {
    if (c === STAR) stars = true;
    else fixed++;
  }
  const minLength = fixed;
  const maxLength = stars ? Infinity : fixed;
  return {
    minLength,
    maxLength,
    matches(word: string): boolean {
      // Code units ≥ code points: too few units is too few letters, without counting them.
      if (word.length < minLength) return false;
      const s: ArrayLike<string> = SURROGATE.test(word) ? Array.from(word) : word;
      if (s.length < minLength || s.length > maxLength) return false;
      return scan(s, p);
    },
  };
}

/** In every run of `*` and `?`: the `?`s first, then one `*` if the run had any. */
function normalize(chars: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    if (c !== STAR && c !== ONE) {
      out.push(c);
      i++;
      continue;
    }
    let star = false;
    for (; i < chars.length && (chars[i] === STAR || chars[i] === ONE); i++) {
      if (chars[i] === STAR) star = true;
      else out.push(ONE);
    }
    if (star) out.push(STAR);
  }
  return out;
}

/**
 * The greedy scan: advance on equal characters and `?`; at a `*`, remember
 * where it stands and let it match nothing; on a mismatch, let the last `*`
 * take one more character and resume after it. Earlier stars never need to
 * be revisited, since the last one can absorb anything they could.
 */
function scan(s: ArrayLike<string>, p: readonly string[]): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let resume = 0;
  while (i < s.length) {
    const c = p[j];
    if (c !== undefined && c !== STAR && (c === ONE || c === s[i])) {
      i++;
      j++;
    } else if (c === STAR) {
      star = j++;
      resume = i;
    } else if (star >= 0) {
      j = star + 1;
      i = ++resume;
    } else {
      return false;
    }
  }
  while (p[j] === STAR) j++;
  return j === p.length;
}
