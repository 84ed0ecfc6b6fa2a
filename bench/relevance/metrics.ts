/**
 * The measures of the relevance benchmark (./README.md "Measures"): nDCG at a depth with
 * the gain 2^grade − 1 and the discount log2(rank + 1) (Järvelin and Kekäläinen), the
 * ideal ranking made of all judged grades; recall at a depth over the documents graded 1
 * or more.
 */

export function ndcgAt(ranked: readonly string[], judged: Readonly<Record<string, number>>, depth: number): number {
  const gain = (g: number) => 2 ** g - 1;
  let dcg = 0;
  ranked.slice(0, depth).forEach((id, i) => {
    dcg += gain(judged[id] ?? 0) / Math.log2(i + 2);
  });
  const ideal = Object.values(judged)
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, depth);
  let idcg = 0;
  ideal.forEach((g, i) => {
    idcg += gain(g) / Math.log2(i + 2);
  });
  return idcg === 0 ? 0 : dcg / idcg;
}

export function recallAt(ranked: readonly string[], judged: Readonly<Record<string, number>>, depth: number): number {
  const relevant = Object.keys(judged).filter((id) => judged[id]! > 0);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, depth));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}
