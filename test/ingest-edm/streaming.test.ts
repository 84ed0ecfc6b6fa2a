// The EDM reader streams, as large files must not be held whole: results come while the input
// is still being read, and the text it holds is bounded by one record, not the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EdmStream } from '../../src/ingest/edm/edmStream.js';
import { readEdmRecords } from '../../src/ingest/edm/readEdmRecords.js';
import { HOPE_ISSUE, rdfText } from './helpers.js';

const ISSUE = rdfText(HOPE_ISSUE);
const ISSUE_ID = '0C787F5D-D4D6-40B0-B0A7-C196CD67891662';

/** The HOPE issue record with a CHO URI of its own. */
const copy = (n: number): string => ISSUE.replaceAll(ISSUE_ID, `${ISSUE_ID}-${n}`);

test('the first record comes after the first chunks are read, not at the end of the input', async () => {
  let pulled = 0;
  async function* input(): AsyncGenerator<string> {
    yield '<records>\n';
    for (let n = 0; n < 100; n++) {
      pulled += 1;
      yield `${copy(n)}\n`;
    }
    yield '</records>\n';
  }
  const seenAt: number[] = [];
  for await (const result of readEdmRecords(input())) {
    assert.equal(result.kind, 'record');
    seenAt.push(pulled);
  }
  assert.equal(seenAt.length, 100);
  // Record n is complete once chunk n has been read: it is handed out before chunk n+1.
  assert.deepEqual(
    seenAt,
    Array.from({ length: 100 }, (_, n) => n + 1),
  );
});

test('the text held stays within one record and one chunk, however long the input', () => {
  const stream = new EdmStream(16 * 1024 * 1024);
  const chunk = 4096;
  const text = `<records>\n${Array.from({ length: 2000 }, (_, n) => copy(n)).join('\n')}\n</records>\n`;
  let most = 0;
  let records = 0;
  for (let i = 0; i < text.length; i += chunk) {
    stream.write(text.slice(i, i + chunk));
    most = Math.max(most, stream.heldChars);
    records += stream.take().filter((u) => u.kind === 'rdf').length;
  }
  stream.end();
  assert.equal(records, 2000);
  assert.ok(text.length > 5_000_000, `${text.length}`);
  assert.ok(most <= ISSUE.length + 100 + chunk, `held at most ${most} characters`);
});

test('an element larger than the limit is dropped while it is read, not held', () => {
  const limit = 64 * 1024;
  const stream = new EdmStream(limit);
  const chunk = 8192;
  const huge = ISSUE.replace('<dc:language>fra</dc:language>', `<dc:description>${'x'.repeat(2_000_000)}</dc:description>`);
  let most = 0;
  for (let i = 0; i < huge.length; i += chunk) {
    stream.write(huge.slice(i, i + chunk));
    most = Math.max(most, stream.heldChars);
  }
  stream.end();
  assert.ok(most <= limit + 2 * chunk, `held at most ${most} characters`);
  const [unit] = stream.take();
  assert.equal(unit?.kind, 'rdf');
  if (unit?.kind !== 'rdf') return;
  const proxy = unit.rdf.content.find((c) => typeof c !== 'string' && c.kind === 'proxy');
  assert.ok(proxy !== undefined && typeof proxy !== 'string');
  assert.deepEqual([proxy.oversized, proxy.element, proxy.source], [true, null, '']);
});
