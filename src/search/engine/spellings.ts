/**
 * How the documents spell a term when not as the term itself (issue #18): the vocabulary is
 * folded (`zurich`, `padagoge`), but a German reader offered a correction expects `Zürich`
 * and `Pädagoge`. Kept only for terms some document spells otherwise (diacritics, ß), as
 * the number of documents per spelling (lower case, NFC); the documents that spell a term as
 * the term are the rest of those indexed with it (SearchIndex.termDocs); a document counts
 * once per term, for the first other spelling it has. Like termDocs it
 * counts every document ever indexed, a replaced one's earlier version included: a cheap
 * count that follows loads without a pass over the postings.
 */
import { Growable } from './growable.js';
import { compareCodePoints } from './order.js';

export class Spellings {
  /** Term id → the first other spelling met (the usual case: the only one); its documents in `firstDocs`. */
  private readonly first = new Map<number, string>();
  private readonly firstDocs = new Growable(Uint32Array);
  /** Term id → documents per further spelling, for the few terms with two or more. */
  private readonly more = new Map<number, Map<string, number>>();
  /** Per term id: the ordinal + 1 that last counted a spelling of it (one per document). */
  private readonly counted = new Growable(Int32Array);

  /** Document `ord` spells term `id` as `spelling` (not the term itself); only its first such spelling of the term counts. */
  add(ord: number, id: number, spelling: string): void {
    const counted = this.counted.ensure(id);
    if (counted[id] === ord + 1) return;
    counted[id] = ord + 1;
    const f = this.first.get(id);
    if (f === spelling) this.firstDocs.array[id]!++;
    else if (f === undefined) {
      this.first.set(id, spelling);
      this.firstDocs.set(id, 1);
    } else {
      let m = this.more.get(id);
      if (m === undefined) this.more.set(id, (m = new Map()));
      m.set(spelling, (m.get(spelling) ?? 0) + 1);
    }
  }

  /**
   * The spelling of the most documents among the `indexed` documents of term `id` (`term`
   * itself included); ties go to a spelling other than the term, then to code point order.
   */
  best(id: number, term: string, indexed: number): string {
    const f = this.first.get(id);
    if (f === undefined) return term;
    const spellings: Array<[string, number]> = [[f, this.firstDocs.array[id]!], ...(this.more.get(id) ?? [])];
    let best = term;
    let bestDocs = indexed;
    for (const [, docs] of spellings) bestDocs -= docs;
    let other = false;
    for (const [s, docs] of spellings) {
      if (docs > bestDocs || (docs === bestDocs && (!other || compareCodePoints(s, best) < 0))) {
        best = s;
        bestDocs = docs;
        other = true;
      }
    }
    return best;
  }

  /** Terms with another spelling. */
  get size(): number {
    return this.first.size;
  }
}
