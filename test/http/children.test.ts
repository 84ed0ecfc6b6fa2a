/**
 * GET /items/{id}/children over the real server (docs/decisions.md "Children"): whole
 * bodies in JSON and XML, paging, and the errors of `aip`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';

const HIERARCHY_NS = 'http://www.deutsche-digitale-bibliothek.de/item';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

const TREE = [
  { id: 'ROOTITEM', title: 'Root & <Co>', htype: 'htype_020', aggregationEntity: true },
  { id: 'VOL2', title: 'Volume 2', htype: 'htype_007', position: '2', parent: 'ROOTITEM' },
  { id: 'VOL1', title: 'Volume "1"', htype: 'htype_007', position: '1', parent: 'ROOTITEM' },
  { id: 'VOL10', title: 'Volume 10', htype: 'htype_007', position: '10', parent: 'ROOTITEM' },
  { id: 'CHAP1', title: 'Chapter 1', htype: 'htype_018', position: '1', parent: 'VOL1' },
  { id: 'CHAP2', title: 'Chapter 2', htype: 'htype_018', position: '2', parent: 'VOL1' },
];

const node = (id: string, label: string, position: string, childCount: number) =>
  `{"id":"${id}","parent":"ROOTITEM","label":${JSON.stringify(label)},"type":"htype_007","position":"${position}","leaf":${childCount === 0},"aggregationEntity":false,"childCount":${childCount}}`;

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withTree = async (run: (t: TestApp) => Promise<void>) => {
    const t = await startTestApp(backend, { load: [writePackages(TREE)] });
    try {
      await run(t);
    } finally {
      await t.close();
    }
  };

  test(`${b} children in JSON: numberOfResults, nodes by position with child counts`, () =>
    withTree(async (t) => {
      const res = await t.app.inject({ url: '/items/ROOTITEM/children', headers: t.json });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers.vary, 'Accept, Accept-Encoding');
      assert.equal(
        res.body,
        `{"numberOfResults":3,"hierarchy":[${node('VOL1', 'Volume "1"', '1', 2)},${node('VOL2', 'Volume 2', '2', 0)},${node('VOL10', 'Volume 10', '10', 0)}]}`,
      );
    }));

  test(`${b} children paged with offset and rows; past the end an empty list`, () =>
    withTree(async (t) => {
      const page = await t.app.inject({ url: '/items/ROOTITEM/children?offset=1&rows=1', headers: t.json });
      assert.equal(page.statusCode, 200);
      assert.equal(page.body, `{"numberOfResults":3,"hierarchy":[${node('VOL2', 'Volume 2', '2', 0)}]}`);
      const past = await t.app.inject({ url: '/items/ROOTITEM/children?offset=3', headers: t.json });
      assert.equal(past.body, '{"numberOfResults":3,"hierarchy":[]}');
      // The key as a query parameter works here too.
      const byQuery = await t.app.inject({
        url: `/items/ROOTITEM/children?rows=0&oauth_consumer_key=${t.key}`,
        headers: { accept: 'application/json' },
      });
      assert.equal(byQuery.statusCode, 200);
      assert.equal(byQuery.body, '{"numberOfResults":3,"hierarchy":[]}');
    }));

  test(`${b} children in XML: ns2:hierarchy-node as parents writes them, numberOfResults first`, () =>
    withTree(async (t) => {
      const res = await t.app.inject({ url: '/items/VOL1/children', headers: t.xml });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
      assert.equal(
        res.body,
        `${DECL}<hierarchy xmlns:ns2="${HIERARCHY_NS}"><numberOfResults>2</numberOfResults>` +
          '<ns2:hierarchy-node><id>CHAP1</id><parent>VOL1</parent><label>Chapter 1</label><type>htype_018</type><position>1</position><leaf>true</leaf><isAggregationEntity>false</isAggregationEntity><childCount>0</childCount></ns2:hierarchy-node>' +
          '<ns2:hierarchy-node><id>CHAP2</id><parent>VOL1</parent><label>Chapter 2</label><type>htype_018</type><position>2</position><leaf>true</leaf><isAggregationEntity>false</isAggregationEntity><childCount>0</childCount></ns2:hierarchy-node>' +
          '</hierarchy>',
      );
    }));

  test(`${b} an item without children: numberOfResults 0 and an empty list, JSON and XML`, () =>
    withTree(async (t) => {
      const json = await t.app.inject({ url: '/items/CHAP1/children', headers: t.json });
      assert.equal(json.statusCode, 200);
      assert.equal(json.body, '{"numberOfResults":0,"hierarchy":[]}');
      const xml = await t.app.inject({ url: '/items/CHAP1/children', headers: t.xml });
      assert.equal(xml.body, `${DECL}<hierarchy><numberOfResults>0</numberOfResults></hierarchy>`);
    }));

  test(`${b} children follow loads made while the server runs`, () =>
    withTree(async (t) => {
      const count = async () => (await t.app.inject({ url: '/items/VOL2/children', headers: t.json })).json().numberOfResults;
      assert.equal(await count(), 0);
      assert.equal(await count(), 0); // cached
      const { ingestItems } = await import('../../src/ingest/ingestItems.js');
      await ingestItems(t.store, [writePackages([{ id: 'CHAP3', title: 'Chapter 3', parent: 'VOL2' }])], { batchSize: 10 });
      assert.equal(await count(), 1);
    }));

  test(`${b} children errors: 404 unknown, 403 blocked, 400 bad rows, 406, 401, in the catalog's bodies`, () =>
    withTree(async (t) => {
      const unknown = await t.app.inject({ url: '/items/NOSUCHITEM/children', headers: t.json });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.body, '{"status":404,"name":"ItemNotFoundException","message":"Item \'NOSUCHITEM\' not found."}');
      const unknownXml = await t.app.inject({ url: '/items/NOSUCHITEM/children', headers: t.xml });
      assert.equal(
        unknownXml.body,
        `${DECL}<error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>404</status><name>ItemNotFoundException</name><message>Item 'NOSUCHITEM' not found.</message></error>`,
      );
      await t.store.blockItem('VOL1', 'copyright');
      const blocked = await t.app.inject({ url: '/items/VOL1/children', headers: t.json });
      assert.equal(blocked.statusCode, 403);
      assert.equal(
        blocked.body,
        '{"status":403,"name":"ItemBlockedException","message":"Item \'VOL1\' is not available through this interface: copyright"}',
      );
      const tooMany = await t.app.inject({ url: '/items/ROOTITEM/children?rows=1001', headers: t.json });
      assert.equal(tooMany.statusCode, 400);
      assert.equal(
        tooMany.body,
        '{"status":400,"name":"InvalidParameterException","message":"The parameter rows must be given once, as a whole number from 0 to 1000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex)."}',
      );
      const negative = await t.app.inject({ url: '/items/ROOTITEM/children?offset=-1', headers: t.json });
      assert.equal(negative.statusCode, 400);
      assert.equal(
        negative.body,
        '{"status":400,"name":"InvalidParameterException","message":"The parameter offset must be given once, as a whole number from 0 to 1000000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex)."}',
      );
      const html = await t.app.inject({ url: '/items/ROOTITEM/children', headers: { ...t.json, accept: 'text/html' } });
      assert.equal(html.statusCode, 406);
      assert.equal(
        html.body,
        '{"status":406,"name":"NotAcceptableException","message":"The requested type is not acceptable. Send an Accept header that allows application/json or application/xml."}',
      );
      const noKey = await t.app.inject({ url: '/items/ROOTITEM/children', headers: { accept: 'application/json' } });
      assert.equal(noKey.statusCode, 401);
    }));
}
