/**
 * A process that writes the search indexes of a store again and again, for the crash test
 * (indexCrash.test.ts): it reads the newest index on disk as a start does (or builds one from
 * the store), then writes one generation after another, and prints `written <generation>` once
 * each is complete. The test kills it at random moments.
 * Arguments: the SQLite file, the directory of the indexes.
 */
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { manifestsIn } from '../../src/search/indexFiles.js';

const [path, dir] = process.argv.slice(2) as [string, string];
const store = openSqliteStore({ path });
const host = new IndexHost(
  store,
  {},
  { dir, write: true, minGapMs: 0, intervalMs: 0, changes: () => 1, log: (line) => process.stderr.write(`${line}\n`) },
);
for (;;) {
  while (!(await host.refresh('person', 1000))) continue;
  while (!(await host.refresh('item', 1000))) continue;
  if (!(await host.write())) throw new Error('not written');
  process.stdout.write(`written ${(await manifestsIn(dir))[0]!.generation}\n`);
}
