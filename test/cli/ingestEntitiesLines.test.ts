/**
 * JSON lines for `heritage-api ingest entities`: every broken line is reported on
 * its own (its line number and why), and every good line is stored, whatever the
 * broken line is and wherever it stands (first, in the middle, last, next to another
 * broken line). docs/cli.md "Loading persons".
 *
 * One load over a directory holds every case as a file of its own (the files are read
 * independently), each with its own person ids, so one run answers for all cases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import type { IngestSummary } from '../../src/ingest/runIngest.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tempDir.js';

/** The limit the load runs with (ingest.maxRecordBytes), so a "huge" line is small to write. */
const MAX_RECORD_BYTES = 4096;

interface BadLine {
  name: string;
  bytes: Buffer;
  /** What the report says of it; null for lines that are no record and not reported (blank lines). */
  reason: RegExp | null;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

const BAD: BadLine[] = [
  {
    name: 'truncated',
    bytes: utf8('{"id":"http://d-nb.info/gnd/1","type":"person","preferredName":"x"'),
    reason: /^JSON syntax error \(.*\); expected one JSON object on this line$/,
  },
  { name: 'truncated in a string', bytes: utf8('{"id":"http://d-nb.info/gnd/1'), reason: /^JSON syntax error / },
  { name: 'a lone opening brace', bytes: utf8('{'), reason: /^JSON syntax error / },
  { name: 'closers only', bytes: utf8('}]}]'), reason: /^JSON syntax error / },
  {
    name: 'over-deep arrays',
    bytes: utf8(`${'['.repeat(300)}${']'.repeat(300)}`),
    reason: /^nested deeper than 256 levels \(at line \d+, column 257\); /,
  },
  {
    name: 'over-deep and unclosed',
    bytes: utf8(`{"id":"http://d-nb.info/gnd/1","x":${'{"a":'.repeat(300)}`),
    reason: /^nested deeper than 256 levels /,
  },
  {
    name: 'not UTF-8',
    bytes: Buffer.concat([utf8('{"id":"http://d-nb.info/gnd/7","type":"person","preferredName":"M'), Buffer.from([0xe4]), utf8('ller"}')]),
    reason: /^not UTF-8: invalid byte 0xe4 on this line; /,
  },
  {
    name: 'huge',
    bytes: utf8(JSON.stringify({ id: 'http://d-nb.info/gnd/8', type: 'person', preferredName: 'y'.repeat(MAX_RECORD_BYTES) })),
    reason: /^the record is \d+ bytes, more than the limit of 4096 bytes \(ingest\.maxRecordBytes\)/,
  },
  { name: 'an empty object', bytes: utf8('{}'), reason: /^unrecognised record, an empty object: / },
  { name: 'an array', bytes: utf8('[1,2]'), reason: /^unrecognised record, an array of 2 values: / },
  { name: 'a number', bytes: utf8('42'), reason: /^unrecognised record, a number / },
  { name: 'a string', bytes: utf8('"Goethe"'), reason: /^unrecognised record, a string / },
  { name: 'null', bytes: utf8('null'), reason: /^unrecognised record, null: / },
  {
    name: 'a control character',
    bytes: utf8('{"id":"http://d-nb.info/gnd/9","type":"person","preferredName":"a\u0001b"}'),
    reason: /^JSON syntax error /,
  },
  { name: 'a person without a name', bytes: utf8('{"id":"http://d-nb.info/gnd/6","type":"person"}'), reason: /preferredName/ },
  { name: 'blank', bytes: utf8('   \t'), reason: null },
];

/** Where the broken lines go among three good ones (G1 G2 G3): indexes into the file's lines. */
const POSITIONS: Record<string, (good: Buffer[], bad: Buffer) => Buffer[]> = {
  first: ([g1, g2, g3], bad) => [bad, g1!, g2!, g3!],
  middle: ([g1, g2, g3], bad) => [g1!, bad, g2!, g3!],
  last: ([g1, g2, g3], bad) => [g1!, g2!, g3!, bad],
  adjacent: ([g1, g2, g3], bad) => [g1!, bad, bad, g2!, g3!],
  everywhere: ([g1, g2, g3], bad) => [bad, g1!, bad, g2!, g3!, bad],
};

interface Case {
  file: string;
  lines: Buffer[];
  /** Ids of the good persons, which must all be stored. */
  good: string[];
  /** Line numbers that must be reported, with the reason's pattern. */
  reported: Array<{ line: number; reason: RegExp }>;
}

const dir = tempDir('lines');
const cases: Case[] = [];

function addCase(file: string, lines: Buffer[], good: Buffer[], reasons: Map<Buffer, RegExp | null>, ending = '\n'): void {
  cases.push({
    file,
    lines,
    good: good.map((g) => (JSON.parse(g.toString('utf8')) as { id: string }).id),
    reported: lines.flatMap((l, i) => {
      const reason = reasons.get(l);
      return reason ? [{ line: i + 1, reason }] : [];
    }),
  });
  const bytes = Buffer.concat(lines.flatMap((l, i) => (i < lines.length - 1 ? [l, utf8('\n')] : [l, utf8(ending)])));
  writeFileSync(join(dir, file), bytes);
}

let n = 0;
const goodLines = (): Buffer[] =>
  ['G1', 'G2', 'G3'].map((name) => {
    n += 1;
    return utf8(JSON.stringify({ id: `http://d-nb.info/gnd/${1000 + n}`, type: 'person', preferredName: `${name} ${n}` }));
  });

for (const bad of BAD) {
  for (const [position, place] of Object.entries(POSITIONS)) {
    const good = goodLines();
    addCase(`${bad.name.replaceAll(' ', '-')}.${position}.jsonl`, place(good, bad.bytes), good, new Map([[bad.bytes, bad.reason]]));
  }
}

// The load that lost persons: a truncated line, and later an over-deep one, took every line between them.
{
  const [g1, g2, g3] = goodLines();
  const truncated = BAD[0]!;
  const deep = BAD[4]!;
  addCase(
    'truncated-then-deep.jsonl',
    [g1!, truncated.bytes, g2!, g3!, deep.bytes],
    [g1!, g2!, g3!],
    new Map([
      [truncated.bytes, truncated.reason],
      [deep.bytes, deep.reason],
    ]),
  );
}
// Different kinds side by side, and a cut download: the last line truncated, with no line end.
{
  const good = goodLines();
  const [g1, g2, g3] = good;
  const kinds = [BAD[6]!, BAD[4]!, BAD[7]!, BAD[0]!];
  addCase(
    'mixed.jsonl',
    [kinds[0]!.bytes, g1!, kinds[1]!.bytes, kinds[2]!.bytes, g2!, g3!, kinds[3]!.bytes],
    good,
    new Map(kinds.map((k) => [k.bytes, k.reason])),
    '',
  );
}

let summary: IngestSummary;
const stored = new Set<string>();

test('one load of every case', async () => {
  const db = join(tempDir('lines-db'), 'h.db');
  const store = openSqliteStore({ path: db });
  try {
    summary = await ingestEntities(store, [dir], { batchSize: 50, limits: { maxRecordBytes: MAX_RECORD_BYTES } });
  } finally {
    await store.close();
  }
  const sqlite = new Database(db, { readonly: true });
  try {
    for (const id of sqlite.prepare('SELECT id FROM persons').pluck().all() as string[]) stored.add(id);
  } finally {
    sqlite.close();
  }
  const good = cases.reduce((sum, c) => sum + c.good.length, 0);
  const bad = cases.reduce((sum, c) => sum + c.reported.length, 0);
  assert.equal(summary.files, cases.length);
  assert.equal(summary.inserted, good);
  assert.equal(stored.size, good);
  // Every problem is one line's; nothing is reported for a file as a whole.
  assert.equal(summary.problems.length, bad, JSON.stringify(summary.problems.filter((p) => !p.position.startsWith('line '))));
});

for (const c of cases) {
  test(`${c.file}: every good line stored, each broken line reported at its line`, () => {
    assert.ok(summary !== undefined, 'the load ran');
    for (const id of c.good) assert.ok(stored.has(id), `${id} stored`);
    const reports = summary.problems.filter((p) => p.file === join(dir, c.file));
    assert.deepEqual(
      reports.map((p) => p.position),
      c.reported.map((r) => `line ${r.line}`),
    );
    reports.forEach((p, i) => assert.match(p.reason, c.reported[i]!.reason));
  });
}

test('the load that lost persons, through the command: G1, a truncated line, G2, G3, an over-deep line', async () => {
  const own = tempDir('lines-cli');
  const file = join(own, 'persons.jsonl');
  const person = (id: number, name: string) => JSON.stringify({ id: `http://d-nb.info/gnd/${id}`, type: 'person', preferredName: name });
  writeFileSync(
    file,
    [
      person(11, 'G1'),
      '{"id":"http://d-nb.info/gnd/1","type":"person","preferredName":"x"',
      person(12, 'G2'),
      person(13, 'G3'),
      `${'['.repeat(300)}${']'.repeat(300)}`,
    ].join('\n') + '\n',
  );
  const run = await cli(['--db', join(own, 'h.db'), 'ingest', 'entities', file]);
  assert.equal(run.code, 2);
  assert.match(run.out[0]!, /^entities: 3 records from 1 files .*: 3 new, 0 updated, 0 unchanged, 2 skipped\.$/);
  assert.deepEqual(run.err, [
    `skipped: ${file} (line 2): JSON syntax error (Expected ',' or '}' after property value in JSON at position 66); expected one JSON object on this line`,
    `skipped: ${file} (line 5): nested deeper than 256 levels (at line 5, column 257); no record nests that deep: check how the file was made`,
  ]);
});
