/**
 * GET /items/{id}/aip, /items/{id}, /items/{id}/parents over the real server
 * (spec 2.3, 2.4, 4.3, 4.4, 7; docs/decisions.md "Hierarchy", "Item package").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';
import { CHAPTER_ID, CORTEX_DIR, GOETHE_ID, OTHER_CORTEX_ID } from '../helpers/paths.js';

const HIERARCHY_NS = 'http://www.deutsche-digitale-bibliothek.de/item';

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} spec 4.4 / decisions "Item package": Accept XML returns the stored cortex document byte for byte`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      for (const id of [CHAPTER_ID, OTHER_CORTEX_ID]) {
        const res = await t.app.inject({ url: `/items/${id}/aip`, headers: t.xml });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
        assert.equal(res.body, readFileSync(`${CORTEX_DIR}${id}.xml`, 'utf8'));
      }
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 2.4: Accept JSON returns the package JSON with the parts in cortex order`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      const res = await t.app.inject({ url: `/items/${CHAPTER_ID}/aip`, headers: t.json });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const body = res.json();
      assert.deepEqual(Object.keys(body), [
        'properties',
        'edm',
        'indexing-profile',
        'preview',
        'view',
        'metadata-record',
        'provider-info',
        'aggregator-info',
        'binaries',
      ]);
      assert.deepEqual(body.properties, {
        'item-id': CHAPTER_ID,
        'ingest-id': '200000202',
        'ingest-date': '14-06-19 13:42:21',
        'cortex-type': 'Kultur',
      });
      assert.deepEqual(body.preview, {
        '@type': 'Kultur',
        '@media': 'text',
        title: 'XI. * * *',
        subtitle: 'Erschienen in: Beyträge zur Naturgeschichte; 1',
        thumbnail: { '@href': `/binary/${CHAPTER_ID}/list/1.jpg` },
      });
      assert.equal(
        body.edm.RDF.ProvidedCHO.isPartOf['@resource'],
        'http://www.deutsche-digitale-bibliothek.de/item/X25Y2NE7RRBGD2YT36TYQTUNSDGJVBFR',
      );
      assert.deepEqual(body.binaries.binary[0], {
        '@category': 'list',
        '@primary': 'true',
        '@position': '1',
        '@path': `/binary/${CHAPTER_ID}/list/1.jpg`,
        '@mimetype': 'image/jpeg',
        '@name2': 'Digitalisat: GDZ',
        '@name': 'XI. * * *',
      });
      assert.match(body['metadata-record'], /^<OAI-PMH xmlns="http:\/\/www.openarchives.org\/OAI\/2.0\/"/);
      // /items/{id} is the package too (the newer API generation's path).
      const short = await t.app.inject({ url: `/items/${CHAPTER_ID}`, headers: t.json });
      assert.equal(short.statusCode, 200);
      assert.equal(short.body, res.body);
    } finally {
      await t.close();
    }
  });

  test(`${b} package JSON loaded (goethe.json) is served as JSON and as derived cortex XML`, async () => {
    const t = await startTestApp(backend, { load: [`${CORTEX_DIR}goethe.json`] });
    try {
      const res = await t.app.inject({ url: `/items/${GOETHE_ID}/aip`, headers: t.json });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      const raw = JSON.parse(readFileSync(`${CORTEX_DIR}goethe.json`, 'utf8'));
      assert.deepEqual(body.properties, raw.properties);
      assert.deepEqual(body.preview, raw.preview);
      assert.deepEqual(body['provider-info'], raw['provider-info']);
      assert.deepEqual(body.binaries, raw.binaries);
      assert.equal(body.view.item.viewers, null);
      // The duplicate `subject` keys of the raw text are merged in document order
      // (docs/decisions.md "The JSON form").
      assert.deepEqual(body.edm.RDF.ProvidedCHO.subject, [
        'Druckgraphik',
        'Goethe, Johann Wolfgang von',
        { '@resource': 'http://d-nb.info/gnd/4113357-2' },
        { '@resource': 'http://d-nb.info/gnd/118540238' },
      ]);
      const xml = await t.app.inject({ url: `/items/${GOETHE_ID}/aip`, headers: t.xml });
      assert.equal(xml.statusCode, 200);
      assert.match(
        xml.body,
        /^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?><cortex xmlns="http:\/\/www.deutsche-digitale-bibliothek.de\/cortex"/,
      );
      assert.match(xml.body, /<dc:title>Goethe<\/dc:title>/);
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 2.3 / 4.3: parents in JSON, the inquired item first, root last, parent null on the root`, async () => {
    const t = await startTestApp(backend, {
      load: [
        writePackages([
          { id: 'ROOTITEM', title: 'Root & <Co>', htype: 'htype_020', aggregationEntity: true },
          { id: 'VOLITEM', title: 'Volume 1', htype: 'htype_007', position: '1', parent: 'ROOTITEM' },
          { id: 'CHAPITEM', title: 'Chapter "XI"', htype: 'htype_018', position: '11', parent: 'VOLITEM' },
        ]),
      ],
    });
    try {
      const res = await t.app.inject({ url: '/items/CHAPITEM/parents', headers: t.json });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(
        res.body,
        '{"hierarchy":[' +
          '{"id":"CHAPITEM","parent":"VOLITEM","label":"Chapter \\"XI\\"","type":"htype_018","position":"11","leaf":true,"aggregationEntity":false},' +
          '{"id":"VOLITEM","parent":"ROOTITEM","label":"Volume 1","type":"htype_007","position":"1","leaf":false,"aggregationEntity":false},' +
          '{"id":"ROOTITEM","parent":null,"label":"Root & <Co>","type":"htype_020","position":"-1","leaf":false,"aggregationEntity":true}]}',
      );
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 2.3: parents in XML: ns2:hierarchy-node, unprefixed children, no parent on the root, isAggregationEntity`, async () => {
    const t = await startTestApp(backend, {
      load: [
        writePackages([
          { id: 'ROOTITEM', title: 'Root & <Co>', htype: 'htype_020', aggregationEntity: true },
          { id: 'VOLITEM', title: 'Volume 1', htype: 'htype_007', position: '1', parent: 'ROOTITEM' },
        ]),
      ],
    });
    try {
      const res = await t.app.inject({ url: '/items/VOLITEM/parents', headers: t.xml });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
      assert.equal(
        res.body,
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
          `<hierarchy xmlns:ns2="${HIERARCHY_NS}">` +
          '<ns2:hierarchy-node><id>VOLITEM</id><parent>ROOTITEM</parent><label>Volume 1</label><type>htype_007</type><position>1</position><leaf>true</leaf><isAggregationEntity>false</isAggregationEntity></ns2:hierarchy-node>' +
          '<ns2:hierarchy-node><id>ROOTITEM</id><label>Root &amp; &lt;Co&gt;</label><type>htype_020</type><position>-1</position><leaf>false</leaf><isAggregationEntity>true</isAggregationEntity></ns2:hierarchy-node>' +
          '</hierarchy>',
      );
    } finally {
      await t.close();
    }
  });

  test(`${b} decisions "Hierarchy": an item with no parent gives an empty hierarchy in JSON and XML`, async () => {
    const t = await startTestApp(backend, { load: [`${CORTEX_DIR}${OTHER_CORTEX_ID}.xml`] });
    try {
      const json = await t.app.inject({ url: `/items/${OTHER_CORTEX_ID}/parents`, headers: t.json });
      assert.equal(json.statusCode, 200);
      assert.equal(json.body, '{"hierarchy":[]}');
      const xml = await t.app.inject({ url: `/items/${OTHER_CORTEX_ID}/parents`, headers: t.xml });
      assert.equal(xml.body, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><hierarchy/>');
    } finally {
      await t.close();
    }
  });

  test(`${b} parents answers follow loads made while the server runs, through this process or another`, async () => {
    const t = await startTestApp(backend, {
      load: [
        writePackages([
          { id: 'P1', title: 'Parent' },
          { id: 'C1', title: 'Child', parent: 'P1' },
        ]),
      ],
    });
    try {
      const leafOfC1 = async () => (await t.app.inject({ url: '/items/C1/parents', headers: t.json })).json().hierarchy[0].leaf;
      assert.equal(await leafOfC1(), true);
      assert.equal(await leafOfC1(), true); // now from the cache
      const { ingestItems } = await import('../../src/ingest/ingestItems.js');
      await ingestItems(t.store, [writePackages([{ id: 'G1', title: 'Grandchild', parent: 'C1' }])], { batchSize: 10 });
      assert.equal(await leafOfC1(), false);
      const leafOfG1 = async () => (await t.app.inject({ url: '/items/G1/parents', headers: t.json })).json().hierarchy[0].leaf;
      assert.equal(await leafOfG1(), true);
      // Another connection (as `heritage-api ingest` in another process) loads a child of G1.
      const other = await backend.connect(t.location);
      try {
        await ingestItems(other, [writePackages([{ id: 'GG1', title: 'Great-grandchild', parent: 'G1' }])], { batchSize: 10 });
      } finally {
        await other.close();
      }
      assert.equal(await leafOfG1(), false);
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 7: 404 for an unknown item on aip, /items/{id} and parents, in JSON and XML`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      for (const path of ['/items/UNKNOWNITEM/aip', '/items/UNKNOWNITEM', '/items/UNKNOWNITEM/parents']) {
        const res = await t.app.inject({ url: path, headers: t.json });
        assert.equal(res.statusCode, 404, path);
        assert.equal(res.body, '{"status":404,"name":"ItemNotFoundException","message":"Item \'UNKNOWNITEM\' not found."}');
      }
      const xml = await t.app.inject({ url: '/items/UNKNOWNITEM/aip', headers: t.xml });
      assert.equal(xml.statusCode, 404);
      assert.equal(xml.headers['content-type'], 'application/xml; charset=utf-8');
      assert.equal(
        xml.body,
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><error xmlns="http://www.deutsche-digitale-bibliothek.de/error">' +
          "<status>404</status><name>ItemNotFoundException</name><message>Item 'UNKNOWNITEM' not found.</message></error>",
      );
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 7: a blocked item answers 403 with the reason on aip; parents still answers; unblock restores it`, async () => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR] });
    try {
      assert.equal(await t.store.blockItem(CHAPTER_ID, 'Blocked for copyright reasons.'), true);
      const res = await t.app.inject({ url: `/items/${CHAPTER_ID}/aip`, headers: t.json });
      assert.equal(res.statusCode, 403);
      assert.equal(
        res.body,
        JSON.stringify({
          status: 403,
          name: 'ItemBlockedException',
          message: `Item '${CHAPTER_ID}' is not available through this interface: Blocked for copyright reasons.`,
        }),
      );
      const parents = await t.app.inject({ url: `/items/${CHAPTER_ID}/parents`, headers: t.json });
      assert.equal(parents.statusCode, 200);
      assert.equal(await t.store.unblockItem(CHAPTER_ID), true);
      const again = await t.app.inject({ url: `/items/${CHAPTER_ID}/aip`, headers: t.json });
      assert.equal(again.statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 7: an internal failure is a 500 with a message and a request id, never a stack trace`, async () => {
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (d) => (log += d.toString()));
    const t = await startTestApp(backend, { load: [CORTEX_DIR], server: { logging: true, logStream: stream } });
    try {
      await t.store.close(); // the database is gone under the running server
      const res = await t.app.inject({ url: `/items/${CHAPTER_ID}/aip`, headers: t.json });
      assert.equal(res.statusCode, 500);
      const body = res.json();
      assert.match(body.requestId, /^[0-9a-f-]{36}$/);
      assert.deepEqual(body, {
        status: 500,
        name: 'GeneralException',
        message: `Internal error. It has been logged; quote request id ${body.requestId} when you report it.`,
        requestId: body.requestId,
      });
      assert.doesNotMatch(res.body, /at .*\.ts:\d+/);
      // The same request id is in the log line, with the cause.
      const line = log.split('\n').find((l) => l.includes('"internal error"'));
      assert.ok(line, 'the failure was logged');
      assert.equal(JSON.parse(line).requestId, body.requestId);
    } finally {
      await t.app.close();
    }
  });
}
