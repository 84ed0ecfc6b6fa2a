/**
 * `heritage-api harvest URL` against a real local OAI-PMH repository serving
 * the real HOPE records (test/helpers/oaiServer.ts), into a real store
 * (docs/cli.md "harvest"): every record exactly once through the pages,
 * a 503 with Retry-After, deleted records, a stop and a resume, an
 * incremental second run, OAI-PMH errors and a bad record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { harvest, harvestSource } from '../../src/ingest/harvest.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { cli } from '../helpers/cli.js';
import { loadEdmRecords, startOaiServer, type OaiServerRecord } from '../helpers/oaiServer.js';
import { HOPE_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const tmpDb = () => join(tempDir('harvest'), 'h.db');
/** 45 real records: 5 pages of 10. */
const records = () => loadEdmRecords(HOPE_DIR, { limit: 45 });
const SUMMARY =
  /^harvest (\S+) \((.+)\): (\d+) records in (\d+) pages in [\d.]+ s: (\d+) new, (\d+) updated, (\d+) unchanged, (\d+) deleted, (\d+) skipped\.$/;

function summary(line: string | undefined) {
  const m = SUMMARY.exec(line ?? '');
  assert.ok(m, `summary line: ${line}`);
  const [, , start, recordsRead, pages, inserted, updated, unchanged, deleted, skipped] = m;
  return {
    start,
    records: Number(recordsRead),
    pages: Number(pages),
    inserted: Number(inserted),
    updated: Number(updated),
    unchanged: Number(unchanged),
    deleted: Number(deleted),
    skipped: Number(skipped),
  };
}

function storeAt(db: string) {
  return openSqliteStore({ path: db });
}

test('every record through all pages exactly once, after a 503 with Retry-After; the second run is incremental', async () => {
  const served = records();
  const server = await startOaiServer({ records: served, pageSize: 10, failOnce: { requestIndex: 2, status: 503, retryAfter: '1' } });
  const db = tmpDb();
  try {
    const first = await cli(['--db', db, 'harvest', server.url]);
    assert.equal(first.code, 0, first.err.join('\n'));
    assert.deepEqual(first.err, ['retrying in 1.0 s (attempt 1): HTTP 503, Retry-After: 1']);
    assert.deepEqual(summary(first.out[0]), {
      start: 'from the beginning',
      records: 45,
      pages: 5,
      inserted: 45,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      skipped: 0,
    });
    const mark = /^Complete\. The next run harvests changes from (\S+)\.$/.exec(first.out[1] ?? '')?.[1];
    assert.match(mark ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The first request is the selection, then only tokens (OAI-PMH 3.5); the 503 was asked again.
    const lists = server.requests.filter((r) => r.includes('ListRecords'));
    assert.equal(lists.length, 6);
    assert.match(lists[0]!, /verb=ListRecords&metadataPrefix=edm$/);
    assert.equal(lists[1], lists[2], 'the request answered 503 is repeated');
    // Identify once, after the first page, for the granularity of the high-water mark.
    assert.equal(server.requests.filter((r) => r.includes('verb=Identify')).length, 1);
    const store = storeAt(db);
    try {
      assert.equal(await store.countItems(), 45);
      assert.deepEqual(await store.getHarvestState(harvestSource(server.url, 'edm', undefined)), {
        highWater: mark,
        resumptionToken: null,
        runFrom: null,
        runStarted: null,
      });
    } finally {
      await store.close();
    }

    // A record changed at the source after the first run: only it comes back, asked `from` the mark.
    const changed: OaiServerRecord = {
      ...served[0]!,
      datestamp: '2099-01-01T00:00:00Z',
      metadata: served[0]!.metadata.replace('Combat (1974)13', 'Combat (1974) 13'),
    };
    served.push(changed);
    const second = await cli(['--db', db, 'harvest', server.url]);
    assert.equal(second.code, 0, second.err.join('\n'));
    assert.deepEqual(summary(second.out[0]), {
      start: `from ${mark}`,
      records: 1,
      pages: 1,
      inserted: 0,
      updated: 1,
      unchanged: 0,
      deleted: 0,
      skipped: 0,
    });
    const asked = server.requests.filter((r) => r.includes('ListRecords')).at(-1)!;
    assert.ok(asked.endsWith(`&from=${encodeURIComponent(mark!)}`), asked);
  } finally {
    await server.close();
  }
});

test('a deleted record at the source is removed from the store', async () => {
  const served = records();
  const gone = served[7]!.identifier;
  const db = tmpDb();
  const before = await startOaiServer({ records: served });
  try {
    assert.equal((await cli(['--db', db, 'harvest', before.url])).code, 0);
  } finally {
    await before.close();
  }
  const after = await startOaiServer({ records: served, deleted: [gone] });
  try {
    // Another endpoint URL is another source: asked from the start, with the deletion in it.
    const run = await cli(['--db', db, 'harvest', after.url]);
    assert.equal(run.code, 0, run.err.join('\n'));
    assert.deepEqual(summary(run.out[0]), {
      start: 'from the beginning',
      records: 45,
      pages: 5,
      inserted: 0,
      updated: 0,
      unchanged: 44,
      deleted: 1,
      skipped: 0,
    });
    const store = storeAt(db);
    try {
      assert.equal(await store.countItems(), 44);
    } finally {
      await store.close();
    }
  } finally {
    await after.close();
  }
});

test('a harvest cut off in the middle keeps the pages stored and resumes at the next page: every record once', async () => {
  // Requests: 0 page 1, 1 Identify, 2 page 2, 3 page 3, which loses its connection; no retries allowed.
  const server = await startOaiServer({ records: records(), dropConnectionAt: 3 });
  const db = tmpDb();
  const env = { HERITAGE_API_HARVEST_RETRIES: '0' };
  try {
    const cut = await cli(['--db', db, 'harvest', server.url], { env });
    assert.equal(cut.code, 1);
    assert.equal(cut.err.at(-1), 'Pages stored before this stay stored; run the same command again to resume.');
    let store = storeAt(db);
    try {
      assert.equal(await store.countItems(), 20, 'two pages of ten');
      assert.notEqual((await store.getHarvestState(harvestSource(server.url, 'edm', undefined)))?.resumptionToken, null);
    } finally {
      await store.close();
    }
    const resumed = await cli(['--db', db, 'harvest', server.url], { env });
    assert.equal(resumed.code, 0, resumed.err.join('\n'));
    assert.deepEqual(summary(resumed.out[0]), {
      start: 'resumed a stopped run',
      records: 25,
      pages: 3,
      inserted: 25,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      skipped: 0,
    });
    store = storeAt(db);
    try {
      assert.equal(await store.countItems(), 45);
    } finally {
      await store.close();
    }
  } finally {
    await server.close();
  }
});

test('a stop asked for (Ctrl-C) ends after the page being stored; the next run resumes there', async () => {
  const server = await startOaiServer({ records: records() });
  const db = tmpDb();
  const store = storeAt(db);
  try {
    const stop = new AbortController();
    const options = {
      baseUrl: server.url,
      metadataPrefix: 'edm',
      edm: { ingestDate: new Date(), providersFingerprint: '' },
      client: { retries: 0 },
      signal: stop.signal,
      // The signal arrives while the second page is being stored.
      progress: { update: ({ records: n }: { records: number }) => (n >= 20 ? stop.abort() : undefined), stop() {} },
    };
    const first = await harvest(store, options);
    assert.deepEqual([first.pages, first.inserted, first.complete], [2, 20, false]);
    const rest = await harvest(store, { ...options, signal: new AbortController().signal, progress: { update() {}, stop() {} } });
    assert.deepEqual([rest.start.kind, rest.pages, rest.inserted, rest.updated, rest.complete], ['resumed', 3, 25, 0, true]);
    assert.equal(await store.countItems(), 45);
  } finally {
    await store.close();
    await server.close();
  }
});

test('OAI-PMH answers: noRecordsMatch is a complete run with nothing new; badArgument stops with the server message', async () => {
  const server = await startOaiServer({ records: records(), granularity: 'YYYY-MM-DD' });
  const db = tmpDb();
  try {
    const none = await cli(['--db', db, 'harvest', server.url, '--from', '2090-01-01']);
    assert.equal(none.code, 0, none.err.join('\n'));
    assert.deepEqual(summary(none.out[0]), {
      start: 'from 2090-01-01',
      records: 0,
      pages: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      skipped: 0,
    });
    assert.equal(none.out[1], 'Complete.');

    const bad = await cli(['--db', db, 'harvest', server.url, '--from', '2024-01-01T00:00:00Z']);
    assert.equal(bad.code, 1);
    assert.match(bad.err[0]!, /badArgument.*'2024-01-01T00:00:00Z' is finer than the repository's granularity YYYY-MM-DD/);

    const format = await cli(['--db', db, 'harvest', server.url, '--metadata-prefix', 'oai_dc']);
    assert.equal(format.code, 1);
    assert.match(format.err[0]!, /cannotDisseminateFormat/);

    const notADate = await cli(['--db', db, 'harvest', server.url, '--from', 'yesterday']);
    assert.equal(notADate.code, 1);
    assert.match(notADate.err[0]!, /^heritage-api: .*yesterday/);
  } finally {
    await server.close();
  }
});

test('the high-water mark of a day-granularity repository is a day, so the next `from` is accepted', async () => {
  const server = await startOaiServer({ records: records().slice(0, 5), granularity: 'YYYY-MM-DD' });
  const db = tmpDb();
  try {
    const first = await cli(['--db', db, 'harvest', server.url]);
    assert.equal(first.code, 0, first.err.join('\n'));
    assert.match(first.out[1]!, /^Complete\. The next run harvests changes from \d{4}-\d\d-\d\d\.$/);
    const second = await cli(['--db', db, 'harvest', server.url]);
    assert.equal(second.code, 0, second.err.join('\n'));
  } finally {
    await server.close();
  }
});

test('a bad record in a page is reported with the page URL and OAI identifier; the rest of the page is stored', async () => {
  const served = records().slice(0, 3);
  const broken: OaiServerRecord = { ...served[1]!, metadata: served[1]!.metadata.replace(/<edm:ProvidedCHO[^>]*\/>/, '') };
  const server = await startOaiServer({ records: [served[0]!, broken, served[2]!] });
  const db = tmpDb();
  try {
    const run = await cli(['--db', db, 'harvest', server.url]);
    assert.equal(run.code, 2);
    assert.deepEqual(summary(run.out[0]), {
      start: 'from the beginning',
      records: 2,
      pages: 1,
      inserted: 2,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      skipped: 1,
    });
    assert.equal(run.err.length, 1);
    assert.ok(run.err[0]!.startsWith(`skipped: ${server.url}?verb=ListRecords&metadataPrefix=edm (`), run.err[0]);
    assert.ok(run.err[0]!.includes(`OAI identifier ${broken.identifier}`), run.err[0]);
    assert.match(run.err[0]!, /has no edm:ProvidedCHO/);
  } finally {
    await server.close();
  }
});
