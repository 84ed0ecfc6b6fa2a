/**
 * A process that writes small search indexes into a directory, for the writers' test
 * (indexWriteLock.test.ts). Arguments: the directory, then `write N` (N generations, one
 * after another, printing `written <generation>` for each) or `hold` (takes the write lock,
 * prints `held`, and lets it go when its standard input ends, printing `released <ms>`).
 */
import { itemDoc, personDoc } from '../../bench/engineDocs.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { writeIndexes } from '../../src/search/indexFiles.js';
import { withIndexWriteLock } from '../../src/search/indexWriteLock.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';

const [dir, what, n] = process.argv.slice(2) as [string, string, string | undefined];
if (what === 'hold') {
  await withIndexWriteLock(dir, async () => {
    process.stdout.write('held\n');
    process.stdin.resume();
    await new Promise((resolve) => process.stdin.on('end', resolve));
  });
  process.stdout.write(`released ${Date.now()}\n`);
} else {
  const items = new SearchIndex(itemSchema);
  const persons = new SearchIndex(personSchema);
  for (let i = 0; i < 300; i++) items.upsert(itemDoc(i));
  for (let i = 0; i < 30; i++) persons.upsert(personDoc(i));
  for (let g = 0; g < Number(n); g++) {
    items.upsert(itemDoc(1000 + g));
    const image = (index: SearchIndex, kind: string) => ({
      image: index.image(),
      position: `${kind}:${process.pid}:${g}`,
      documents: index.size,
    });
    const manifest = await writeIndexes(dir, 'store-a', { item: image(items, 'item'), person: image(persons, 'person') });
    process.stdout.write(`written ${manifest.generation}\n`);
  }
}
