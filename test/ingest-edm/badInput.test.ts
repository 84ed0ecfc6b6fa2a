// Bad input to the EDM reader (docs/decisions.md "Bad records"): each problem is one error with its
// position and what to fix, and the
// records around it are still read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { EdmReadResult } from '../../src/ingest/edm/types.js';
import { CORTEX_CHAPTER, HOPE_ISSUE, HOPE_ROOT, HOPE_YEAR, MIMO_DIR, rdfText, readAll } from './helpers.js';

const [ISSUE, YEAR, ROOT] = [HOPE_ISSUE, HOPE_YEAR, HOPE_ROOT].map(rdfText) as [string, string, string];
const ISSUE_URI = 'http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662';
const YEAR_URI = 'http://hdl.handle.net/10796/4BF04AA4-0D1B-4A8F-B4F3-A32EE1B05D064';
const ROOT_URI = 'http://hdl.handle.net/10796/76FC2677-F914-46F1-9A1B-D19450FE141E';

/** Three HOPE records under a wrapper, one a line (lines 2, 3, 4), the middle one changed. */
const three = (middle: string): string => `<records>\n${ISSUE}\n${middle}\n${ROOT}\n</records>\n`;

/** Results as short lines: `record <position> <CHO URI>`, `deleted <position>`, `error <position>: <reason>`, `note <position>: <note>`. */
function lines(results: EdmReadResult[]): string[] {
  return results.map((r) => {
    switch (r.kind) {
      case 'record':
        return `record ${r.position} ${r.record.choUri}`;
      case 'deleted':
        return `deleted ${r.position}`;
      case 'error':
        return `error ${r.position}: ${r.reason}`;
      case 'note':
        return `note ${r.position}: ${r.note}`;
    }
  });
}

async function readBothWays(input: string | Buffer, options: { maxRecordBytes?: number } = {}): Promise<string[]> {
  const whole = await readAll(input, options);
  assert.deepEqual(await readAll(input, { ...options, chunkSize: 7 }), whole, 'the same in 7-byte chunks');
  return lines(whole);
}

test('broken XML in the middle: the records before it, then one error with line, column and what was not read', async () => {
  assert.deepEqual(await readBothWays(three(YEAR.replace('</dc:title>', ''))), [
    `record record 1, line 2, column 660 ${ISSUE_URI}`,
    'error record 2, line 3, column 2025: XML is not well-formed (unexpected end tag </ore:Proxy>: an element inside it is not closed, or the end tag is misspelt); records after this point in the file were not read, nor the record being read at this point (it starts at line 3, column 660). Fix the file here and load it again',
  ]);
  // An element left open between two rdf:RDF: both complete before the error shows.
  assert.deepEqual(await readBothWays(`<records>\n${ISSUE}\n<oops>\n${ROOT}\n</records>\n`), [
    `record record 1, line 2, column 660 ${ISSUE_URI}`,
    `record record 2, line 4, column 660 ${ROOT_URI}`,
    'error line 5, column 1: XML is not well-formed (unexpected end tag </records>: an element inside it is not closed, or the end tag is misspelt); records after this point in the file were not read. Fix the file here and load it again',
  ]);
  // A file cut short.
  assert.deepEqual(await readBothWays(ISSUE.slice(0, 2000)), [
    'error record 1, line 1, column 2000: XML is not well-formed (unclosed tag: ore:Proxy); records after this point in the file were not read, nor the record being read at this point (it starts at line 1, column 660). Fix the file here and load it again',
  ]);
});

test('a record without an edm:ProvidedCHO', async () => {
  assert.deepEqual(await readBothWays(three(YEAR.replace(/<edm:ProvidedCHO[^>]*\/>/, ''))), [
    `record record 1, line 2, column 660 ${ISSUE_URI}`,
    'error record 2, line 3, column 1: this rdf:RDF has no edm:ProvidedCHO (an element ProvidedCHO in namespace http://www.europeana.eu/schemas/edm/), and every EDM record needs one: add it, or check the namespace bound to its prefix',
    `record record 3, line 4, column 660 ${ROOT_URI}`,
  ]);
});

test('proxies and aggregations of a CHO that is not in a shared rdf:RDF: one error, never folded into another record', async () => {
  // The year record's descriptions without its CHO, in the issue's rdf:RDF.
  const input = `${ISSUE.replace('</rdf:RDF>', '')}\n${YEAR.slice(YEAR.indexOf('>') + 1).replace(/<edm:ProvidedCHO[^>]*\/>/, '')}`;
  const results = await readAll(input);
  assert.deepEqual(lines(results), [
    `record record 1, line 1, column 660 ${ISSUE_URI}`,
    `error record 2, line 2, column 1: ore:Aggregation "10796/4BF04AA4-0D1B-4A8F-B4F3-A32EE1B05D064" (line 2, column 1), ore:Proxy "${YEAR_URI}" (line 2, column 494) and edm:EuropeanaAggregation "${YEAR_URI}" (line 2, column 1293) describe "${YEAR_URI}", but this rdf:RDF has no edm:ProvidedCHO with that rdf:about: add the edm:ProvidedCHO, or correct ore:proxyFor / edm:aggregatedCHO`,
  ]);
  const [alone] = await readAll(ISSUE);
  assert.ok(results[0]?.kind === 'record' && alone?.kind === 'record');
  assert.deepEqual(results[0].record.rdf, alone.record.rdf);
  // Its source: its own descriptions only.
  assert.equal(
    results[0].record.sourceXml,
    `${ISSUE.replace('</rdf:RDF>', '')
      .replace(/></g, '>\n<')
      .replace(/>\n<(?!edm:ProvidedCHO|edm:WebResource|ore:Aggregation|ore:Proxy|edm:EuropeanaAggregation)/g, '><')}\n</rdf:RDF>`,
  );
});

test('two edm:ProvidedCHO with one rdf:about: the second is an error naming the first', async () => {
  assert.deepEqual(await readBothWays(three(ISSUE)), [
    `record record 1, line 2, column 660 ${ISSUE_URI}`,
    `error record 2, line 3, column 660: edm:ProvidedCHO "${ISSUE_URI}" was already read as record 1 (line 2, column 660); this second description was skipped: give each object its own rdf:about, or remove the duplicate`,
    `record record 3, line 4, column 660 ${ROOT_URI}`,
  ]);
  // Real: two MIMO files describe #GNM:7116411.
  const pair = `<records>${rdfText(`${MIMO_DIR}09102_Ag_EU_MIMO_EDM_record0.xml`)}${rdfText(`${MIMO_DIR}Item_5791749.xml`)}</records>`;
  assert.deepEqual(await readBothWays(pair), [
    'record record 1, line 13, column 1 #GNM:7116411',
    'error record 2, line 47, column 691: edm:ProvidedCHO "#GNM:7116411" was already read as record 1 (line 13, column 1); this second description was skipped: give each object its own rdf:about, or remove the duplicate',
  ]);
});

test('an edm:ProvidedCHO without rdf:about', async () => {
  assert.deepEqual(await readBothWays(three(YEAR.replace(/<edm:ProvidedCHO[^>]*\/>/, '<edm:ProvidedCHO/>'))), [
    `record record 1, line 2, column 660 ${ISSUE_URI}`,
    'error record 2, line 3, column 660: the edm:ProvidedCHO has no rdf:about; EDM identifies each object by its rdf:about URI: add one',
    `record record 3, line 4, column 660 ${ROOT_URI}`,
  ]);
});

test('a record bigger than maxRecordBytes', async () => {
  // The issue's rdf:RDF is 2826 bytes, the year's 2397, the root's 2492.
  assert.deepEqual(await readBothWays(three(YEAR), { maxRecordBytes: 2800 }), [
    'error record 1, line 2, column 660: the record is 2826 bytes, more than the limit of 2800 bytes (maxRecordBytes); it was skipped: split the record, or raise the limit',
    `record record 2, line 3, column 660 ${YEAR_URI}`,
    `record record 3, line 4, column 660 ${ROOT_URI}`,
  ]);
  // One element alone over the limit is dropped while it is read (the same whether it
  // arrives whole or in small pieces), so it cannot fill memory.
  const limit = { maxRecordBytes: 750 };
  const results = lines(await readAll(three(YEAR), limit));
  assert.deepEqual(lines(await readAll(three(YEAR), { ...limit, chunkSize: 100 })), results);
  assert.deepEqual(results, [
    `error record 1, line 2, column 660: the record is larger than the limit of 750 bytes (maxRecordBytes): its ore:Proxy "${ISSUE_URI}" (line 2, column 1676) alone is larger; it was skipped: split the record, or raise the limit`,
    `error record 2, line 3, column 660: the record is larger than the limit of 750 bytes (maxRecordBytes): its ore:Proxy "${YEAR_URI}" (line 3, column 1249) alone is larger; it was skipped: split the record, or raise the limit`,
    `error record 3, line 4, column 660: the record is larger than the limit of 750 bytes (maxRecordBytes): its ore:Proxy "${ROOT_URI}" (line 4, column 1245) alone is larger; it was skipped: split the record, or raise the limit`,
  ]);
  await assert.rejects(readAll(ISSUE, { maxRecordBytes: 0 }), /maxRecordBytes must be a positive whole number of bytes, not 0/);
});

test('an undeclared namespace prefix spoils only its record', async () => {
  assert.deepEqual(await readBothWays(three(YEAR.replace('<dc:language>fra</dc:language>', '<dcx:language>fra</dcx:language>'))), [
    `record record 1, line 2, column 660 ${ISSUE_URI}`,
    'error record 2, line 3, column 660: the namespace prefix \'dcx\' is not declared (line 3, column 1489): declare it with xmlns:dcx="..." on that element or an enclosing one; the record was skipped',
    `record record 3, line 4, column 660 ${ROOT_URI}`,
  ]);
});

test('input that is not UTF-8: the records before the bad byte, then where it is', async () => {
  const latin1 = Buffer.concat([
    Buffer.from(`<records>\n${ISSUE}\n`),
    Buffer.from(YEAR.replace('Combat (1974)', 'Combat (1974) été'), 'latin1'),
    Buffer.from(`\n${ROOT}\n</records>\n`),
  ]);
  assert.deepEqual(await readBothWays(latin1), [
    `record record 1, line 2, column 660 ${ISSUE_URI}`,
    'error record 2, line 3, column 1816: the input is not UTF-8 (invalid UTF-8 byte 0xe9 at byte offset 4652): convert the file to UTF-8; records after this point in the file were not read, nor the record being read at this point (it starts at line 3, column 660). Fix the file here and load it again',
  ]);
  // A byte-order mark is not an error; a file cut inside a character is.
  assert.deepEqual(
    (await readAll(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ISSUE)]), { chunkSize: 1 })).map((r) => r.kind),
    ['record'],
  );
  assert.deepEqual(lines(await readAll(Buffer.concat([Buffer.from(ISSUE), Buffer.from([0xc3])]))), [
    `record record 1, line 1, column 660 ${ISSUE_URI}`,
    'error line 1, column 2827: the input is not UTF-8 (the input ends inside a UTF-8 character (byte offset 2826)): convert the file to UTF-8; records after this point in the file were not read. Fix the file here and load it again',
  ]);
});

test('input that is not EDM: empty, not XML, a cortex package', async () => {
  assert.deepEqual(lines(await readAll('')), [
    'error line 1, column 1: the input is empty or not XML (document must contain a root element): expected EDM RDF/XML or an OAI-PMH response',
  ]);
  assert.deepEqual(lines(await readAll('{"edm": {}}')), [
    'error line 1, column 11: the input is empty or not XML (text data outside of root node): expected EDM RDF/XML or an OAI-PMH response',
  ]);
  // A cortex package holds an rdf:RDF: it is read (another reader handles cortex as a whole).
  assert.deepEqual(
    (await readAll(readFileSync(CORTEX_CHAPTER))).map((r) => r.kind),
    ['record'],
  );
  assert.deepEqual(
    lines(await readAll('<?xml version="1.0"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim"><record/></collection>')),
    [
      'error line 1, column 1: no EDM found: the document has no rdf:RDF element (namespace http://www.w3.org/1999/02/22-rdf-syntax-ns#) and is not an OAI-PMH response (its root element is <collection> in namespace http://www.loc.gov/MARC21/slim). Give EDM RDF/XML records, one or many per file, or OAI-PMH responses carrying them.',
    ],
  );
  // rdf:RDF with its prefix undeclared is not RDF: the note says why nothing was found.
  assert.deepEqual(lines(await readAll('<rdf:RDF><edm:ProvidedCHO/></rdf:RDF>')), [
    'error line 1, column 1: no EDM found: the document has no rdf:RDF element (namespace http://www.w3.org/1999/02/22-rdf-syntax-ns#) and is not an OAI-PMH response (its root element is <rdf:RDF> in namespace rdf). Give EDM RDF/XML records, one or many per file, or OAI-PMH responses carrying them. Note: the namespace prefix \'rdf\' is not declared (line 1, column 9): declare it with xmlns:rdf="..." on that element or an enclosing one.',
  ]);
});
