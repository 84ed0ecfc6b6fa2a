/**
 * The next pages an OAI-PMH list prepares while a harvester reads the current one
 * (src/http/oai/listPages.ts, docs/oai-pmh.md "Speed"): given once, bounded in count and in
 * time, a failed preparation no page; and over real HTTP, a harvest on a kept-alive connection
 * (pages prepared) answers byte for byte what one with a connection per request (none) does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { loadConfig } from '../../src/config.js';
import { PreparedPages, type ListPage } from '../../src/http/oai/listPages.js';
import { createOaiProvider } from '../../src/http/oai/provider.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import type { OaiListQuery } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';

const page = (body: string): ListPage => ({ matched: true, body, after: 1, cursor: 1, more: true });

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a prepared page is given once, to its key', async () => {
  const pages = new PreparedPages(4, 60_000);
  let reads = 0;
  pages.prepare('a', async () => (reads++, page('A')));
  pages.prepare('a', async () => (reads++, page('again')));
  assert.equal(pages.take('b'), undefined);
  assert.deepEqual(await pages.take('a'), page('A'));
  assert.equal(pages.take('a'), undefined, 'once');
  assert.equal(reads, 1, 'a key prepared twice is read once');
});

test('at most `max` pages; the oldest goes first', async () => {
  const pages = new PreparedPages(2, 60_000);
  for (const k of ['a', 'b', 'c']) pages.prepare(k, async () => page(k));
  assert.equal(pages.size, 2);
  assert.equal(pages.take('a'), undefined);
  assert.deepEqual(await pages.take('b'), page('b'));
  assert.deepEqual(await pages.take('c'), page('c'));
});

test('a page not asked for in time is dropped', async () => {
  const pages = new PreparedPages(4, 50);
  pages.prepare('a', async () => page('A'));
  assert.equal(pages.size, 1);
  await until(() => pages.size === 0, 'the page to be dropped');
  assert.equal(pages.take('a'), undefined);
});

test('a failed preparation is no page: the request reads for itself', async () => {
  const pages = new PreparedPages(4, 60_000);
  pages.prepare('a', async () => {
    throw new Error('the store went away');
  });
  assert.equal(await pages.take('a'), undefined);
});

const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** GET over a connection of its own (`Connection: close`) or one kept alive; the body without its responseDate. */
function get(url: string, keepAlive: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, keepAlive ? { agent: keptAlive } : { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve(body.replace(/<responseDate>[^<]*<\/responseDate>/, '')));
    });
    req.on('error', reject);
    req.end();
  });
}

const token = (xml: string) => /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];

for (const backend of BACKENDS) {
  test(`[${backend.name}] the next page is read once its token is given, on a kept-alive connection only`, async () => {
    const opened = await backend.open();
    try {
      const ids = Array.from({ length: 10 }, (_, i) => `Q${i}`);
      await ingestItems(opened.store, [writePackages(ids.map((id) => ({ id, title: id })))], { batchSize: 100 });
      // The store's page reads, seen on their way to the real store.
      const reads: number[] = [];
      const store = new Proxy(opened.store, {
        get: (target, name, receiver) =>
          name === 'listOaiRecords'
            ? (q: OaiListQuery) => (reads.push(q.after), target.listOaiRecords(q))
            : (Reflect.get(target, name, receiver) as unknown),
      });
      const config = loadConfig({ flags: { oai: { pageSize: 4 }, store: backend.config(opened.location) } });
      const provider = createOaiProvider(store, config);
      const first = await provider.answer(
        [
          ['verb', 'ListRecords'],
          ['metadataPrefix', 'edm'],
        ],
        { baseUrl: 'http://h/oai', host: 'h', keepAlive: true },
      );
      await until(() => reads.length === 2, 'the second page to be read ahead');
      const second = await provider.answer(
        [
          ['verb', 'ListRecords'],
          ['resumptionToken', token(first)!],
        ],
        { baseUrl: 'http://h/oai', host: 'h', keepAlive: true },
      );
      assert.equal(reads.length, 2, 'the second page was answered as prepared');
      await until(() => reads.length === 3, 'the third page to be read ahead');
      // Another host name makes other identifiers: the page prepared for the first is not given.
      const third = await provider.answer(
        [
          ['verb', 'ListRecords'],
          ['resumptionToken', token(second)!],
        ],
        { baseUrl: 'http://other/oai', host: 'other', keepAlive: false },
      );
      assert.equal(reads.length, 4, 'read again for the other host');
      assert.match(third, /oai:other:Q8/);
      assert.equal(token(third), undefined, 'the last page');
      // Without keep-alive, nothing is read ahead.
      const fresh = createOaiProvider(store, config);
      reads.length = 0;
      const alone = await fresh.answer(
        [
          ['verb', 'ListRecords'],
          ['metadataPrefix', 'edm'],
        ],
        { baseUrl: 'http://h/oai', host: 'h', keepAlive: false },
      );
      await fresh.answer(
        [
          ['verb', 'ListRecords'],
          ['resumptionToken', token(alone)!],
        ],
        { baseUrl: 'http://h/oai', host: 'h', keepAlive: false },
      );
      assert.deepEqual(reads, [0, reads[1]], 'one read per page asked');
    } finally {
      await opened.dispose();
    }
  });

  test(`[${backend.name}] a harvest with pages prepared answers what one without does, byte for byte`, async () => {
    const ids = Array.from({ length: 23 }, (_, i) => `P${String(i).padStart(2, '0')}`);
    const t = await startTestApp(backend, {
      load: [writePackages(ids.map((id) => ({ id, title: id })))],
      flags: { oai: { pageSize: 4, rateLimitMax: 0 } },
    });
    try {
      const base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/oai`;
      for (const prefix of ['edm', 'oai_dc', 'ddb']) {
        for (const verb of ['ListRecords', 'ListIdentifiers']) {
          const harvest = async (keepAlive: boolean) => {
            const bodies: string[] = [];
            let query = `verb=${verb}&metadataPrefix=${prefix}`;
            for (;;) {
              const body = await get(`${base}?${query}`, keepAlive);
              bodies.push(body);
              const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(body)?.[1];
              if (token === undefined) return bodies;
              query = `verb=${verb}&resumptionToken=${encodeURIComponent(token)}`;
            }
          };
          const plain = await harvest(false);
          assert.equal(plain.length, 6, `${verb} ${prefix}: 23 records in pages of 4`);
          assert.equal(plain.join('').match(/<header>/g)?.length, 23);
          assert.deepEqual(await harvest(true), plain, `${verb} ${prefix}`);
        }
      }
    } finally {
      await t.close();
    }
  });
}
