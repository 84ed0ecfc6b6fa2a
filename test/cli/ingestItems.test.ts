/**
 * `heritage-api ingest items`: formats, idempotence, bad records reported
 * with file, position and reason while the good ones are kept, exit codes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { cortexXml } from '../helpers/packages.js';
import { tempDir } from '../helpers/tempDir.js';
import { CHAPTER_ID, CORTEX_DIR, GOETHE_ID, OTHER_CORTEX_ID } from '../helpers/paths.js';

const tmp = () => tempDir('cli');

test('ingest items loads cortex XML and package JSON from a directory; a re-run changes nothing', async () => {
  const db = join(tmp(), 'h.db');
  const first = await cli(['--db', db, 'ingest', 'items', CORTEX_DIR]);
  assert.equal(first.code, 0, first.err.join('\n'));
  assert.deepEqual(first.err, []);
  assert.match(first.out[0]!, /^items: 5 records from 5 files in \d+\.\d s \(\d+\/s\): 5 new, 0 updated, 0 unchanged, 0 skipped\.$/);
  const again = await cli(['--db', db, 'ingest', 'items', CORTEX_DIR]);
  assert.equal(again.code, 0);
  assert.match(again.out[0]!, /: 0 new, 0 updated, 5 unchanged, 0 skipped\.$/);
  const store = openSqliteStore({ path: db });
  try {
    assert.equal(await store.countItems(), 5);
    for (const id of [CHAPTER_ID, OTHER_CORTEX_ID, GOETHE_ID, '222NZKK63TNRLC2VETRV722VKBDSUVGL'])
      assert.ok(await store.getItemDocument(id, 'json'), id);
  } finally {
    await store.close();
  }
});

test('bad records are reported with file, position and reason; the good ones of the run are kept; exit code 2', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  writeFileSync(join(dir, 'a-good.xml'), cortexXml({ id: 'GOOD1', title: 'Good' }));
  writeFileSync(
    join(dir, 'b-broken.xml'),
    '<?xml version="1.0"?>\n<cortex xmlns="http://www.deutsche-digitale-bibliothek.de/cortex">\n<properties><item-id>X</item-id></properties>\n',
  );
  writeFileSync(join(dir, 'c-noid.xml'), cortexXml({ id: 'PLACEHOLDER' }).replace('<item-id>PLACEHOLDER</item-id>', ''));
  writeFileSync(join(dir, 'd-root.xml'), '<mods xmlns="http://www.loc.gov/mods/v3"/>');
  writeFileSync(join(dir, 'd-rdf.xml'), '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>');
  writeFileSync(join(dir, 'e-latin1.xml'), Buffer.concat([Buffer.from(cortexXml({ id: 'LATIN', title: 'G' })), Buffer.from([0xf6, 0x0a])]));
  writeFileSync(join(dir, 'f-good.json'), readFileSync(`${CORTEX_DIR}goethe.json`));
  writeFileSync(join(dir, 'g-badjson.json'), '{"properties": {"item-id": "J1"},\n  "edm": }');
  writeFileSync(join(dir, 'h-array.json'), JSON.stringify([{ properties: { 'item-id': 'ARR1' } }, 'not a package', { properties: {} }]));
  writeFileSync(join(dir, 'i-badid.xml'), cortexXml({ id: 'bad/id' }));
  writeFileSync(join(dir, 'ignored.txt'), 'not an input: only .xml and .json are read in directories');
  const run = await cli(['--db', db, 'ingest', 'items', dir]);
  assert.equal(run.code, 2);
  assert.deepEqual(run.err, [
    `skipped: ${join(dir, 'b-broken.xml')} (line 2, column 1): not well-formed XML: Unclosed tag 'cortex'.`,
    `skipped: ${join(dir, 'c-noid.xml')} (document): no item id: properties/item-id is missing or empty`,
    `skipped: ${join(dir, 'd-rdf.xml')} (record 1, line 1, column 1): this rdf:RDF has no edm:ProvidedCHO (an element ProvidedCHO in namespace http://www.europeana.eu/schemas/edm/), and every EDM record needs one: add it, or check the namespace bound to its prefix`,
    `skipped: ${join(dir, 'd-root.xml')} (document): unknown root element <mods> in namespace http://www.loc.gov/mods/v3; expected <cortex xmlns="http://www.deutsche-digitale-bibliothek.de/cortex"> (a DDB item package) or <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"> (EDM records)`,
    `skipped: ${join(dir, 'e-latin1.xml')} (file): not UTF-8: invalid byte 0xf6 at byte offset ${Buffer.byteLength(cortexXml({ id: 'LATIN', title: 'G' }))} (line 1); convert the file to UTF-8`,
    `skipped: ${join(dir, 'g-badjson.json')} (line 2, column 10): not valid JSON: Value expected`,
    `skipped: ${join(dir, 'h-array.json')} (record 2): a package must be a JSON object with the parts of spec 2.4 (properties, edm, ...)`,
    `skipped: ${join(dir, 'h-array.json')} (record 3): no item id: properties/item-id is missing or empty`,
    `skipped: ${join(dir, 'i-badid.xml')} (document): item id 'bad/id' is not valid: use 1 to 200 letters, digits, '-', '_', '.', ':'`,
  ]);
  assert.match(run.out[0]!, /^items: 3 records from 10 files .*: 3 new, 0 updated, 0 unchanged, 9 skipped\.$/);
  const store = openSqliteStore({ path: db });
  try {
    assert.equal(await store.countItems(), 3);
    assert.ok(await store.getItemDocument('GOOD1', 'xml'));
    assert.ok(await store.getItemDocument(GOETHE_ID, 'xml'));
    assert.ok(await store.getItemDocument('ARR1', 'xml'));
  } finally {
    await store.close();
  }
});

test('ingest items reads standard input with -', async () => {
  const db = join(tmp(), 'h.db');
  const run = await cli(['--db', db, 'ingest', 'items', '-'], { stdin: cortexXml({ id: 'FROMSTDIN', title: 'Piped' }) });
  assert.equal(run.code, 0, run.err.join('\n'));
  const store = openSqliteStore({ path: db });
  try {
    assert.deepEqual(await store.getAncestry('FROMSTDIN'), { nodes: [], cycle: false });
  } finally {
    await store.close();
  }
});

test('files before and after standard input are read in the order given: the first version of an item wins, the others are reported', async () => {
  // Files on disk are parsed ahead on workers; standard input is read in its turn (src/ingest/runIngest.ts).
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  for (const [name, title] of [
    ['a', 'Erste'],
    ['b', 'Dritte'],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'same.xml'), cortexXml({ id: 'SAMEITEM', title }));
    for (let k = 0; k < 20; k++)
      writeFileSync(join(dir, name, `other-${k}.xml`), cortexXml({ id: `${name.toUpperCase()}${k}`, title: `${title} ${k}` }));
  }
  const args = ['--db', db, 'ingest', 'items', join(dir, 'a'), '-', join(dir, 'b')];
  const stdin = cortexXml({ id: 'SAMEITEM', title: 'Zweite' });
  const run = await cli(args, { stdin });
  assert.equal(run.code, 0, run.err.join('\n'));
  assert.match(run.out[0]!, /^items: 41 records from 43 files .*: 41 new, 0 updated, 0 unchanged, 0 skipped, 2 duplicates\.$/);
  const first = `first read from ${join(dir, 'a', 'same.xml')} (document); this one was skipped (the first in path order wins)`;
  assert.deepEqual(run.err, [
    `duplicate: <stdin> (document): duplicate of SAMEITEM, ${first}`,
    `duplicate: ${join(dir, 'b', 'same.xml')} (document): duplicate of SAMEITEM, ${first}`,
  ]);
  const store = openSqliteStore({ path: db });
  try {
    const xml = (await store.getItemDocument('SAMEITEM', 'xml'))!.body.toString('utf8');
    assert.deepEqual(
      ['Erste', 'Zweite', 'Dritte'].filter((title) => xml.includes(`>${title}<`)),
      ['Erste'],
    );
  } finally {
    await store.close();
  }
  const again = await cli(args, { stdin });
  assert.match(again.out[0]!, /: 0 new, 0 updated, 41 unchanged, 0 skipped, 2 duplicates\.$/);
});

test('a path that does not exist stops the run before anything is written (exit 1), and leaves no store behind', async () => {
  const db = join(tmp(), 'h.db');
  const run = await cli(['--db', db, 'ingest', 'items', CORTEX_DIR, '/no/such/dir']);
  assert.equal(run.code, 1);
  assert.deepEqual(run.err, ["heritage-api: Cannot read '/no/such/dir': no such file or directory."]);
  assert.equal(existsSync(db), false);
  // So serve does not open an empty store as if it were the one meant.
  const serve = await cli(['--db', db, 'serve', '--port', '0']);
  assert.equal(serve.code, 1);
  assert.match(serve.err[0]!, /^heritage-api: There is no store at /);
});

test('a cycle in isPartOf is reported at load', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  writeFileSync(join(dir, 'a.xml'), cortexXml({ id: 'LOOPA', parent: 'LOOPB' }));
  writeFileSync(join(dir, 'b.xml'), cortexXml({ id: 'LOOPB', parent: 'LOOPA' }));
  const run = await cli(['--db', db, 'ingest', 'items', dir]);
  assert.equal(run.code, 0);
  assert.deepEqual(run.err, ['cycle in isPartOf: LOOPA -> LOOPB -> LOOPA (parents stops where the chain repeats)']);
});

test('files parsed ahead on worker threads are still taken in file order: the first version of an item wins', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  // More files than are read ahead at once, all versions of one item.
  for (let i = 0; i < 40; i++)
    writeFileSync(join(dir, `v${String(i).padStart(2, '0')}.xml`), cortexXml({ id: 'SAME', title: `version ${i}` }));
  const run = await cli(['--db', db, 'ingest', 'items', dir]);
  assert.equal(run.code, 0, run.err.join('\n'));
  assert.match(run.out[0]!, /: 1 new, 0 updated, 0 unchanged, 0 skipped, 39 duplicates\.$/);
  assert.equal(
    run.err[0],
    `duplicate: ${join(dir, 'v01.xml')} (document): duplicate of SAME, first read from ${join(dir, 'v00.xml')} (document); this one was skipped (the first in path order wins)`,
  );
  assert.equal(run.err.length, 39);
  assert.match(run.err.at(-1)!, /^duplicate: .*v39\.xml \(document\): duplicate of SAME, first read from .*v00\.xml /);
  const store = openSqliteStore({ path: db });
  try {
    assert.match((await store.getItemDocument('SAME', 'xml'))!.body.toString(), /<dc:title>version 0<\/dc:title>/);
  } finally {
    await store.close();
  }
});
