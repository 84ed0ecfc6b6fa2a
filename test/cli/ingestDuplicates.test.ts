/**
 * The same input gives the same store (docs/decisions.md "Duplicates"): a record whose key
 * (item id, person id) was read before in the run is a duplicate, reported with
 * both places; the first in path order wins, so a re-run writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { edmItemId } from '../../src/ingest/edm/itemId.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { filesIn, MIMO_DIR, readAll, readText, recordsOf } from '../ingest-edm/helpers.js';
import { searchPersons } from '../helpers/personSearch.js';
import { tempDir } from '../helpers/tempDir.js';

const tmp = () => tempDir('dup');

test('fixtures/items/edm/mimo twice: duplicates named with both places, and the second run changes nothing', async () => {
  const db = join(tmp(), 'h.db');
  // Where each item id is first read, in path order, to check the warnings against.
  const files = filesIn(MIMO_DIR);
  const firstFile = new Map<string, string>();
  let duplicates = 0;
  for (const file of files) {
    for (const record of recordsOf(await readAll(readText(file)))) {
      const id = edmItemId(record);
      if (firstFile.has(id)) duplicates++;
      else firstFile.set(id, file);
    }
  }
  assert.ok(duplicates > 100, `the fixture holds duplicates (${duplicates})`);

  const first = await cli(['--db', db, 'ingest', 'items', MIMO_DIR]);
  assert.equal(first.code, 0, first.err.join('\n'));
  assert.match(first.out[0]!, new RegExp(`: ${firstFile.size} new, 0 updated, 0 unchanged, 0 skipped, ${duplicates} duplicates\\.$`));
  const warnings = first.err.filter((l) => l.startsWith('duplicate: '));
  assert.equal(warnings.length, 50, 'the first 50 in full');
  assert.equal(first.err.at(-1), `... and ${duplicates - 50} more duplicates`);
  for (const w of warnings) {
    const m =
      /^duplicate: (.+) \((record 1, line \d+, column \d+)\): duplicate of (\S+), first read from (.+) \(record 1, line \d+, column \d+\); this one was skipped \(the first in path order wins\)$/.exec(
        w,
      );
    assert.ok(m, w);
    assert.equal(m[4], firstFile.get(m[3]!), `${m[3]} was first read from the first file in path order`);
    assert.ok(m[1]! > m[4]!, 'the duplicate comes later in path order');
  }

  const heads = async () => {
    const store = openSqliteStore({ path: db });
    try {
      return new Map(await Promise.all([...firstFile.keys()].map(async (id) => [id, (await store.getItemHead(id))!] as const)));
    } finally {
      await store.close();
    }
  };
  const before = await heads();
  // Last-Modified has a resolution of one second: a rewrite in the next second must show.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const again = await cli(['--db', db, 'ingest', 'items', MIMO_DIR]);
  assert.equal(again.code, 0);
  assert.match(again.out[0]!, new RegExp(`: 0 new, 0 updated, ${firstFile.size} unchanged, 0 skipped, ${duplicates} duplicates\\.$`));
  assert.deepEqual(await heads(), before, 'every ETag and Last-Modified unchanged');
});

test('one person under http:// and https:// in one run: the first wins, the second is a duplicate; a re-run changes nothing', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  const person = (id: string, name: string) => JSON.stringify({ id, type: 'person', preferredName: name, variantName: [] });
  writeFileSync(
    join(dir, 'a.jsonl'),
    `${person('https://d-nb.info/gnd/118540238', 'Goethe, Johann Wolfgang von')}\n${person('http://d-nb.info/gnd/1', 'Eins')}\n`,
  );
  writeFileSync(join(dir, 'b.jsonl'), `${person('http://d-nb.info/gnd/118540238', 'Goethe, J. W.')}\n`);
  for (const round of [1, 2]) {
    const run = await cli(['--db', db, 'ingest', 'entities', dir]);
    assert.equal(run.code, 0, run.err.join('\n'));
    assert.deepEqual(run.err, [
      // A file of one line is one JSON document: its record 1.
      `duplicate: ${join(dir, 'b.jsonl')} (record 1): duplicate of http://d-nb.info/gnd/118540238, first read from ${join(dir, 'a.jsonl')} (line 1); this one was skipped (the first in path order wins)`,
    ]);
    assert.match(
      run.out[0]!,
      round === 1
        ? /: 2 new, 0 updated, 0 unchanged, 0 skipped, 1 duplicates\.$/
        : /: 0 new, 0 updated, 2 unchanged, 0 skipped, 1 duplicates\.$/,
    );
  }
  const store = openSqliteStore({ path: db });
  try {
    const found = await searchPersons(store, { query: 'id:"http://d-nb.info/gnd/118540238"' });
    assert.equal(found.total, 1);
    assert.match(found.docs[0]!, /"preferredName":"Goethe, Johann Wolfgang von"/);
  } finally {
    await store.close();
  }
});
