/**
 * `heritage-api ingest` against hostile files (docs/decisions.md "Record limits"): files nested
 * far deeper than any record, an EDM file of many records in one rdf:RDF cut off
 * in the middle, and records over ingest.maxRecordBytes of every kind. Each is a
 * bad record reported with file, record and reason; the good records of the run
 * are in the store; the exit code is 2 (docs/cli.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { edmItemId } from '../../src/ingest/edm/itemId.js';
import { MAX_NESTING_DEPTH } from '../../src/formats/recordLimits.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { cortexXml } from '../helpers/packages.js';
import { CORTEX_DIR, GOETHE_ID } from '../helpers/paths.js';
import { descriptionTexts, MIMO_DIR, rdfStartTag, rdfText, readAll, recordsOf } from '../ingest-edm/helpers.js';
import { tempDir } from '../helpers/tempDir.js';

const tmp = () => tempDir('hostile');

const CORTEX_NS = 'http://www.deutsche-digitale-bibliothek.de/cortex';
const MIMO = ['Item_5791749.xml', 'Item_5791750.xml', 'Item_5791751.xml'].map((n) => MIMO_DIR + n);

/** The item id a one-record EDM text is stored under. */
async function idOf(edm: string): Promise<string> {
  const [record] = recordsOf(await readAll(edm));
  return edmItemId(record!);
}

async function withStore<T>(db: string, use: (store: ReturnType<typeof openSqliteStore>) => Promise<T>): Promise<T> {
  const store = openSqliteStore({ path: db });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

const nested = (depth: number, inner = 'x') => `${'<x>'.repeat(depth)}${inner}${'</x>'.repeat(depth)}`;

test(`files nested deeper than ${MAX_NESTING_DEPTH} levels are bad records; every good record of the run is kept`, async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  const deepCortex = (id: string, depth: number) =>
    `<cortex xmlns="${CORTEX_NS}"><properties><item-id>${id}</item-id></properties>\n<view>${nested(depth)}</view></cortex>`;
  const goodEdm = rdfText(MIMO[0]!);
  const deepEdm = rdfText(MIMO[1]!).replace('<dc:date>', `<dc:date>\n${nested(20_000)}`);
  writeFileSync(join(dir, 'a-good.xml'), cortexXml({ id: 'GOOD1', title: 'Good' }));
  writeFileSync(join(dir, 'b-deep.xml'), deepCortex('DEEP1', 20_000));
  // 200,000 levels took minutes before anything failed: now the read stops at the limit.
  writeFileSync(join(dir, 'c-deeper.xml'), deepCortex('DEEP2', 200_000));
  writeFileSync(join(dir, 'd-deep.json'), `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
  writeFileSync(
    join(dir, 'e-array.json'),
    `[{"properties": {"item-id": "ARRAYOK"}},\n{"properties": {"item-id": "DEEPJ"}, "x": ${'['.repeat(20_000)}${']'.repeat(20_000)}},\n{"properties": {"item-id": "ARRAYOK2"}}]`,
  );
  writeFileSync(join(dir, 'f-deep-edm.xml'), deepEdm);
  writeFileSync(join(dir, 'g-good-edm.xml'), goodEdm);
  writeFileSync(join(dir, 'h-good.json'), readFileSync(`${CORTEX_DIR}goethe.json`));
  // Exactly at the limit is fine: the root is level 1.
  writeFileSync(join(dir, 'i-limit.xml'), deepCortex('ATLIMIT', MAX_NESTING_DEPTH - 2));

  const run = await cli(['--db', db, 'ingest', 'items', dir]);
  assert.equal(run.code, 2, run.err.join('\n'));
  const deepEdmLine = deepEdm.slice(0, deepEdm.indexOf('<dc:date>')).split('\n').length + 1;
  const deepEdmCho = deepEdm.slice(0, deepEdm.indexOf('<edm:ProvidedCHO')).split('\n');
  const tooDeep = (line: number, column: number) =>
    `nested deeper than ${MAX_NESTING_DEPTH} levels (at line ${line}, column ${column}); no record nests that deep: check how the file was made`;
  assert.deepEqual(run.err, [
    // cortex is level 1, view 2: the 255th <x> is one too deep (the column is just past its '>').
    `skipped: ${join(dir, 'b-deep.xml')} (document): ${tooDeep(2, '<view>'.length + 3 * (MAX_NESTING_DEPTH - 1))}`,
    `skipped: ${join(dir, 'c-deeper.xml')} (document): ${tooDeep(2, '<view>'.length + 3 * (MAX_NESTING_DEPTH - 1))}`,
    // The root array's one element: record 1.
    `skipped: ${join(dir, 'd-deep.json')} (record 1): ${tooDeep(1, MAX_NESTING_DEPTH + 1)}`,
    `skipped: ${join(dir, 'e-array.json')} (record 2): ${tooDeep(2, '{"properties": {"item-id": "DEEPJ"}, "x": '.length + MAX_NESTING_DEPTH - 1)}`,
    // rdf:RDF is level 1, the CHO 2, dc:date 3: the 254th <x> is one too deep.
    `skipped: ${join(dir, 'f-deep-edm.xml')} (record 1, line ${deepEdmLine}, column ${3 * (MAX_NESTING_DEPTH - 2)}): ` +
      `elements nested deeper than ${MAX_NESTING_DEPTH} levels; no EDM record nests that deep: check how the file was made; records after this point in the file were not read, ` +
      `nor the record being read at this point (it starts at line ${deepEdmCho.length}, column ${deepEdmCho.at(-1)!.length + 1}). Fix the file here and load it again`,
  ]);
  assert.match(run.out[0]!, /^items: 6 records from 9 files .*: 6 new, 0 updated, 0 unchanged, 5 skipped\.$/);
  const goodEdmId = await idOf(goodEdm);
  await withStore(db, async (store) => {
    assert.equal(await store.countItems(), 6);
    for (const id of ['GOOD1', 'ARRAYOK', 'ARRAYOK2', GOETHE_ID, goodEdmId, 'ATLIMIT']) assert.ok(await store.getItemHead(id), id);
  });
});

test('an EDM file of many records in one rdf:RDF cut off in the middle keeps its complete records and reports the break', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  const rdfs = MIMO.map(rdfText);
  const ids = await Promise.all(rdfs.map(idOf));
  // The three records one after the other in one rdf:RDF, as an export writes them.
  const whole = `${rdfStartTag(rdfs[0]!)}\n${rdfs.flatMap(descriptionTexts).join('\n')}\n</rdf:RDF>\n`;
  const third = whole.indexOf('<edm:ProvidedCHO', whole.indexOf('<edm:ProvidedCHO', whole.indexOf('<edm:ProvidedCHO') + 1) + 1);
  const cutAt = whole.indexOf('<ore:Aggregation', third) + 40; // inside the third record's aggregation
  writeFileSync(join(dir, 'cut.xml'), whole.slice(0, cutAt));
  // Cut inside the third record's edm:ProvidedCHO: the second record is complete too.
  writeFileSync(join(dir, 'cut-in-cho.xml'), whole.slice(0, third + 200).replace(/#GNM:7/g, '#GNM:8'));
  const run = await cli(['--db', db, 'ingest', 'items', dir]);
  assert.equal(run.code, 2, run.err.join('\n'));
  const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;
  assert.equal(run.err.length, 2, run.err.join('\n'));
  assert.match(
    run.err[0]!,
    new RegExp(
      `^skipped: ${join(dir, 'cut-in-cho.xml')} \\(record 3, line \\d+, column \\d+\\): XML is not well-formed \\(.*\\); records after this point in the file were not read, nor the record being read at this point \\(it starts at line ${lineOf(whole, third)}, column 1\\)\\. Fix the file here and load it again$`,
    ),
  );
  assert.match(
    run.err[1]!,
    new RegExp(
      `^skipped: ${join(dir, 'cut.xml')} \\(record 3, line \\d+, column \\d+\\): XML is not well-formed \\(.*\\); records after this point in the file were not read, nor the record being read at this point \\(it starts at line ${lineOf(whole, third)}, column 1\\)\\. Fix the file here and load it again$`,
    ),
  );
  assert.match(run.out[0]!, /^items: 4 records from 2 files .*: 4 new, 0 updated, 0 unchanged, 2 skipped\.$/);
  await withStore(db, async (store) => {
    assert.equal(await store.countItems(), 4);
    for (const id of ids.slice(0, 2)) assert.ok(await store.getItemHead(id), id);
    assert.equal(await store.getItemHead(ids[2]!), undefined, 'the record cut off is not stored');
  });
});

test('records over ingest.maxRecordBytes are refused, whatever their kind; the others are kept', async () => {
  const limit = 64 * 1024;
  const env = { HERITAGE_API_INGEST_MAX_RECORD_BYTES: String(limit) };
  const big = 'x'.repeat(limit + 1);
  const items = tmp();
  const db = join(tmp(), 'h.db');
  const bigEdm = rdfText(MIMO[1]!).replace(
    '</rdf:RDF>',
    `<edm:WebResource rdf:about="http://example.org/big"><dc:description>${big}</dc:description></edm:WebResource></rdf:RDF>`,
  );
  writeFileSync(join(items, 'a-big.xml'), cortexXml({ id: 'BIGX', title: big }));
  writeFileSync(join(items, 'b-big.json'), JSON.stringify({ properties: { 'item-id': 'BIGJ' }, preview: { title: big } }));
  const bigElement = { properties: { 'item-id': 'BIGA' }, preview: { title: big } };
  writeFileSync(
    join(items, 'c-array.json'),
    JSON.stringify([{ properties: { 'item-id': 'SMALL1' } }, bigElement, { properties: { 'item-id': 'SMALL2' } }]),
  );
  writeFileSync(join(items, 'd-big-edm.xml'), bigEdm);
  writeFileSync(join(items, 'e-good.xml'), cortexXml({ id: 'SMALL3', title: 'small' }));
  const run = await cli(['--db', db, 'ingest', 'items', items], { env });
  assert.equal(run.code, 2, run.err.join('\n'));
  const over = (bytes: number) =>
    `the record is ${bytes} bytes, more than the limit of ${limit} bytes (ingest.maxRecordBytes); it was skipped: split the record, or raise the limit`;
  const size = (name: string) => readFileSync(join(items, name)).length;
  assert.equal(run.err.length, 4, run.err.join('\n'));
  assert.equal(run.err[0], `skipped: ${join(items, 'a-big.xml')} (document): ${over(size('a-big.xml'))}`);
  assert.equal(run.err[1], `skipped: ${join(items, 'b-big.json')} (document): ${over(size('b-big.json'))}`);
  assert.equal(run.err[2], `skipped: ${join(items, 'c-array.json')} (record 2): ${over(JSON.stringify(bigElement).length)}`);
  assert.match(
    run.err[3]!,
    new RegExp(
      `^skipped: ${join(items, 'd-big-edm.xml')} \\(record 1, line \\d+, column \\d+\\): the record is larger than the limit of ${limit} bytes`,
    ),
  );
  await withStore(db, async (store) => {
    assert.equal(await store.countItems(), 3);
    for (const id of ['SMALL1', 'SMALL2', 'SMALL3']) assert.ok(await store.getItemHead(id), id);
  });

  const persons = tmp();
  const person = (id: string, name: string) => ({ id: `http://d-nb.info/gnd/${id}`, type: 'person', preferredName: name, variantName: [] });
  const entityFacts = (id: string, name: string) => ({ '@id': `https://d-nb.info/gnd/${id}`, '@type': 'person', preferredName: name });
  writeFileSync(
    join(persons, 'a-lines.jsonl'),
    [person('1', 'Klein, Eins'), person('2', big), person('3', 'Klein, Drei')].map((p) => JSON.stringify(p)).join('\n'),
  );
  writeFileSync(join(persons, 'b-entityfacts.json'), JSON.stringify([entityFacts('4', 'Klein, Vier'), entityFacts('5', big)]));
  writeFileSync(
    join(persons, 'c-lobid.json'),
    JSON.stringify({ id: 'https://d-nb.info/gnd/6', type: ['DifferentiatedPerson'], preferredName: big }),
  );
  writeFileSync(
    join(persons, 'd-deep.json'),
    `[${JSON.stringify(entityFacts('7', 'Klein, Sieben'))}, ${'['.repeat(20_000)}${']'.repeat(20_000)}]`,
  );
  const entities = await cli(['--db', db, 'ingest', 'entities', persons], { env });
  assert.equal(entities.code, 2, entities.err.join('\n'));
  assert.equal(entities.err.length, 4, entities.err.join('\n') + entities.out.join('\n'));
  assert.match(
    entities.err[0]!,
    new RegExp(`^skipped: ${join(persons, 'a-lines.jsonl')} \\(line 2\\): the record is \\d+ bytes, more than the limit of ${limit} bytes`),
  );
  assert.match(
    entities.err[1]!,
    new RegExp(`^skipped: ${join(persons, 'b-entityfacts.json')} \\(record 2\\): the record is \\d+ bytes, more than the limit`),
  );
  assert.match(
    entities.err[2]!,
    new RegExp(`^skipped: ${join(persons, 'c-lobid.json')} \\(document\\): the record is \\d+ bytes, more than the limit`),
  );
  assert.match(
    entities.err[3]!,
    new RegExp(`^skipped: ${join(persons, 'd-deep.json')} \\(record 2\\): nested deeper than ${MAX_NESTING_DEPTH} levels`),
  );
  await withStore(db, async (store) => assert.equal(await store.countPersons(), 4));
});

test('a cortex file over the default limit (16 MB) is refused by its size, before it is read', async () => {
  const dir = tmp();
  const db = join(tmp(), 'h.db');
  writeFileSync(join(dir, 'huge.xml'), cortexXml({ id: 'HUGE', title: 'x'.repeat(17 * 1024 * 1024) }));
  writeFileSync(join(dir, 'small.xml'), cortexXml({ id: 'SMALL', title: 'small' }));
  const run = await cli(['--db', db, 'ingest', 'items', dir]);
  assert.equal(run.code, 2);
  assert.deepEqual(run.err, [
    `skipped: ${join(dir, 'huge.xml')} (document): the record is ${readFileSync(join(dir, 'huge.xml')).length} bytes, more than the limit of ${16 * 1024 * 1024} bytes (ingest.maxRecordBytes); it was skipped: split the record, or raise the limit`,
  ]);
  await withStore(db, async (store) => assert.deepEqual([await store.getItemHead('HUGE'), await store.countItems()], [undefined, 1]));
});
