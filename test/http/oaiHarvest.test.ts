/**
 * Harvesting the OAI-PMH provider (docs/oai-pmh.md) with real clients over real HTTP:
 * - a harvest while records are added, changed, deleted and blocked between its pages ends
 *   with every record that existed throughout exactly once, and the incremental harvest from
 *   its first responseDate brings every change it missed;
 * - `heritage-api harvest` (src/ingest/harvest.ts) in the `ddb` format copies a store into an
 *   empty one package for package (same bytes, same ETags), and deletions follow;
 * - Catmandu's OAI importer (Debian's libcatmandu-oai-perl, on HTTP::OAI) harvests every
 *   record of the fixtures in every format and every set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { harvest } from '../../src/ingest/harvest.js';
import { edmItemOptions } from '../../src/ingest/items/edmOptions.js';
import { loadConfig } from '../../src/config.js';
import type { Store } from '../../src/store/Store.js';
import { BACKENDS, SQLITE, preparedItem } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cortexXml, writePackages, type TestPackage } from '../helpers/packages.js';
import { CORTEX_DIR, HOPE_DIR } from '../helpers/paths.js';

const run = promisify(execFile);
const HOST_ID = '127.0.0.1';

async function listen(t: TestApp): Promise<string> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `${address}/oai`;
}

interface Page {
  responseDate: string;
  records: Array<{ id: string; deleted: boolean; title: string | undefined }>;
  token: string | undefined;
}

async function fetchPage(url: string, query: string): Promise<Page> {
  const r = await fetch(`${url}?${query}`);
  assert.equal(r.status, 200);
  const body = await r.text();
  const responseDate = /<responseDate>([^<]+)<\/responseDate>/.exec(body)![1]!;
  const records = [
    ...body.matchAll(/<record><header( status="deleted")?><identifier>oai:[^:]+:([^<]+)<\/identifier>[\s\S]*?<\/record>/g),
  ].map((m) => ({
    id: m[2]!,
    deleted: m[1] !== undefined,
    title: /<dc:title>([^<]*)<\/dc:title>/.exec(m[0])?.[1],
  }));
  const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(body)?.[1];
  if (records.length === 0) assert.match(body, /noRecordsMatch/, body);
  return { responseDate, records, token };
}

async function harvestAll(
  url: string,
  first: string,
  between: (page: number) => Promise<void> = async () => {},
): Promise<{ responseDate: string; records: Page['records'] }> {
  let page = await fetchPage(url, first);
  const all = [...page.records];
  const responseDate = page.responseDate;
  for (let n = 1; page.token !== undefined; n++) {
    await between(n);
    page = await fetchPage(url, `verb=ListRecords&resumptionToken=${encodeURIComponent(page.token)}`);
    all.push(...page.records);
  }
  return { responseDate, records: all };
}

const pkg = (id: string, title = id): TestPackage => ({ id, title });
const upsert = (store: Store, ...packages: TestPackage[]) => store.upsertItems(packages.map((p) => preparedItem(cortexXml(p))));
const del = (store: Store, id: string) =>
  store.applyItemChanges([{ kind: 'delete', sourceId: `http://www.deutsche-digitale-bibliothek.de/item/${id}` }]);

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} a harvest under load: every record that existed throughout exactly once, every change by the next incremental harvest`, async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `I${String(i).padStart(2, '0')}`);
    const dir = writePackages(ids.map((id) => pkg(id)));
    const t = await startTestApp(backend, { load: [dir], flags: { oai: { pageSize: 5, rateLimitMax: 0 } } });
    try {
      const url = await listen(t);
      const changes: Array<() => Promise<unknown>> = [
        // After page 1 (I00-I04 served): change a served one and one not yet served; add two.
        () => upsert(t.store, pkg('I00', 'I00 changed'), pkg('I28', 'I28 changed'), pkg('N1'), pkg('N2')),
        // Delete a served one and one not yet served; block one not yet served.
        async () => {
          await del(t.store, 'I01');
          await del(t.store, 'I27');
          await t.store.blockItem('I26', 'asked to');
        },
        // A deleted one comes back; another is added.
        () => upsert(t.store, pkg('I01', 'I01 back'), pkg('N3')),
      ];
      const { responseDate, records } = await harvestAll(url, 'verb=ListRecords&metadataPrefix=oai_dc', async (n) => {
        await changes[n - 1]?.();
      });
      const seen = records.map((r) => r.id);
      assert.equal(new Set(seen).size, seen.length, `no record twice: ${seen.join(' ')}`);
      const throughout = ids.filter((id) => !['I01', 'I26', 'I27'].includes(id));
      for (const id of throughout) assert.equal(seen.filter((s) => s === id).length, 1, `${id} exactly once`);
      const byId = new Map(records.map((r) => [r.id, r]));
      assert.equal(byId.get('I00')!.title, 'I00', 'served before its change');
      assert.equal(byId.get('I28')!.title, 'I28 changed', 'changed before it was served');
      assert.equal(byId.get('I27')!.deleted, true, 'deleted before it was served: listed as deleted');
      assert.equal(byId.get('I26')!.deleted, true, 'blocked before it was served: listed as deleted');

      // The next incremental harvest, from the first page's responseDate, brings every change.
      const next = await harvestAll(url, `verb=ListRecords&metadataPrefix=oai_dc&from=${responseDate}`);
      const latest = new Map(next.records.map((r) => [r.id, r]));
      assert.equal(latest.get('I00')?.title, 'I00 changed');
      assert.equal(latest.get('I01')?.title, 'I01 back');
      assert.equal(latest.get('I01')?.deleted, false);
      for (const id of ['I26', 'I27']) assert.equal(latest.get(id)?.deleted, true, `${id} deleted`);
      for (const id of ['N1', 'N2', 'N3']) assert.equal(latest.get(id)?.deleted, false, `${id} added`);
      assert.equal(new Set(next.records.map((r) => r.id)).size, next.records.length);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${b} heritage-api harvest in ddb: an empty store gets the same packages, byte for byte; deletions follow`, async () => {
    const source = await startTestApp(backend, { load: [CORTEX_DIR, HOPE_DIR], flags: { oai: { pageSize: 100, rateLimitMax: 0 } } });
    const target = await SQLITE.open();
    try {
      const url = await listen(source);
      const config = loadConfig();
      const options = {
        baseUrl: url,
        metadataPrefix: 'ddb',
        edm: edmItemOptions(config),
        client: { retries: 0 },
      };
      const first = await harvest(target.store, options);
      assert.equal(first.complete, true);
      assert.deepEqual(first.problems, []);
      const total = await source.store.countItems();
      assert.equal(await target.store.countItems(), total);
      assert.equal(first.inserted, total);
      const ids = await source.store.listItemIds({ limit: total });
      for (const id of ids) {
        const [a, b2] = [await source.store.getItemDocument(id, 'xml'), await target.store.getItemDocument(id, 'xml')];
        assert.equal(b2?.etag, a!.etag, `${id}: same ETag`);
        assert.equal(b2.body.toString('utf8'), a!.body.toString('utf8'), `${id}: same package`);
      }
      // A deletion and a block at the source reach the copy with the next (incremental) run.
      await source.store.applyItemChanges([{ kind: 'delete', sourceId: `http://www.deutsche-digitale-bibliothek.de/item/${ids[0]}` }]);
      await source.store.blockItem(ids[1]!, 'asked to');
      const second = await harvest(target.store, options);
      assert.equal(second.complete, true);
      assert.equal(second.deleted, 2);
      assert.equal(await target.store.countItems(), total - 2);
      assert.equal(await target.store.getItemHead(ids[0]!), undefined);
      assert.equal(await target.store.getItemHead(ids[1]!), undefined);
    } finally {
      await source.close();
      await target.dispose();
    }
  });

  test(`${b} Catmandu's OAI importer harvests every record in every format and every set`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR, HOPE_DIR], flags: { oai: { pageSize: 100, rateLimitMax: 0 } } });
    try {
      const url = await listen(t);
      const total = await t.store.countItems();
      const catmandu = async (...args: string[]) => {
        const { stdout } = await run('catmandu', ['convert', 'OAI', '--url', url, ...args, 'to', 'JSON', '--line_delimited', '1'], {
          maxBuffer: 512 * 1024 * 1024,
        });
        return stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      };
      const [identify] = await catmandu('--identify', '1');
      assert.equal(identify?._id, url);
      const expectedIds = (await t.store.listItemIds({ limit: total })).map((id) => `oai:${HOST_ID}:${id}`).sort();
      for (const prefix of ['edm', 'oai_dc', 'ddb']) {
        const records = await catmandu('--metadataPrefix', prefix, '--handler', 'raw');
        assert.deepEqual(records.map((r) => r._identifier).sort(), expectedIds, `every record as ${prefix}`);
        for (const r of records) assert.match(String(r._metadata), /^<[A-Za-z_]/, `${prefix}: metadata of ${String(r._identifier)}`);
      }
      const sets = await catmandu('--listSets', '1');
      const specs = sets.map((s) => s._id as string).sort();
      assert.ok(specs.length >= 5, specs.join(' '));
      for (const spec of specs) {
        const expected: string[] = [];
        for (let after = 0; ;) {
          const page = await t.store.listOaiRecords({ after, set: spec, limit: 500, bodies: false });
          if (page.length === 0) break;
          expected.push(...page.map((r) => `oai:${HOST_ID}:${r.id}`));
          after = page[page.length - 1]!.num;
        }
        // The headers of the set (ListIdentifiers): the records' metadata came above.
        const records = await catmandu('--listIdentifiers', '1', '--metadataPrefix', 'edm', '--set', spec);
        assert.deepEqual(records.map((r) => r._id).sort(), expected.sort(), `every record of ${spec}`);
      }
    } finally {
      await t.close();
    }
  });
}
