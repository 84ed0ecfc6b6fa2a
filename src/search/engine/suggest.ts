/**
 * Prefix completion over the first text field's first value (items: the title; persons:
 * the preferred name), for /search/suggest and /search/person/suggest (docs/search-engine.md
 * "Suggestions"). Target: p99 ≤ 5 ms at a million documents.
 *
 * It reads what the index keeps for ordering: the string sort key of that field (the
 * folded first value) and its ranks (ranks.ts), whose `distinct` strings are sorted, so
 * the keys with a prefix are one range found by binary search. What it adds is small:
 *   - per distinct key of the last rank refresh, the ordinals that have it (a counting
 *     sort of the rank array: two Uint32Arrays, rankLists.ts, shared with the pages of
 *     `*:*`), so that a live one gives the original text to show (SearchIndex.displays);
 *     rebuilt when the ranks are refreshed, or when more than 4,096 ordinals have been
 *     added since (an upsert of a document whose title is already known gets an integer
 *     rank without a refresh);
 *   - the ordinals not covered by that (added since the rebuild, or given a half rank)
 *     are read one by one: at most REBUILD_AFTER plus the ranks' pending ones, which a
 *     caught-up feed keeps at 1024 or fewer (feed.ts).
 *
 * Answer: the original texts of the first `limit` distinct keys with the prefix, in
 * code point order of the folded key (so "Goethe" and "GOETHE" are one suggestion, shown
 * as the first live document that has it); an empty prefix suggests nothing.
 */
import { fold } from './fold.js';
import { compareCodePoints } from './order.js';
import type { RankedStrings } from './ranks.js';
import type { SearchIndex } from './SearchIndex.js';

/** Half-ranked ordinals read one by one before the ranks are refreshed. */
const REBUILD_AFTER = 4096;

export class Suggester {
  constructor(
    private readonly index: SearchIndex,
    /** The string sort key holding the folded display text. */
    private readonly key: number,
  ) {}

  suggest(prefix: string, limit: number): string[] {
    const p = fold(prefix);
    if (p === '' || limit <= 0) return [];
    const ranks = this.index.sortRanks[this.key]!;
    if (ranks.stale > REBUILD_AFTER) ranks.refresh(this.index.ordinals);
    const groups = this.index.rankLists(this.key).groups();
    const found = new Map<string, string>();
    this.fromRanks(ranks, groups, p, limit, found);
    this.fromRecent(ranks, groups.built, p, found);
    return [...found]
      .sort((a, b) => compareCodePoints(a[0], b[0]))
      .slice(0, limit)
      .map(([, display]) => display);
  }

  /** The first `limit` keys with the prefix among the ranked ones that a live document has. */
  private fromRanks(
    ranks: RankedStrings,
    groups: { byRank: Uint32Array; start: Uint32Array },
    p: string,
    limit: number,
    found: Map<string, string>,
  ): void {
    const { byRank, start } = groups;
    const size = ranks.size;
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCodePoints(ranks.distinct(mid), p) < 0) lo = mid + 1;
      else hi = mid;
    }
    const live = this.index.live.array;
    const displays = this.index.displays;
    let taken = 0;
    for (let r = lo; r < size && taken < limit; r++) {
      const key = ranks.distinct(r);
      if (!key.startsWith(p)) break;
      if (r + 1 >= start.length) break; // a key of a newer generation than the lists
      for (let k = start[r]!; k < start[r + 1]!; k++) {
        const d = byRank[k]!;
        const display = displays.get(d);
        if (live[d] === 1 && display !== undefined) {
          found.set(key, display);
          taken++;
          break;
        }
      }
    }
  }

  /** Keys of the ordinals the lists do not cover: added since the rebuild, or half-ranked. */
  private fromRecent(ranks: RankedStrings, built: number, p: string, found: Map<string, string>): void {
    const strings = this.index.sortStrings[this.key]!;
    const live = this.index.live.array;
    const displays = this.index.displays;
    const consider = (d: number) => {
      if (live[d] !== 1) return;
      const s = strings.get(d);
      const display = displays.get(d);
      if (s !== undefined && display !== undefined && live[d] === 1 && s.startsWith(p) && !found.has(s)) found.set(s, display);
    };
    for (const d of ranks.pendingOrdinals()) consider(d);
    for (let d = built; d < this.index.ordinals; d++) consider(d);
  }
}
