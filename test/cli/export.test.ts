/**
 * `heritage-api export items|persons` (docs/export.md) on the real
 * fixtures: every hit exactly once, as the search shows it, in id order; --query and --fq;
 * resuming a file cut off anywhere, a half-written last line included; bad arguments.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseQuery } from '../../src/query/parse.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';
import type { SearchRequest } from '../../src/search/engine/types.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../src/store/Store.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'heritage-api-export-'));
const db = join(dir, 'h.db');
let store: Store;
let host: IndexHost;

before(async () => {
  assert.equal((await cli(['--db', db, 'ingest', 'items', `${FIXTURES}items`])).code, 0);
  assert.equal((await cli(['--db', db, 'ingest', 'entities', `${FIXTURES}persons`])).code, 0);
  store = openSqliteStore({ path: db });
  host = new IndexHost(store);
  while (!(await host.refresh('item', 1000)));
  while (!(await host.refresh('person', 1000)));
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every hit of a search in id order, with its doc: what an export must write. */
async function searched(
  kind: 'item' | 'person',
  query: string,
  filters?: Record<string, string[]>,
): Promise<{ ids: string[]; lines: string[] }> {
  const schema = kind === 'item' ? itemSchema : personSchema;
  const request: SearchRequest = {
    query: parseQuery(query, { fields: queryFields(schema) }),
    ...(filters ? { filters } : {}),
    sort: { kind: 'id', descending: false },
    offset: 0,
    rows: 100_000,
  };
  const answer = await host.search({ kind, request }, Date.now() + 60_000);
  assert.equal(answer.ids.length, answer.total);
  return { ids: answer.ids, lines: answer.docs };
}

const idsOf = (lines: readonly string[]) => lines.map((l) => (JSON.parse(l) as { id: string }).id);
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').slice(0, -1);
let n = 0;
const outFile = () => join(dir, `export-${++n}.jsonl`);

test('export items to stdout: every stored item once, in id order, each line its result doc', async () => {
  const run = await cli(['--db', db, 'export', 'items']);
  assert.equal(run.code, 0, run.err.join('\n'));
  const stored = await store.listItemIds({ limit: 100_000 });
  assert.ok(stored.length > 1000, 'the fixtures hold more than a thousand items');
  assert.deepEqual(idsOf(run.out), stored);
  assert.deepEqual(run.out, (await searched('item', '*:*')).lines);
  const doc = JSON.parse(run.out[0]!) as Record<string, unknown>;
  assert.deepEqual(Object.keys(doc), [
    'id',
    'title',
    'subtitle',
    'label',
    'thumbnail',
    'media',
    'category',
    'type',
    'latitude',
    'longitude',
  ]);
  assert.match(run.err.at(-1)!, new RegExp(`^Exported ${stored.length.toLocaleString('en-US')} items in \\d+\\.\\d s\\.$`));
});

test('export items --out FILE writes the same lines as stdout; an existing file is refused without --resume', async () => {
  const file = outFile();
  const run = await cli(['--db', db, 'export', 'items', '--out', file]);
  assert.equal(run.code, 0, run.err.join('\n'));
  assert.deepEqual(run.out, []);
  assert.deepEqual(linesOf(file), (await searched('item', '*:*')).lines);
  assert.match(run.err.at(-1)!, new RegExp(`^Exported [\\d,]+ items to ${file} in`));

  const again = await cli(['--db', db, 'export', 'items', '--out', file]);
  assert.equal(again.code, 1);
  assert.deepEqual(again.err, [
    `heritage-api: ${file} exists already: add --resume to continue it after its last line, or remove it to export again.`,
  ]);
});

test('export items --query and --fq: the hits of that search, each once', async () => {
  const types = host.index('item').search(
    {
      query: { kind: 'all' },
      facets: [{ field: 'type_fct', limit: 2, mincount: 1, sort: 'count' }],
      sort: { kind: 'id', descending: false },
      offset: 0,
      rows: 0,
    },
    Date.now() + 60_000,
  ).facets[0]!.values;
  assert.equal(types.length, 2);
  const [a, b] = [types[0]!.value, types[1]!.value];

  const query = await cli(['--db', db, 'export', 'items', '--query', 'goethe']);
  assert.equal(query.code, 0, query.err.join('\n'));
  const expected = await searched('item', 'goethe');
  assert.ok(expected.ids.length > 0 && expected.ids.length < (await store.countItems()));
  assert.deepEqual(query.out, expected.lines);

  const one = await cli(['--db', db, 'export', 'items', '--fq', `type_fct:${a}`]);
  assert.deepEqual(idsOf(one.out), (await searched('item', '*:*', { type_fct: [a] })).ids);
  // values of one facet OR-ed; quotes around a value are taken off
  const two = await cli(['--db', db, 'export', 'items', '--fq', `type_fct:"${a}"`, '--fq', `type_fct:${b}`]);
  assert.deepEqual(idsOf(two.out), (await searched('item', '*:*', { type_fct: [a, b] })).ids);
  assert.equal(two.out.length, types[0]!.count + types[1]!.count);
  // facets AND-ed, with a query
  const both = await cli(['--db', db, 'export', 'items', '--query', 'goethe', '--fq', `type_fct:${a}`, '--fq', 'has_media_fct:true']);
  assert.deepEqual(idsOf(both.out), (await searched('item', 'goethe', { type_fct: [a], has_media_fct: ['true'] })).ids);
  const none = await cli(['--db', db, 'export', 'items', '--fq', 'place_fct:Nirgendwo']);
  assert.deepEqual([none.code, none.out], [0, []]);
});

test('export persons: every person once, as its entity doc with its count', async () => {
  const run = await cli(['--db', db, 'export', 'persons']);
  assert.equal(run.code, 0, run.err.join('\n'));
  const expected = await searched('person', '*:*');
  assert.equal(expected.ids.length, await store.countPersons());
  assert.deepEqual(run.out, expected.lines);
  const doc = JSON.parse(run.out[0]!) as Record<string, unknown>;
  assert.equal(typeof doc['preferredName'], 'string');
  assert.equal(typeof doc['count'], 'number');
});

test('--resume goes on after the last whole line of a file cut off anywhere, a half-written line included', async () => {
  const full = outFile();
  assert.equal((await cli(['--db', db, 'export', 'items', '--out', full])).code, 0);
  const whole = readFileSync(full);
  const lineEnds = [...whole.entries()].filter(([, byte]) => byte === 10).map(([i]) => i);
  const cuts = [
    ['in the middle of a line', Math.floor(whole.length * 0.4)],
    ['right after a line', lineEnds[Math.floor(lineEnds.length / 3)]! + 1],
    ['one byte into a line', lineEnds[10]! + 2],
    ['inside the first line', 5],
    ['to nothing', 0],
    ['one byte short of the end', whole.length - 1],
  ] as const;
  for (const [what, size] of cuts) {
    const file = outFile();
    writeFileSync(file, whole);
    truncateSync(file, size);
    const run = await cli(['--db', db, 'export', 'items', '--out', file, '--resume']);
    assert.equal(run.code, 0, `${what}: ${run.err.join('\n')}`);
    assert.ok(readFileSync(file).equals(whole), `${what}: the resumed file is the whole export`);
  }
  // A finished file resumes to itself, exporting nothing more.
  const done = await cli(['--db', db, 'export', 'items', '--out', full, '--resume']);
  assert.equal(done.code, 0);
  assert.ok(readFileSync(full).equals(whole));
  assert.match(done.err.at(-1)!, /^Exported 0 items after \w+ to /);
  // --resume of a file that is not there yet starts it.
  const fresh = outFile();
  assert.equal((await cli(['--db', db, 'export', 'items', '--out', fresh, '--resume'])).code, 0);
  assert.ok(readFileSync(fresh).equals(whole));
});

test('bad arguments get one clear line and exit code 1, and write nothing', async () => {
  const notHits = outFile();
  writeFileSync(notHits, 'hello\nworld\n');
  const cases: Array<[string[], string]> = [
    [['export', 'things'], "heritage-api: export takes items or persons, not 'things'."],
    [['export', 'items', '--query', 'title:(goethe'], 'heritage-api: --query: '],
    [['export', 'items', '--fq', 'Berlin'], `heritage-api: --fq takes FIELD:VALUE, e.g. --fq 'place_fct:"Berlin"'; got 'Berlin'.`],
    [['export', 'items', '--fq', 'town:Berlin'], "heritage-api: --fq: 'town' is not a facet; the facets are time_fct, "],
    [
      ['export', 'persons', '--fq', 'type_fct:mediatype_002'],
      "heritage-api: --fq: 'type_fct' is not a facet; the facets are person_name_fct, ",
    ],
    [['export', 'items', '--resume'], 'heritage-api: --resume continues an --out FILE; give the file with --out.'],
    [['export', 'items', '--out', dir], `heritage-api: --out ${dir} is not a file.`],
    [
      ['export', 'items', '--out', notHits, '--resume'],
      `heritage-api: Cannot resume: the last line of ${notHits} is not an exported hit with an "id" (world). Export to a new file instead.`,
    ],
  ];
  for (const [args, message] of cases) {
    const run = await cli(['--db', db, ...args]);
    assert.equal(run.code, 1, args.join(' '));
    assert.deepEqual(run.out, [], args.join(' '));
    assert.equal(run.err.length, 1, `${args.join(' ')}: ${run.err.join(' | ')}`);
    assert.ok(run.err[0]!.startsWith(message), `${args.join(' ')}: ${run.err[0]}`);
  }
  assert.equal(readFileSync(notHits, 'utf8'), 'hello\nworld\n', 'a file that cannot be resumed is left as it was');
  const missing = await cli(['--db', join(dir, 'nothing.db'), 'export', 'items']);
  assert.equal(missing.code, 1);
  assert.match(missing.err[0]!, /^heritage-api: There is no store at /);
});
