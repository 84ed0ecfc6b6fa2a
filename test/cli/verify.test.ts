/**
 * `heritage-api verify` on both backends (docs/cli.md "verify"): a sound store is reported
 * sound (exit 0); one damaged on purpose behind the store's back (a changed body, stored
 * fields that differ, a body that cannot be decoded, a missing body, a cycle, a broken
 * person, and on SQLite a stray row and a damaged index page) has each damage reported
 * (exit 2); a store that is not there is refused (exit 1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { packageEtag } from '../../src/formats/packageEtag.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { decodeBody, encodeBody } from '../../src/store/bodyCodec.js';
import { BACKENDS, type TestBackend } from '../helpers/backends.js';
import { cli, type CliRun } from '../helpers/cli.js';
import { CORTEX_DIR, FIXTURES, HOPE_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

type Row = Record<string, unknown>;

/** Plain SQL on the store's database, as another program would change it. `?` placeholders on both backends. */
interface Raw {
  all(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

async function raw(backend: TestBackend, location: string): Promise<Raw> {
  if (backend.name === 'sqlite') {
    const db = new Database(location);
    return {
      all: async (sql, params = []) => {
        const statement = db.prepare(sql);
        return statement.reader ? (statement.all(...params) as Row[]) : (statement.run(...params), []);
      },
      close: async () => {
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  return {
    all: async (sql, params = []) => {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as Row[];
    },
    close: () => client.end(),
  };
}

function verify(backend: TestBackend, location: string): Promise<CliRun> {
  return backend.name === 'sqlite'
    ? cli(['--db', location, 'verify'])
    : cli(['verify'], { env: { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: location } });
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The note on parents not in the store, from the rows by SQL (the command finds them by walking the chains). */
async function danglingNote(db: Raw): Promise<string[]> {
  const rows = await db.all(
    'SELECT i.id, i.parent_ref FROM items i WHERE i.parent_ref IS NOT NULL AND NOT EXISTS (SELECT 1 FROM items p WHERE p.cho_uri = i.parent_ref) ORDER BY i.num',
  );
  if (rows.length === 0) return [];
  const shown = rows.slice(0, 5).map((r) => `${String(r.id)} (isPartOf ${String(r.parent_ref)})`);
  return [
    `  note: ${rows.length === 1 ? '1 item names' : `${rows.length} items name`} a parent that is not in the store (${shown.join(', ')}${rows.length > 5 ? ', …' : ''}); such an item answers as the top of its hierarchy until its parent is loaded`,
  ];
}

const DAMAGED_ADVICE = (n: number) =>
  `${plural(n, 'problem')} found: the store is damaged. A package or person named above is repaired by loading it again ` +
  '(heritage-api ingest items|entities PATH: its rows are rewritten), a cycle by correcting dcterms:isPartOf in the records and loading them again; ' +
  'problems of the database itself (the database section) need a backup restored.';

for (const backend of BACKENDS) {
  test(`[${backend.name}] verify: a sound store, then the same store damaged behind its back`, async () => {
    const opened = await backend.open();
    const { location } = opened;
    try {
      await ingestItems(opened.store, [CORTEX_DIR, HOPE_DIR], { batchSize: 20 });
      await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
      const items = await opened.store.countItems();
      const persons = await opened.store.countPersons();
      assert.ok(items > 40 && persons > 1000);

      const shown = backend.name === 'sqlite' ? location : location.replace(/:[^:@/]*@/, ':***@');
      const head = (database: string, databaseLines: string[] = []) => [
        `Verifying the ${backend.name === 'sqlite' ? 'SQLite' : 'PostgreSQL'} store ${shown}`,
        database,
        ...databaseLines,
      ];
      const databaseLine =
        backend.name === 'sqlite'
          ? 'database: PRAGMA integrity_check, PRAGMA foreign_key_check: no problem'
          : 'database: amcheck bt_index_check, pg_constraint convalidated: no problem';
      const amcheckNote =
        backend.name === 'sqlite'
          ? []
          : [
              '  note: amcheck bt_index_check: not run: the amcheck extension is not installed in this database, so its indexes were not checked (a superuser can run CREATE EXTENSION amcheck; then verify again)',
            ];
      const rowsLine =
        'rows: that no row of item_xml (XML bodies), item_json (JSON bodies), item_fields (stored fields), item_providers (institutions) belongs to an item that is gone';
      let db = await raw(backend, location);
      const sound = await verify(backend, location);
      assert.equal(sound.code, 0, sound.out.join('\n'));
      assert.deepEqual(sound.err, []);
      assert.deepEqual(sound.out, [
        ...head(databaseLine, amcheckNote),
        `${rowsLine}: no problem`,
        `packages: ${items} packages: both bodies, the XML against its ETag, the stored fields against the JSON: no problem`,
        `hierarchy: the parents of ${items} items, to their roots: no problem`,
        ...(await danglingNote(db)),
        `persons: ${persons} persons: each document a JSON object with its own id: no problem`,
        'No problem found.',
      ]);

      // Damage, each by plain SQL as a disk fault or a careless hand would.
      const pick = await db.all('SELECT num, id, cho_uri, etag FROM items ORDER BY num LIMIT 6');
      const [changed, fields, garbled, bodiless, loopA, loopB] = pick.map((r) => ({
        num: Number(r.num),
        id: String(r.id),
        cho: String(r.cho_uri),
        etag: String(r.etag),
      }));
      const [xmlRow] = await db.all('SELECT body FROM item_xml WHERE item = ?', [changed!.num]);
      const newXml = Buffer.concat([decodeBody(xmlRow!.body as Buffer), Buffer.from('<!-- changed -->')]);
      await db.all('UPDATE item_xml SET body = ? WHERE item = ?', [encodeBody(newXml), changed!.num]);
      await db.all("UPDATE item_fields SET doc = '{}' WHERE item = ?", [fields!.num]);
      await db.all('UPDATE item_json SET body = ? WHERE item = ?', [Buffer.from('not brotli at all'), garbled!.num]);
      await db.all('DELETE FROM item_xml WHERE item = ?', [bodiless!.num]);
      await db.all('UPDATE items SET parent_ref = ? WHERE num = ?', [loopB!.cho, loopA!.num]);
      await db.all('UPDATE items SET parent_ref = ? WHERE num = ?', [loopA!.cho, loopB!.num]);
      const [person] = await db.all('SELECT id FROM persons ORDER BY id LIMIT 1');
      await db.all("UPDATE persons SET doc = 'not json' WHERE id = ?", [person!.id]);
      const dangling = await danglingNote(db);
      const [first, second] = [loopA!.id, loopB!.id].sort();
      let databaseLines: string[] = amcheckNote;
      let rowsLines = [`${rowsLine}: no problem`];
      let databaseProblems = 0;
      if (backend.name === 'sqlite') {
        // A row of a body table for an item that is gone (SQLite keeps no foreign key there)...
        await db.all('INSERT INTO item_xml (item, body) VALUES (?, ?)', [999_999, encodeBody('<x/>')]);
        rowsLines = [`${rowsLine}: 1 problem`, '  item_xml (XML bodies): 1 rows of items that are not in the store (999999)'];
        // ... and the root page of an index the check does not read through, overwritten.
        const [{ rootpage }] = (await db.all("SELECT rootpage FROM sqlite_schema WHERE name = 'items_parent_ref'")) as [
          { rootpage: number },
        ];
        const [{ page_size: pageSize }] = (await db.all('PRAGMA page_size')) as [{ page_size: number }];
        await db.close();
        const fd = openSync(location, 'r+');
        writeSync(fd, Buffer.alloc(pageSize, 0x41), 0, pageSize, (rootpage - 1) * pageSize);
        closeSync(fd);
        db = await raw(backend, location);
      } else {
        // The extension installed, amcheck runs over every index of the store.
        await db.all('CREATE EXTENSION amcheck');
        const [{ n }] = (await db.all('SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = current_schema()')) as [{ n: number }];
        databaseLines = [];
        const damagedRun = await verify(backend, location);
        assert.equal(damagedRun.out[1], `database: amcheck bt_index_check (${n} indexes), pg_constraint convalidated: no problem`);
      }
      await db.close();

      const run = await verify(backend, location);
      assert.equal(run.code, 2, run.out.join('\n'));
      assert.deepEqual(run.err, []);
      const packageProblems = [
        `  item ${changed!.id}: its XML body does not match its digest: the ETag stored is "${changed!.etag}", the body gives "${packageEtag(newXml)}"`,
        `  item ${fields!.id}: its stored fields differ from what its package gives (a search answer would show the stored ones)`,
        `  item ${bodiless!.id}: it has no XML body`,
      ];
      const out = run.out;
      let at = 1;
      if (backend.name === 'sqlite') {
        assert.match(out[at]!, /^database: PRAGMA integrity_check, PRAGMA foreign_key_check: \d+ problems?$/);
        databaseProblems = Number(/: (\d+) problems?$/.exec(out[at]!)![1]);
        at += 1;
        for (let i = 0; i < Math.min(databaseProblems, 50); i++, at++) assert.match(out[at]!, /^ {2}PRAGMA integrity_check: /);
        if (databaseProblems > 50) assert.equal(out[at++], `  ... and ${databaseProblems - 50} more`);
      } else {
        assert.match(out[at++]!, /^database: amcheck bt_index_check \(\d+ indexes\), pg_constraint convalidated: no problem$/);
        at += databaseLines.length;
      }
      const rest = out.slice(at);
      const expectedRest = [
        ...rowsLines,
        `packages: ${items} packages: both bodies, the XML against its ETag, the stored fields against the JSON: 4 problems`,
        // The garbled body's line holds brotli's own message: matched below.
        ...[...packageProblems, 'GARBLED'].sort(),
        `hierarchy: the parents of ${items} items, to their roots: 1 problem`,
        `  cycle in isPartOf: ${first} -> ${second} -> ${first}`,
        ...dangling,
        `persons: ${persons} persons: each document a JSON object with its own id: 1 problem`,
        'PERSON',
        DAMAGED_ADVICE(databaseProblems + (backend.name === 'sqlite' ? 1 : 0) + 4 + 1 + 1),
      ];
      assert.equal(rest.length, expectedRest.length, rest.join('\n'));
      const packageLines = rest.slice(rowsLines.length + 1, rowsLines.length + 5);
      const garbledLine = packageLines.find((l) => l.startsWith(`  item ${garbled!.id}: `));
      assert.match(garbledLine ?? '', new RegExp(`^ {2}item ${garbled!.id}: its JSON body cannot be decoded \\(.+\\)$`));
      const personLine = rest[rest.length - 2]!;
      assert.match(
        personLine,
        new RegExp(`^ {2}person ${String(person!.id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: its document is not JSON \\(.+\\)$`),
      );
      const normalised = rest.map((l) => (l === garbledLine ? 'GARBLED' : l === personLine ? 'PERSON' : l));
      normalised.splice(rowsLines.length + 1, 4, ...normalised.slice(rowsLines.length + 1, rowsLines.length + 5).sort());
      assert.deepEqual(normalised, expectedRest);
      assert.ok(backend.name !== 'sqlite' || databaseProblems > 0, 'the damaged index page is found');
    } finally {
      await opened.dispose();
    }
  });
}

test('verify: a store that is not there is refused, and none is created', async () => {
  const path = join(tempDir('verify-none'), 'missing.db');
  const run = await cli(['--db', path, 'verify']);
  assert.equal(run.code, 1);
  assert.deepEqual(run.out, []);
  assert.match(run.err.join('\n'), new RegExp(`There is no store at ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`));
  assert.equal(existsSync(path), false);
});
