/**
 * The first hits of every live document in the order of a string sort key (or of the id), without
 * ordering them all (measured in the bench): `*:*` by relevance (all scores equal, so the
 * items' tiebreak, the title, orders) and its cursor pages through 100,000 hits filled a
 * key for each of a million hits and scanned them all for 20.
 *
 * The ordinals are kept grouped by integer rank (ranks.ts; a counting sort, rebuilt when
 * the ranks are refreshed or many ordinals were added since); suggest.ts reads the same
 * groups for the first live document of a key. A page
 * then needs only the groups from the cursor's rank on until they hold enough live
 * documents, plus every ordinal the groups do not cover (half-ranked or newer). Those are
 * candidates: the caller orders them exactly as it would all hits, so the answer is the
 * same; a document outside them has a greater rank than enough documents inside.
 */
import type { RankedStrings } from './ranks.js';
import type { SearchIndex } from './SearchIndex.js';

/** Ordinals not covered by the groups (added since the rebuild) before it is rebuilt. */
const REBUILD_AFTER = 4096;

export class RankLists {
  private generation = -1;
  /** Ordinals below this were in the counting sort. */
  private built = 0;
  /** Ordinals of integer rank r: byRank[start[r] .. start[r + 1]). */
  private byRank = new Uint32Array(0);
  private start = new Uint32Array(1);

  constructor(
    private readonly index: SearchIndex,
    /** The ranks of a string sort key (SearchIndex.sortRanks), or of the ids. */
    private readonly ranks: RankedStrings,
  ) {}

  /**
   * The groups, up to date: the ordinals of integer rank r are byRank[start[r] .. start[r + 1]);
   * ordinals from `built` on are in none (nor are half-ranked ones: ranks.pendingOrdinals()).
   */
  groups(): { byRank: Uint32Array; start: Uint32Array; built: number } {
    const ranks = this.ranks;
    if (ranks.generation !== this.generation || this.index.ordinals - this.built > REBUILD_AFTER) this.rebuild();
    return { byRank: this.byRank, start: this.start, built: this.built };
  }

  /**
   * Live ordinals, ascending, among which are the first `need` live documents in ascending
   * order of the key whose value is not below `from` (undefined: from the first); with
   * `keep`, of the live documents it keeps (a filter), and only those. Undefined when that
   * cannot be told from the groups (too few documents with a value): order all.
   */
  candidates(need: number, from: string | undefined, keep?: (d: number) => boolean): Uint32Array | undefined {
    const ix = this.index;
    const ranks = this.ranks;
    this.groups();
    const size = ranks.size;
    const first = from === undefined ? 0 : Math.max(0, Math.floor(ranks.rankOf(from)));
    const live = ix.live.array;
    const out: number[] = [];
    let counted = 0;
    let r = first;
    for (; r < size && counted < need; r++) {
      const before = out.length;
      for (let k = this.start[r]!; k < this.start[r + 1]!; k++) {
        const d = this.byRank[k]!;
        if (live[d] === 1 && (keep === undefined || keep(d))) out.push(d);
      }
      // The group of the cursor's own value may lie before the cursor: it does not count.
      if (r !== first || from === undefined) counted += out.length - before;
    }
    if (counted < need) return undefined;
    // Not in the groups: half-ranked since the last refresh, or added since the rebuild.
    const rank = ranks.rank.array;
    const kept = (d: number) => keep === undefined || keep(d);
    for (const d of ranks.pendingOrdinals()) if (live[d] === 1 && d < this.built && kept(d)) out.push(d);
    for (let d = this.built; d < ix.ordinals; d++) if (live[d] === 1 && rank[d] === rank[d] && kept(d)) out.push(d);
    const docs = Uint32Array.from(out);
    docs.sort();
    // A pending ordinal may also be newer than the rebuild: once only.
    let n = 0;
    for (let i = 0; i < docs.length; i++) if (i === 0 || docs[i] !== docs[i - 1]) docs[n++] = docs[i]!;
    return docs.subarray(0, n);
  }

  /** Counting sort of the ordinals by integer rank. */
  private rebuild(): void {
    const ix = this.index;
    const ranks = this.ranks;
    const n = ix.ordinals;
    const rank = ranks.rank.readable(n);
    const size = ranks.size;
    const start = new Uint32Array(size + 1);
    for (let d = 0; d < n; d++) {
      const r = rank[d]!;
      if (r === Math.floor(r)) start[r + 1]!++; // NaN (none) and half ranks fail the test
    }
    for (let r = 0; r < size; r++) start[r + 1]! += start[r]!;
    const fill = start.slice(0, size);
    const byRank = new Uint32Array(start[size]!);
    for (let d = 0; d < n; d++) {
      const r = rank[d]!;
      if (r === Math.floor(r)) byRank[fill[r]!++] = d;
    }
    this.byRank = byRank;
    this.start = start;
    this.built = n;
    this.generation = ranks.generation;
  }
}
