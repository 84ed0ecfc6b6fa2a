/**
 * robots.txt and the sitemaps (docs/sitemaps.md) over the real server on every backend: whole
 * bodies, pages of the configured size, lastmod from the store, every document well-formed XML
 * of the sitemaps namespace, no key needed, unknown pages 404.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { w3cDatetime } from '../../src/formats/sitemapXml.js';
import { parseXml } from '../../src/formats/xmlTree.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const ORIGIN = 'http://localhost:80';
const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** Ids that sort differently by case, one to be blocked. */
const IDS = ['B1', 'a1', 'A2', 'C3', 'BLOCKED'];
const GND = ['http://d-nb.info/gnd/118540238', 'http://d-nb.info/gnd/11871791X', 'http://d-nb.info/gnd/4005728-8'];

/** When the persons of `withApp` were stored: their lastmod lies between (to the second). */
let personsFrom = 0;
let personsUntil = 0;

/** The lastmods of a page, each checked to be a time the persons were stored. */
function personLastmods(body: string): string[] {
  const all = [...body.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]!);
  for (const l of all) {
    const at = Date.parse(l);
    assert.ok(at >= personsFrom && at <= personsUntil, `${l} is when the persons were stored`);
  }
  return all;
}

async function withApp(backend: (typeof BACKENDS)[number], pageSize: number, run: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await startTestApp(backend, {
    load: [writePackages(IDS.map((id) => ({ id, title: `Title of ${id}` })))],
    flags: { web: { sitemapPageSize: pageSize } },
  });
  try {
    personsFrom = Math.floor(Date.now() / 1000) * 1000;
    await t.store.upsertPersons(
      [...GND, 'http://viaf.org/viaf/24602065'].map((id) => preparePerson({ id, type: 'person', preferredName: id, variantName: [] })),
    );
    personsUntil = Date.now();
    assert.ok(await t.store.blockItem('BLOCKED', 'test'));
    await run(t);
  } finally {
    await t.close();
  }
}

/** Well-formed XML whose root is `root` in the sitemaps namespace. */
function assertSitemapXml(body: string, root: 'sitemapindex' | 'urlset'): void {
  const doc = parseXml(body);
  assert.equal(doc.local, root);
  assert.equal(doc.namespace, NS);
}

const lastmod = async (t: TestApp, id: string) => w3cDatetime((await t.store.getItemHead(id))!.lastModified);

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} robots.txt names the sitemap; the index and its pages list every item and GND person page, two a page`, () =>
    withApp(backend, 2, async (t) => {
      const robots = await t.app.inject({ url: '/robots.txt' });
      assert.equal(robots.statusCode, 200);
      assert.equal(robots.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(
        robots.body,
        '# heritage-api: the pages for people may be crawled; the API answers with a key only (docs/sitemaps.md).\n' +
          'User-agent: *\nDisallow: /search\nDisallow: /items/\nDisallow: /entities\nDisallow: /2/\nAllow: /\n\n' +
          `Sitemap: ${ORIGIN}/sitemap.xml\n`,
      );

      // Served items in code point order: A2, B1, C3, a1 (BLOCKED is left out).
      const [a2, b1, c3, a1] = await Promise.all(['A2', 'B1', 'C3', 'a1'].map((id) => lastmod(t, id)));
      const newest = (x: string, y: string) => (x > y ? x : y);
      const index = await t.app.inject({ url: '/sitemap.xml' });
      assert.equal(index.statusCode, 200);
      const [p1, p2] = personLastmods(index.body.slice(index.body.indexOf('persons-1.xml')));
      const [g1, g2, g3] = personLastmods((await t.app.inject({ url: '/sitemap/persons-1.xml' })).body).concat(
        personLastmods((await t.app.inject({ url: '/sitemap/persons-2.xml' })).body),
      );
      assert.equal(p1, newest(g1!, g2!));
      assert.equal(p2, g3);
      assert.equal(index.headers['content-type'], 'application/xml; charset=utf-8');
      assert.equal(
        index.body,
        `${DECL}<sitemapindex xmlns="${NS}">\n` +
          `<sitemap><loc>${ORIGIN}/sitemap/items-1.xml</loc><lastmod>${newest(a2!, b1!)}</lastmod></sitemap>\n` +
          `<sitemap><loc>${ORIGIN}/sitemap/items-2.xml</loc><lastmod>${newest(c3!, a1!)}</lastmod></sitemap>\n` +
          `<sitemap><loc>${ORIGIN}/sitemap/persons-1.xml</loc><lastmod>${p1}</lastmod></sitemap>\n` +
          `<sitemap><loc>${ORIGIN}/sitemap/persons-2.xml</loc><lastmod>${p2}</lastmod></sitemap>\n` +
          '</sitemapindex>\n',
      );
      assertSitemapXml(index.body, 'sitemapindex');

      const pages: Record<string, string> = {
        'items-1.xml': `<url><loc>${ORIGIN}/item/A2</loc><lastmod>${a2}</lastmod></url>\n<url><loc>${ORIGIN}/item/B1</loc><lastmod>${b1}</lastmod></url>\n`,
        'items-2.xml': `<url><loc>${ORIGIN}/item/C3</loc><lastmod>${c3}</lastmod></url>\n<url><loc>${ORIGIN}/item/a1</loc><lastmod>${a1}</lastmod></url>\n`,
        'persons-1.xml':
          `<url><loc>${ORIGIN}/person/118540238</loc><lastmod>${g1}</lastmod></url>\n` +
          `<url><loc>${ORIGIN}/person/11871791X</loc><lastmod>${g2}</lastmod></url>\n`,
        'persons-2.xml': `<url><loc>${ORIGIN}/person/4005728-8</loc><lastmod>${g3}</lastmod></url>\n`,
      };
      for (const [name, urls] of Object.entries(pages)) {
        for (const url of [`/sitemap/${name}`, `/2/sitemap/${name}`]) {
          const res = await t.app.inject({ url });
          assert.equal(res.statusCode, 200, url);
          assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
          assert.equal(res.body, `${DECL}<urlset xmlns="${NS}">\n${urls}</urlset>\n`, url);
          assertSitemapXml(res.body, 'urlset');
          const again = await t.app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
          assert.equal(again.statusCode, 304, `${url} has a validator`);
        }
      }
      // Every page linked from the index answers, and names the page it lists (each of the pages answers too).
      for (const loc of index.body.matchAll(/<loc>([^<]+)<\/loc>/g)) {
        assert.equal((await t.app.inject({ url: new URL(loc[1]!).pathname })).statusCode, 200, loc[1]);
      }
      const item = await t.app.inject({ url: '/item/A2', headers: { accept: 'text/html' } });
      assert.equal(item.statusCode, 200, 'a listed URL is a page');
    }));

  test(`${b} a page holds at most web.sitemapPageSize URLs; a change reaches the sitemaps`, () =>
    withApp(backend, 3, async (t) => {
      const locs = async (url: string) => [...(await t.app.inject({ url })).body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
      assert.deepEqual(await locs('/sitemap.xml'), [
        `${ORIGIN}/sitemap/items-1.xml`,
        `${ORIGIN}/sitemap/items-2.xml`,
        `${ORIGIN}/sitemap/persons-1.xml`,
      ]);
      assert.equal((await locs('/sitemap/items-1.xml')).length, 3);
      assert.equal((await locs('/sitemap/items-2.xml')).length, 1);
      assert.equal((await locs('/sitemap/persons-1.xml')).length, 3);
      // Unblocked, the item is listed again, and the pages shift.
      assert.ok(await t.store.unblockItem('BLOCKED'));
      assert.deepEqual(
        await locs('/sitemap/items-1.xml'),
        ['A2', 'B1', 'BLOCKED'].map((id) => `${ORIGIN}/item/${id}`),
      );
      assert.deepEqual(
        await locs('/sitemap/items-2.xml'),
        ['C3', 'a1'].map((id) => `${ORIGIN}/item/${id}`),
      );

      // A person's lastmod moves when its record changes, and only then.
      const stamp = async () => (await t.store.listSitemapEntries('person', { from: GND[0]!, limit: 1 }))[0]!.lastModified!.getTime();
      const first = await stamp();
      const goethe = (name: string) => preparePerson({ id: GND[0]!, type: 'person', preferredName: name, variantName: [] });
      await t.store.upsertPersons([goethe(GND[0]!)]);
      assert.equal(await stamp(), first, 'an unchanged record keeps its time');
      while (Date.now() <= first) await new Promise((r) => setImmediate(r));
      await t.store.upsertPersons([goethe('Goethe, Johann Wolfgang von')]);
      const changed = await stamp();
      assert.ok(changed > first, 'a changed record gets a later time');
    }));

  test(`${b} unknown sitemaps are a 404 in the catalog's form; no key is needed; a bad Host is a 400`, () =>
    withApp(backend, 2, async (t) => {
      for (const name of [
        'items-3.xml',
        'persons-0.xml',
        'items-01.xml',
        'people-1.xml',
        'items-1.txt',
        'items-99999999999.xml',
        '..%2Fetc',
      ]) {
        const res = await t.app.inject({ url: `/sitemap/${name}`, headers: { accept: 'application/json' } });
        assert.equal(res.statusCode, 404, name);
        const shown = decodeURIComponent(name);
        assert.equal(
          res.body,
          `{"status":404,"name":"NotFoundException","message":"There is no sitemap '${shown}'. /sitemap.xml lists the sitemaps this server has."}`,
          name,
        );
      }
      // The pages are public, and so is what points search engines to them.
      for (const url of ['/robots.txt', '/sitemap.xml', '/sitemap/items-1.xml']) {
        assert.equal((await t.app.inject({ url, headers: { authorization: 'OAuth oauth_consumer_key="wrong"' } })).statusCode, 200, url);
      }
      const bad = await t.app.inject({ url: '/sitemap.xml', headers: { host: 'bad host', accept: 'application/json' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(JSON.parse(bad.body).name, 'BadRequestException');
    }));
}
