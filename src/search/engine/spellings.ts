/**
 * How the documents spell a term when not as the term itself (issue #18): the vocabulary is
 * folded (`zurich`, `padagoge`), but a German reader offered a correction expects `Zürich`
 * and `Pädagoge`. Kept only for terms some document spells otherwise (diacritics, ß), as
 * the number of documents per spelling (lower case, NFC); the documents that spell a term as
 * the term are the rest of those indexed with it (SearchIndex.termDocs). Like termDocs it
 * counts every document ever indexed, a replaced one's earlier version included: a cheap
 * count that follows loads without a pass over the postings.
 */
import { compareCodePoints } from './order.js';

export class Spellings {
  /** Term id → its one other spelling and the documents with it (the usual case). */
  private readonly one = new Map<number, { spelling: string; docs: number }>();
  /** Term id → documents per spelling, once a term has two other spellings. */
  private readonly many = new Map<number, Map<string, number>>();

  /** One more document spells term `id` as `spelling` (not the term itself). */
  add(id: number, spelling: string): void {
    const m = this.many.get(id);
    if (m) {
      m.set(spelling, (m.get(spelling) ?? 0) + 1);
      return;
    }
    const o = this.one.get(id);
    if (o === undefined) this.one.set(id, { spelling, docs: 1 });
    else if (o.spelling === spelling) o.docs++;
    else {
      this.one.delete(id);
      this.many.set(id, new Map([[o.spelling, o.docs], [spelling, 1]]));
    }
  }

  /**
   * The spelling of the most documents among the `indexed` documents of term `id` (`term`
   * itself included); ties go to a spelling other than the term, then to code point order.
   */
  best(id: number, term: string, indexed: number): string {
    const m = this.many.get(id);
    const o = this.one.get(id);
    const spellings: Array<[string, number]> = m ? [...m] : o ? [[o.spelling, o.docs]] : [];
    if (spellings.length === 0) return term;
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
    return this.one.size + this.many.size;
  }
}
