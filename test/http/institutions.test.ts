/**
 * GET /institutions, /institutions/sectors and /institutions/map over the
 * real server (docs/api.md "Institutions"), from the two real cortex packages: whole
 * bodies, filters, paging, validators and errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR } from '../helpers/paths.js';

const GOETHE_LIB =
  '{"id":"6MZ5APQTMS5AH2UGHRWBKVAOZ7LSCCMS","providerId":"00012362","name":"Frankfurter Goethe-Haus. Freies Deutsches Hochstift","sector":"sec_02","sectors":["sec_02"],"latitude":50.1113162,"longitude":8.6776821,"state":"","uri":"http://www.goethehaus-frankfurt.de","numberOfItems":0';
const GOETHE_MUS =
  '{"id":"YNKIAG7DFC4HZOATBPG75IFEY5BUDYUS","providerId":"99900860","name":"Frankfurter Goethe-Haus. Freies Deutsches Hochstift","sector":"sec_06","sectors":["sec_06"],"latitude":50.1113162,"longitude":8.6776821,"state":"","uri":"http://www.goethehaus-frankfurt.de","numberOfItems":1';
const UNI =
  '{"id":"X5L26OPZUGHRAXCAENZ4YSIABDSQBDCG","providerId":"00006818","name":"Georg-August-Universität Göttingen","sector":"sec_04","sectors":["sec_04"],"latitude":51.5341,"longitude":9.93784,"state":"","uri":"http://www.uni-goettingen.de/","numberOfItems":0';
const SUB =
  '{"id":"JYK3LT7TXBO32BIOFZZM5VWGEFPOFYK6","providerId":"00012417","name":"Niedersächsische Staats- und Universitätsbibliothek Göttingen","sector":"sec_02","sectors":["sec_02"],"latitude":51.540116,"longitude":9.934258,"state":"","uri":"http://www.sub.uni-goettingen.de","numberOfItems":1';

const tree = (node: string, children: string[] = []) => `${node},"children":[${children.join(',')}]}`;

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (run: (t: TestApp) => Promise<void>) => {
    const t = await startTestApp(backend, {
      load: [`${CORTEX_DIR}4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml`, `${CORTEX_DIR}NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR.xml`],
    });
    try {
      await run(t);
    } finally {
      await t.close();
    }
  };

  test(`${b} /institutions: the providers of the packages as a tree, with their items`, () =>
    withApp(async (t) => {
      const res = await t.app.inject({ url: '/institutions', headers: t.json });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'public, max-age=300');
      assert.match(String(res.headers.etag), /^W\/"[A-Za-z0-9_-]{27}"$/);
      assert.equal(res.body, `[${tree(GOETHE_LIB, [tree(GOETHE_MUS)])},${tree(UNI, [tree(SUB)])}]`);
      // The same with hasItems: each parent holds items through its child.
      const withItems = await t.app.inject({ url: '/institutions?hasItems=true', headers: t.json });
      assert.equal(withItems.body, res.body);
      const none = await t.app.inject({ url: '/institutions?hasItems=false', headers: t.json });
      assert.equal(none.body, res.body);
    }));

  test(`${b} /institutions?sector=…: those of the sector, under the institutions they belong to`, () =>
    withApp(async (t) => {
      const cases: Array<[string, string]> = [
        ['sector=sec_02', `[${tree(GOETHE_LIB)},${tree(UNI, [tree(SUB)])}]`],
        ['sector=sec_06', `[${tree(GOETHE_LIB, [tree(GOETHE_MUS)])}]`],
        ['sector=sec_04', `[${tree(UNI)}]`],
        ['sector=sec_04&hasItems=true', `[${tree(UNI)}]`],
        ['sector=sec_01', '[]'],
      ];
      for (const [query, body] of cases) {
        const res = await t.app.inject({ url: `/institutions?${query}`, headers: t.json });
        assert.equal(res.statusCode, 200, query);
        assert.equal(res.body, body, query);
      }
      const bad = await t.app.inject({ url: '/institutions?sector=museum', headers: t.json });
      assert.equal(bad.statusCode, 400);
      assert.equal(
        bad.body,
        '{"status":400,"name":"BadRequestException","message":"Bad request: querystring/sector must be equal to one of the allowed values. See /openapi.json for the parameters of this operation."}',
      );
    }));

  test(`${b} /institutions/sectors: all seven, each with its institutions`, () =>
    withApp(async (t) => {
      const res = await t.app.inject({ url: '/institutions/sectors', headers: t.json });
      assert.equal(res.statusCode, 200);
      assert.equal(
        res.body,
        '[{"value":"sec_01","count":0},{"value":"sec_02","count":2},{"value":"sec_03","count":0},{"value":"sec_04","count":1},' +
          '{"value":"sec_05","count":0},{"value":"sec_06","count":1},{"value":"sec_07","count":0}]',
      );
    }));

  test(`${b} /institutions/map: flat, paged by offset and length, hasItems for the institution itself`, () =>
    withApp(async (t) => {
      const all = await t.app.inject({ url: '/institutions/map', headers: t.json });
      assert.equal(all.statusCode, 200);
      assert.equal(all.body, `{"numberOfResults":4,"institutions":[${GOETHE_LIB}},${GOETHE_MUS}},${UNI}},${SUB}}]}`);
      const page = await t.app.inject({ url: '/institutions/map?offset=1&length=2&clusterid=-1', headers: t.json });
      assert.equal(page.body, `{"numberOfResults":4,"institutions":[${GOETHE_MUS}},${UNI}}]}`);
      const withItems = await t.app.inject({ url: '/institutions/map?hasItems=true&length=-1', headers: t.json });
      assert.equal(withItems.body, `{"numberOfResults":2,"institutions":[${GOETHE_MUS}},${SUB}}]}`);
      const cases: Array<[string, string]> = [
        ['length=-2', 'Bad request: length must be -1 (every institution) or a whole number from 0 to 1000000 in the digits 0-9.'],
        ['length=1e3', 'Bad request: length must be -1 (every institution) or a whole number from 0 to 1000000 in the digits 0-9.'],
        ['clusterid=7', 'Bad request: clusterid must be -1: this service has one cluster, holding every institution.'],
      ];
      for (const [query, message] of cases) {
        const res = await t.app.inject({ url: `/institutions/map?${query}`, headers: t.json });
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.body, JSON.stringify({ status: 400, name: 'BadRequestException', message }), query);
      }
      const offset = await t.app.inject({ url: '/institutions/map?offset=-1', headers: t.json });
      assert.equal(offset.json().name, 'InvalidParameterException');
    }));

  test(`${b} institutions: 304 on If-None-Match, a key, JSON only, and the answer follows the data`, () =>
    withApp(async (t) => {
      for (const url of ['/institutions', '/institutions/sectors', '/institutions/map']) {
        const res = await t.app.inject({ url, headers: t.json });
        const again = await t.app.inject({ url, headers: { ...t.json, 'if-none-match': String(res.headers.etag) } });
        assert.equal(again.statusCode, 304, url);
        assert.equal(again.body, '');
        assert.equal(again.headers.etag, res.headers.etag);
        const noKey = await t.app.inject({ url, headers: { accept: 'application/json' } });
        assert.equal(noKey.statusCode, 401, url);
        const xml = await t.app.inject({ url, headers: t.xml });
        assert.equal(xml.statusCode, 406, url);
        assert.match(xml.body, /<name>NotAcceptableException<\/name>/);
      }
      const before = await t.app.inject({ url: '/institutions', headers: t.json });
      const { ingestItems } = await import('../../src/ingest/ingestItems.js');
      await ingestItems(t.store, [`${CORTEX_DIR}goethe.json`], { batchSize: 10 });
      const after = await t.app.inject({ url: '/institutions', headers: { ...t.json, 'if-none-match': String(before.headers.etag) } });
      assert.equal(after.statusCode, 200);
      assert.notEqual(after.body, before.body);
    }));
}
