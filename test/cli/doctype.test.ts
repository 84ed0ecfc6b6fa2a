/**
 * DOCTYPE declarations are dropped on the way in, on every input path (cortex XML, EDM
 * files, OAI-PMH harvests), and the load report says so for the file or page; the stored
 * and served package never carries one (src/formats/xmlDoctype.ts, docs/cli.md "Limits").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { dropDoctype } from '../../src/formats/xmlDoctype.js';
import { buildServer } from '../../src/http/server.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { SQLITE } from '../helpers/backends.js';
import { cli } from '../helpers/cli.js';
import { loadEdmRecords, startOaiServer } from '../helpers/oaiServer.js';
import { CHAPTER_ID, CORTEX_DIR, HOPE_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';

/** External entities (XXE) and nested ones (billion laughs), as an attacker writes them. */
const HOSTILE = [
  '<!DOCTYPE cortex [',
  '  <!ENTITY xxe SYSTEM "file:///etc/passwd">',
  '  <!ENTITY lol "lol"> <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">',
  '  <!-- a comment with ]> in it --> <!ENTITY tricky "a ]> b">',
  ']>',
].join('\n');
const NOTE =
  /^its DOCTYPE declaration \(<!DOCTYPE cortex \[ <!ENTITY xxe SYSTEM "file:\/\/\/etc\/passwd…, declaring 4 entities\) was dropped: items are stored and served without one, and no DTD is read$/;

/** A package's text without the time it was loaded at (two loads may fall in different seconds). */
const withoutLoadTime = (body: Buffer): string => body.toString('utf8').replace(/\d\d-\d\d-\d\d \d\d:\d\d:\d\d/g, 'LOAD TIME');

/** The text with `doctype` on a line of its own before the root element (after the XML declaration, if any). */
function withDoctype(xml: string, doctype: string, root: string): string {
  const at = xml.indexOf(`<${root}`);
  return `${xml.slice(0, at)}${doctype}\n${xml.slice(at)}`;
}

test('dropDoctype: the declaration with its internal subset, and nothing else', () => {
  const plain = readFileSync(`${CORTEX_DIR}${CHAPTER_ID}.xml`, 'utf8');
  assert.equal(dropDoctype(plain), null);
  const dropped = dropDoctype(withDoctype(plain, HOSTILE, 'cortex'));
  assert.equal(dropped?.xml, plain);
  assert.match(dropped.note, NOTE);
  // After a byte-order mark, comments and processing instructions of the prolog; a SYSTEM id with '>' and ']' quoted.
  assert.equal(
    dropDoctype('\uFEFF<!-- c --><?pi x?>\n<!DOCTYPE r SYSTEM "http://x/a]>.dtd">\r\n<r/>')?.xml,
    '\uFEFF<!-- c --><?pi x?>\n<r/>',
  );
  // Only in the prolog: one after the root element starts is the parser's to refuse.
  assert.equal(dropDoctype('<r><!DOCTYPE r></r>'), null);
  // One that never ends is left for the parser to report.
  assert.equal(dropDoctype('<!DOCTYPE r [ <!ENTITY a "x"> <r/>'), null);
});

test('cortex XML: the DOCTYPE is dropped and reported, the package stored and served as loaded without it; one whose entities are used is refused', async () => {
  const dir = tempDir('doctype-cortex');
  const plain = readFileSync(`${CORTEX_DIR}${CHAPTER_ID}.xml`, 'utf8');
  const file = join(dir, `${CHAPTER_ID}.xml`);
  writeFileSync(file, withDoctype(plain, HOSTILE, 'cortex'));
  // The entity used in the content: without the DTD it is undefined, so the record is refused, never expanded.
  const used = join(dir, 'used.xml');
  writeFileSync(
    used,
    withDoctype(readFileSync(`${CORTEX_DIR}4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml`, 'utf8'), HOSTILE, 'cortex').replace(
      /(<cortex[^>]*>)/,
      '$1&xxe;',
    ),
  );

  const db = join(dir, 'h.db');
  const run = await cli(['--db', db, 'ingest', 'items', file, used]);
  assert.equal(run.code, 2, run.err.join('\n'));
  assert.match(run.out[0]!, /^items: 1 records from 2 files .*: 1 new, 0 updated, 0 unchanged, 1 skipped\.$/);
  assert.equal(run.err.length, 2, run.err.join('\n'));
  assert.match(run.err[0]!, new RegExp(`^skipped: ${used} \\(line \\d+, column \\d+\\): not well-formed XML: Undefined entity '&xxe;'`));
  const note = /^note: (.*) \(document\): (.*)$/.exec(run.err[1]!);
  assert.equal(note?.[1], file);
  assert.match(note[2]!, NOTE);

  const store = openSqliteStore({ path: db });
  const config = loadConfig({ flags: { store: SQLITE.config(db) } });
  const key = generateApiKey();
  await store.createKey('test', hashApiKey(key));
  const app = await buildServer(config, store, { logging: false });
  try {
    const res = await app.inject({
      url: `/items/${CHAPTER_ID}/aip`,
      headers: { accept: 'application/xml', authorization: `OAuth oauth_consumer_key="${key}"` },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, plain);
  } finally {
    await app.close();
    await store.close();
  }
});

test('EDM files: the DOCTYPE is reported at its line, and the package is the one built without it', async () => {
  const dir = tempDir('doctype-edm');
  const name = readdirSync(HOPE_DIR).filter((n) => n.endsWith('.xml'))[0]!;
  const plain = readFileSync(join(HOPE_DIR, name), 'utf8');
  const file = join(dir, name);
  writeFileSync(file, withDoctype(plain, HOSTILE.replace('cortex', 'rdf:RDF'), 'rdf:RDF'));

  const stores = [join(dir, 'plain.db'), join(dir, 'doctype.db')].map((path) => openSqliteStore({ path }));
  try {
    const [withoutIt, withIt] = await Promise.all([
      ingestItems(stores[0]!, [join(HOPE_DIR, name)], { batchSize: 10 }),
      ingestItems(stores[1]!, [file], { batchSize: 10 }),
    ]);
    assert.deepEqual(withoutIt.notes, []);
    assert.equal(withIt.problems.length, 0, JSON.stringify(withIt.problems));
    assert.equal(withIt.notes.length, 1);
    assert.equal(withIt.notes[0]!.file, file);
    assert.equal(withIt.notes[0]!.position, `line ${plain.slice(0, plain.indexOf('<rdf:RDF')).split('\n').length}, column 1`);
    assert.match(withIt.notes[0]!.reason, /^its DOCTYPE declaration \(<!DOCTYPE rdf:RDF \[ .*declaring 4 entities\) was dropped/);
    assert.deepEqual(withIt.newIds, withoutIt.newIds);
    assert.equal(withIt.newIds.length, 1);
    const [a, b] = await Promise.all(stores.map((s) => s.getItemDocument(withIt.newIds[0]!, 'xml')));
    assert.ok(a !== undefined && b !== undefined);
    assert.equal(withoutLoadTime(b.body), withoutLoadTime(a.body));
    assert.ok(!b.body.includes('<!DOCTYPE'));
  } finally {
    for (const s of stores) await s.close();
  }
});

test('OAI-PMH harvest: a page with a DOCTYPE is reported by its URL, its records stored as without it', async () => {
  const dir = tempDir('doctype-oai');
  const records = loadEdmRecords(HOPE_DIR, { limit: 5 });
  const servers = await Promise.all([
    startOaiServer({ records, pageSize: 3 }),
    startOaiServer({ records, pageSize: 3, doctype: HOSTILE.replace('cortex', 'OAI-PMH') }),
  ]);
  const dbs = [join(dir, 'plain.db'), join(dir, 'doctype.db')];
  try {
    const plain = await cli(['--db', dbs[0]!, 'harvest', servers[0].url]);
    const run = await cli(['--db', dbs[1]!, 'harvest', servers[1].url]);
    assert.equal(plain.code, 0, plain.err.join('\n'));
    assert.deepEqual(plain.err, []);
    assert.equal(run.code, 0, run.err.join('\n'));
    assert.match(run.out[0]!, /: 5 records in 2 pages .*: 5 new, 0 updated, 0 unchanged, 0 deleted, 0 skipped\.$/);
    // One note for each page, with the URL that gave it.
    assert.equal(run.err.length, 2, run.err.join('\n'));
    run.err.forEach((line, i) => {
      const note = /^note: (\S+) \(document\): (.*)$/.exec(line);
      assert.equal(note?.[1], servers[1].requests.filter((r) => r.includes('ListRecords'))[i]);
      assert.match(note![2]!, /^its DOCTYPE declaration \(<!DOCTYPE OAI-PMH \[ .*declaring 4 entities\) was dropped/);
    });
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
  const [a, b] = dbs.map((path) => openSqliteStore({ path }));
  const text = (doc: { body: Buffer } | undefined) => (doc === undefined ? undefined : withoutLoadTime(doc.body));
  try {
    const ids = await a!.listItemIds({ limit: 10 });
    assert.equal(ids.length, 5);
    assert.deepEqual(await b!.listItemIds({ limit: 10 }), ids);
    for (const id of ids) {
      const [x, y] = await Promise.all([a!.getItemDocument(id, 'xml'), b!.getItemDocument(id, 'xml')]);
      assert.ok(x !== undefined && y !== undefined);
      assert.equal(text(y), text(x));
      assert.ok(!y.body.includes('<!DOCTYPE'));
    }
  } finally {
    await a!.close();
    await b!.close();
  }
});
