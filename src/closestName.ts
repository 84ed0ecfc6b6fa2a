/**
 * "Did you mean …?" for names an operator typed: environment variables,
 * config file settings, so that a typo does not go unnoticed (docs/cli.md "Mistakes
 * and problems"). Commander does the same for
 * flags and commands; this is the counterpart for names it does not see.
 */

/** Edit distance with adjacent transpositions (optimal string alignment): "ACEPT" and "ACCEPT" are 1 apart, "prot" and "port" too. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[rows - 1]![cols - 1]!;
}

/**
 * The known name nearest to `name` (compared without case), or undefined
 * when none is near enough to be a plausible typo: at most 40 % of the
 * name's length apart, as commander's suggestions for flags.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toUpperCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toUpperCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(wanted.length * 0.4)) ? best : undefined;
}
