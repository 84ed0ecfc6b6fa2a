/**
 * How the documents spell a term when not as the term itself (for "did you mean", spellcheck.ts): the vocabulary is
 * folded (`zurich`, `padagoge`), but a German reader offered a correction expects `Zürich`
 * and `Pädagoge`. Kept only for terms some document spells otherwise (diacritics, ß), as
 * the number of documents per spelling (lower case, NFC); the documents that spell a term as
 * the term are the rest of those indexed with it (SearchIndex.termDocs); a document counts
 * once per term, for the first other spelling it has. Like termDocs it
 * counts every document ever indexed, a replaced one's earlier version included: a cheap
 * count that follows loads without a pass over the postings.
 */
import { Dictionary } from './dictionary.js';
import { Growable } from './growable.js';
import { compareCodePoints } from './order.js';
import type { ImageSink, ImageSource } from './indexImage.js';

export class Spellings {
  /** Spelling id → spelling, and back (in shared memory once restored: dictionary.ts). */
  private readonly strings = new Dictionary();
  /** Term id → the spelling id + 1 first met (0: none; the usual case: the only one), its documents in `firstDocs`. */
  private readonly first = new Growable(Int32Array);
  private readonly firstDocs = new Growable(Uint32Array);
  /** Term id → documents per further spelling id, for the few terms with two or more. */
  private readonly more = new Map<number, Map<number, number>>();
  /** Per term id: the ordinal + 1 that last counted a spelling of it (one per document). */
  private readonly counted = new Growable(Int32Array);

  /** The spellings into an image (indexImage.ts); the counts change, so they are copied. */
  image(sink: ImageSink, p: string): void {
    this.strings.image(sink, `${p}.strings`);
    sink.copy(`${p}.first`, this.first.array);
    sink.copy(`${p}.firstDocs`, this.firstDocs.array);
    sink.value(
      `${p}.more`,
      [...this.more].map(([id, m]) => [id, [...m]]),
    );
  }

  /** The spellings of an image (into empty ones). */
  restore(source: ImageSource, p: string): void {
    this.strings.restore(source, `${p}.strings`);
    const first = source.lent(`${p}.first`, 'i32');
    this.first.restore(first.array, first.lent);
    const firstDocs = source.lent(`${p}.firstDocs`, 'u32');
    this.firstDocs.restore(firstDocs.array, firstDocs.lent);
    this.more.clear();
    for (const [id, m] of source.value<Array<[number, Array<[number, number]>]>>(`${p}.more`)) this.more.set(id, new Map(m));
  }

  /** The id of a spelling. */
  intern(spelling: string): number {
    return this.strings.intern(spelling);
  }

  /** Document `ord` spells term `id` as spelling `sid` (not the term itself); only its first such spelling of the term counts. */
  add(ord: number, id: number, sid: number): void {
    const counted = this.counted.ensure(id);
    if (counted[id] === ord + 1) return;
    counted[id] = ord + 1;
    const first = this.first.ensure(id);
    const f = first[id]!;
    if (f === sid + 1) this.firstDocs.own()[id]!++;
    else if (f === 0) {
      first[id] = sid + 1;
      this.firstDocs.set(id, 1);
    } else {
      let m = this.more.get(id);
      if (m === undefined) this.more.set(id, (m = new Map<number, number>()));
      m.set(sid, (m.get(sid) ?? 0) + 1);
    }
  }

  /**
   * The spelling of the most documents among the `indexed` documents of term `id` (`term`
   * itself included); ties go to a spelling other than the term, then to code point order.
   */
  best(id: number, term: string, indexed: number): string {
    const f = this.first.array[id] ?? 0;
    if (f === 0) return term;
    const spellings: Array<[number, number]> = [[f - 1, this.firstDocs.array[id]!], ...(this.more.get(id) ?? [])];
    let best = term;
    let bestDocs = indexed;
    for (const [, docs] of spellings) bestDocs -= docs;
    let other = false;
    for (const [sid, docs] of spellings) {
      const s = this.strings.string(sid);
      if (docs > bestDocs || (docs === bestDocs && (!other || compareCodePoints(s, best) < 0))) {
        best = s;
        bestDocs = docs;
        other = true;
      }
    }
    return best;
  }

  /** Distinct spellings kept. */
  get size(): number {
    return this.strings.size;
  }
}
