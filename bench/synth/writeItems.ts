/**
 * Writes the items of a range of trees to DIR/items/NNNN/<id>.xml (1,000 items a
 * folder, by item index). Used by the item workers and, with one thread, in
 * the main thread; the output does not depend on how the trees are shared out.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planForest } from './forest.js';
import { ItemGenerator } from './items.js';
import { PersonGenerator } from './persons.js';
import { loadVocab } from './vocab.js';

export interface ItemJob {
  out: string;
  seed: number;
  persons: number;
  items: number;
  /** Trees [fromTree, toTree). */
  fromTree: number;
  toTree: number;
}

export interface ItemJobResult {
  /** First item of the range; sizes[k] is the size in bytes of item first + k. */
  first: number;
  sizes: Uint32Array;
  /** Items that refer to persons, and references in all. */
  itemsWithRefs: number;
  refs: number;
  /** Items per person index. */
  perPerson: Uint32Array;
}

export const ITEMS_PER_FOLDER = 1000;

export function itemFolder(index: number, items: number): string {
  return String(Math.floor(index / ITEMS_PER_FOLDER) + 1).padStart(Math.max(4, String(Math.ceil(items / ITEMS_PER_FOLDER)).length), '0');
}

export function writeItems(job: ItemJob, progress: (done: number) => void): ItemJobResult {
  const forest = planForest(job.items, job.seed);
  const vocab = loadVocab();
  const persons = new PersonGenerator(vocab, job.seed);
  const gen = new ItemGenerator(forest, persons, job.persons, job.seed);
  const first = job.fromTree < forest.treeStart.length ? forest.treeStart[job.fromTree]! : job.items;
  const end = job.toTree < forest.treeStart.length ? forest.treeStart[job.toTree]! : job.items;
  const sizes = new Uint32Array(end - first);
  const perPerson = new Uint32Array(job.persons);
  let itemsWithRefs = 0;
  let refs = 0;
  const itemsDir = join(job.out, 'items');
  for (let i = first; i < end; i++) {
    const { id, xml, refs: r } = gen.item(i);
    const bytes = Buffer.from(xml, 'utf8');
    writeFileSync(join(itemsDir, itemFolder(i, job.items), `${id}.xml`), bytes);
    sizes[i - first] = bytes.length;
    if (r.length > 0) itemsWithRefs++;
    refs += r.length;
    for (const p of r) perPerson[p]!++;
    if ((i - first + 1) % 1000 === 0) progress(i - first + 1);
  }
  progress(end - first);
  return { first, sizes, itemsWithRefs, refs, perPerson };
}
