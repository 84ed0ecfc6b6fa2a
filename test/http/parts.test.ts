/**
 * The parts of a package as resources of their own, over the real server
 * (docs/decisions.md "Parts of a package"): whole bodies in JSON and XML, the same validators,
 * negotiation and errors as `aip`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR, GOETHE_ID, OTHER_CORTEX_ID } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const CORTEX = 'http://www.deutsche-digitale-bibliothek.de/cortex';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const ITEM = 'http://www.deutsche-digitale-bibliothek.de/item';
const EDM = 'http://www.europeana.eu/schemas/edm/';
const DC = 'http://purl.org/dc/elements/1.1/';
/** fixtures/items/cortex/bare_id.json */
const BARE_ID = '222NZKK63TNRLC2VETRV722VKBDSUVGL';

/** A small package with every part, in the shape of the 2014 cortex files (namespaces declared on the root). */
function partsPackage(title: string): string {
  return (
    `${DECL}<cortex xmlns="${CORTEX}" xmlns:ns3="${RDF}" xmlns:ns4="${ITEM}">` +
    '<properties><item-id>PARTSITEM</item-id><ingest-id>1</ingest-id><ingest-date>26-11-21 12:00:00</ingest-date><cortex-type>Kultur</cortex-type></properties>' +
    `<edm><ns3:RDF><edm:ProvidedCHO xmlns:edm="${EDM}" ns3:about="${ITEM}/PARTSITEM"><dc:title xmlns:dc="${DC}">${title}</dc:title></edm:ProvidedCHO></ns3:RDF></edm>` +
    '<indexing-profile><item-id>PARTSITEM</item-id><facet name="place_fct"><value>Göttingen</value></facet></indexing-profile>' +
    `<view><ns4:item><ns4:title>${title}</ns4:title><ns4:fields usage="display"><ns4:field id="x"><ns4:value>1</ns4:value></ns4:field></ns4:fields></ns4:item></view>` +
    '<metadata-record>&lt;lido:lido xmlns:lido="http://www.lido-schema.org"&gt;&lt;lido:lidoRecID&gt;R &amp;amp; 1&lt;/lido:lidoRecID&gt;&lt;/lido:lido&gt;</metadata-record>' +
    '<binaries><binary path="/binary/PARTSITEM/full/1.jpg" mimetype="image/jpeg" position="1"/></binaries>' +
    '</cortex>'
  );
}

/** A child of a hierarchy: no record of its own, its source description names the root's. */
const CHILD_PACKAGE =
  `${DECL}<cortex xmlns="${CORTEX}">` +
  '<properties><item-id>CHILDITEM</item-id></properties>' +
  '<source><description><id>CHILDITEM</id><record><ref>ROOTITEM</ref><href>/items/ROOTITEM/source/record</href><type>http://www.loc.gov/METS/</type></record></description></source>' +
  '</cortex>';

function writeDir(files: Record<string, string>): string {
  const dir = tempDir('parts');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (
    run: (t: TestApp) => Promise<void>,
    load = [writeDir({ 'PARTSITEM.xml': partsPackage('Parts &amp; pieces'), 'CHILDITEM.xml': CHILD_PACKAGE })],
  ) => {
    const t = await startTestApp(backend, { load });
    try {
      await run(t);
    } finally {
      await t.close();
    }
  };
  const get = (t: TestApp, path: string, headers: Record<string, string>) => t.app.inject({ url: path, headers });

  test(`${b} view, indexing-profile, binaries: the part element as a document, and the package JSON's value`, () =>
    withApp(async (t) => {
      const expected: Record<string, { xml: string; json: string }> = {
        view: {
          xml: `${DECL}<view xmlns="${CORTEX}"><ns4:item xmlns:ns4="${ITEM}"><ns4:title>Parts &amp; pieces</ns4:title><ns4:fields usage="display"><ns4:field id="x"><ns4:value>1</ns4:value></ns4:field></ns4:fields></ns4:item></view>`,
          json: '{"item":{"title":"Parts & pieces","fields":{"@usage":"display","field":{"@id":"x","value":"1"}}}}',
        },
        'indexing-profile': {
          xml: `${DECL}<indexing-profile xmlns="${CORTEX}"><item-id>PARTSITEM</item-id><facet name="place_fct"><value>Göttingen</value></facet></indexing-profile>`,
          json: '{"item-id":"PARTSITEM","facet":{"@name":"place_fct","value":"Göttingen"}}',
        },
        binaries: {
          xml: `${DECL}<binaries xmlns="${CORTEX}"><binary path="/binary/PARTSITEM/full/1.jpg" mimetype="image/jpeg" position="1"/></binaries>`,
          json: '{"binary":{"@path":"/binary/PARTSITEM/full/1.jpg","@mimetype":"image/jpeg","@position":"1"}}',
        },
      };
      const aip = (await get(t, '/items/PARTSITEM/aip', t.json)).json();
      for (const [part, body] of Object.entries(expected)) {
        const xml = await get(t, `/items/PARTSITEM/${part}`, t.xml);
        assert.equal(xml.statusCode, 200, part);
        assert.equal(xml.headers['content-type'], 'application/xml; charset=utf-8');
        assert.equal(xml.body, body.xml, part);
        const json = await get(t, `/items/PARTSITEM/${part}`, t.json);
        assert.equal(json.statusCode, 200, part);
        assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(json.body, body.json, part);
        assert.deepEqual(json.json(), aip[part], `${part} is what aip holds under it`);
      }
    }));

  test(`${b} edm: RDF/XML as application/rdf+xml (also for */*), and the package JSON's edm`, () =>
    withApp(async (t) => {
      const rdfXml = `${DECL}<ns3:RDF xmlns:ns3="${RDF}"><edm:ProvidedCHO xmlns:edm="${EDM}" ns3:about="${ITEM}/PARTSITEM"><dc:title xmlns:dc="${DC}">Parts &amp; pieces</dc:title></edm:ProvidedCHO></ns3:RDF>`;
      for (const accept of ['application/rdf+xml', '*/*', 'text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8']) {
        const res = await get(t, '/items/PARTSITEM/edm', { ...t.json, accept });
        assert.equal(res.statusCode, 200, accept);
        assert.equal(res.body, rdfXml, accept);
      }
      assert.equal(
        (await get(t, '/items/PARTSITEM/edm', { ...t.json, accept: '*/*' })).headers['content-type'],
        'application/rdf+xml; charset=utf-8',
      );
      const asXml = await get(t, '/items/PARTSITEM/edm', t.xml);
      assert.equal(asXml.headers['content-type'], 'application/xml; charset=utf-8');
      assert.equal(asXml.body, rdfXml);
      const json = await get(t, '/items/PARTSITEM/edm', t.json);
      assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(json.body, `{"RDF":{"ProvidedCHO":{"@about":"${ITEM}/PARTSITEM","title":"Parts & pieces"}}}`);
    }));

  test(`${b} source, source/description made from metadata-record; source/record is the record, XML only`, () =>
    withApp(async (t) => {
      const description =
        '<description><id>PARTSITEM</id><record><ref>PARTSITEM</ref><href>/items/PARTSITEM/source/record</href><type>http://www.lido-schema.org</type></record></description>';
      const descriptionJson =
        '{"id":"PARTSITEM","record":{"ref":"PARTSITEM","href":"/items/PARTSITEM/source/record","type":"http://www.lido-schema.org"}}';
      assert.equal((await get(t, '/items/PARTSITEM/source', t.xml)).body, `${DECL}<source xmlns="${CORTEX}">${description}</source>`);
      assert.equal((await get(t, '/items/PARTSITEM/source', t.json)).body, `{"description":${descriptionJson}}`);
      assert.equal(
        (await get(t, '/items/PARTSITEM/source/description', t.xml)).body,
        `${DECL}${description.replace('<description>', `<description xmlns="${CORTEX}">`)}`,
      );
      assert.equal((await get(t, '/items/PARTSITEM/source/description', t.json)).body, descriptionJson);
      const record = await get(t, '/items/PARTSITEM/source/record', t.xml);
      assert.equal(record.statusCode, 200);
      assert.equal(record.headers['content-type'], 'application/xml; charset=utf-8');
      assert.equal(
        record.body,
        '<?xml version="1.0" encoding="UTF-8"?><lido:lido xmlns:lido="http://www.lido-schema.org"><lido:lidoRecID>R &amp; 1</lido:lidoRecID></lido:lido>',
      );
      // What the `ddb` client sends: JSON preferred, XML accepted.
      const cli = await get(t, '/items/PARTSITEM/source/record', {
        ...t.json,
        accept: 'application/json, application/xml;q=0.9, text/plain;q=0.8, */*;q=0.5',
      });
      assert.equal(cli.statusCode, 200);
      assert.equal(cli.body, record.body);
      const jsonOnly = await get(t, '/items/PARTSITEM/source/record', t.json);
      assert.equal(jsonOnly.statusCode, 406);
      assert.equal(
        jsonOnly.body,
        '{"status":406,"name":"NotAcceptableException","message":"The requested type is not acceptable. Send an Accept header that allows application/xml."}',
      );
    }));

  test(`${b} a package's own source part is served as it is; a record kept at the root is a 303 to it`, () =>
    withApp(async (t) => {
      assert.equal(
        (await get(t, '/items/CHILDITEM/source/description', t.json)).body,
        '{"id":"CHILDITEM","record":{"ref":"ROOTITEM","href":"/items/ROOTITEM/source/record","type":"http://www.loc.gov/METS/"}}',
      );
      const record = await get(t, '/items/CHILDITEM/source/record', t.xml);
      assert.equal(record.statusCode, 303);
      assert.equal(record.headers.location, '../../ROOTITEM/source/record');
      assert.equal(record.body, '');
    }));

  test(`${b} a part the package lacks: 404 ItemPartNotFoundException naming the part, JSON and XML`, () =>
    withApp(async (t) => {
      const view = await get(t, '/items/CHILDITEM/view', t.json);
      assert.equal(view.statusCode, 404);
      assert.equal(
        view.body,
        '{"status":404,"name":"ItemPartNotFoundException","message":"Item \'CHILDITEM\' has no view part: its package does not contain one. GET /items/CHILDITEM/aip shows the parts the package has."}',
      );
      const edm = await get(t, '/items/CHILDITEM/edm', t.xml);
      assert.equal(edm.statusCode, 404);
      assert.equal(
        edm.body,
        `${DECL}<error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>404</status><name>ItemPartNotFoundException</name>` +
          "<message>Item 'CHILDITEM' has no edm part: its package does not contain one. GET /items/CHILDITEM/aip shows the parts the package has.</message></error>",
      );
    }));

  test(`${b} binaries of an item without files: the part's shape with no entries, in JSON and XML`, () =>
    withApp(
      async (t) => {
        const json = await get(t, '/items/NOFILES/binaries', t.json);
        assert.equal(json.statusCode, 200);
        assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(json.body, '{"binary":[]}');
        const xml = await get(t, '/items/NOFILES/binaries', t.xml);
        assert.equal(xml.statusCode, 200);
        assert.equal(xml.body, `${DECL}<binaries xmlns="${CORTEX}"/>`);
      },
      [
        writeDir({
          'NOFILES.xml': `${DECL}<cortex xmlns="${CORTEX}"><properties><item-id>NOFILES</item-id></properties><binaries/></cortex>`,
        }),
      ],
    ));

  test(`${b} view?lang=en: the field labels in English, with an ETag of its own; lang on the other parts changes nothing`, () =>
    withApp(
      async (t) => {
        const view = (fields: string) =>
          `${DECL}<view xmlns="${CORTEX}"><ns4:item xmlns:ns4="${ITEM}"><ns4:viewers><ns4:viewer><ns4:name>Standort</ns4:name></ns4:viewer></ns4:viewers>` +
          `<ns4:fields usage="display">${fields}</ns4:fields></ns4:item></view>`;
        const en = await get(t, '/items/LANGITEM/view?lang=en', t.xml);
        assert.equal(en.statusCode, 200);
        // Field names translated; a viewer's name, an unknown label and every value as stored.
        assert.equal(
          en.body,
          view(
            '<ns4:field id="flex_bibl_003"><ns4:name>Document type</ns4:name><ns4:value>Standort</ns4:value></ns4:field>' +
              '<ns4:field id="x"><ns4:name>Unbekannt</ns4:name><ns4:value>1</ns4:value></ns4:field>',
          ),
        );
        const enJson = await get(t, '/items/LANGITEM/view?lang=en', t.json);
        assert.equal(
          enJson.body,
          '{"item":{"viewers":{"viewer":{"name":"Standort"}},"fields":{"@usage":"display","field":[{"@id":"flex_bibl_003","name":"Document type","value":"Standort"},{"@id":"x","name":"Unbekannt","value":"1"}]}}}',
        );
        const de = await get(t, '/items/LANGITEM/view?lang=de', t.xml);
        assert.equal(de.body, (await get(t, '/items/LANGITEM/view', t.xml)).body);
        assert.ok(de.body.includes('<ns4:name>Dokumenttyp</ns4:name>'));
        assert.notEqual(en.headers.etag, de.headers.etag);
        assert.match(en.headers.etag as string, /-view-en-xml"$/);
        for (const part of ['edm', 'indexing-profile', 'binaries', 'source']) {
          const withLang = await get(t, `/items/PARTSITEM/${part}?lang=en-GB`, t.json);
          const without = await get(t, `/items/PARTSITEM/${part}`, t.json);
          assert.equal(withLang.statusCode, 200, part);
          assert.equal(withLang.body, without.body, part);
          assert.equal(withLang.headers.etag, without.headers.etag, part);
        }
      },
      [
        writeDir({
          'PARTSITEM.xml': partsPackage('Parts'),
          'LANGITEM.xml':
            `${DECL}<cortex xmlns="${CORTEX}" xmlns:ns4="${ITEM}"><properties><item-id>LANGITEM</item-id></properties>` +
            '<view><ns4:item><ns4:viewers><ns4:viewer><ns4:name>Standort</ns4:name></ns4:viewer></ns4:viewers><ns4:fields usage="display">' +
            '<ns4:field id="flex_bibl_003"><ns4:name>Dokumenttyp</ns4:name><ns4:value>Standort</ns4:value></ns4:field>' +
            '<ns4:field id="x"><ns4:name>Unbekannt</ns4:name><ns4:value>1</ns4:value></ns4:field></ns4:fields></ns4:item></view></cortex>',
        }),
      ],
    ));

  test(`${b} parts: 404 for an unknown item, 403 for a blocked one, 401 without a key, 400 for a bad id`, () =>
    withApp(async (t) => {
      for (const part of ['view', 'edm', 'indexing-profile', 'binaries', 'source', 'source/description', 'source/record']) {
        const unknown = await get(t, `/items/NOSUCHITEM/${part}`, t.xml);
        assert.equal(unknown.statusCode, 404, part);
        assert.equal(
          unknown.body,
          `${DECL}<error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>404</status><name>ItemNotFoundException</name><message>Item 'NOSUCHITEM' not found.</message></error>`,
        );
        assert.equal((await get(t, `/items/PARTSITEM/${part}`, { accept: 'application/xml' })).statusCode, 401, part);
      }
      await t.store.blockItem('PARTSITEM', 'copyright');
      const blocked = await get(t, '/items/PARTSITEM/view', t.json);
      assert.equal(blocked.statusCode, 403);
      assert.equal(
        blocked.body,
        '{"status":403,"name":"ItemBlockedException","message":"Item \'PARTSITEM\' is not available through this interface: copyright"}',
      );
      const badId = await get(t, '/items/..bad/binaries', t.json);
      assert.equal(badId.statusCode, 400);
      assert.equal(JSON.parse(badId.body).name, 'InvalidItemIdException');
    }));

  test(`${b} validators: ETag from the package ETag and the part, 304, a new ETag when the package changes`, () =>
    withApp(async (t) => {
      const aip = await get(t, '/items/PARTSITEM/aip', t.json);
      const packageTag = (aip.headers.etag as string).replace(/^"|-json"$/g, '');
      const view = await get(t, '/items/PARTSITEM/view', t.json);
      assert.equal(view.headers.etag, `"${packageTag}-view-json"`);
      assert.equal(view.headers['last-modified'], aip.headers['last-modified']);
      assert.equal(view.headers['cache-control'], aip.headers['cache-control']);
      assert.equal(view.headers.vary, 'Accept, Accept-Encoding');
      assert.equal((await get(t, '/items/PARTSITEM/view', t.xml)).headers.etag, `"${packageTag}-view-xml"`);
      assert.equal((await get(t, '/items/PARTSITEM/source/record', t.xml)).headers.etag, `"${packageTag}-source-record-xml"`);
      const again = await get(t, '/items/PARTSITEM/view', { ...t.json, 'if-none-match': view.headers.etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, view.headers.etag);
      const since = await get(t, '/items/PARTSITEM/view', { ...t.json, 'if-modified-since': view.headers['last-modified'] as string });
      assert.equal(since.statusCode, 304);
      // A new version of the package: new ETag, new body, the old ETag no longer matches.
      await ingestItems(t.store, [writeDir({ 'PARTSITEM.xml': partsPackage('New title') })], { batchSize: 10 });
      const changed = await get(t, '/items/PARTSITEM/view', { ...t.json, 'if-none-match': view.headers.etag });
      assert.equal(changed.statusCode, 200);
      assert.notEqual(changed.headers.etag, view.headers.etag);
      assert.equal(changed.json().item.title, 'New title');
    }));

  test(`${b} large parts of the real packages are compressed once, with the encoding in the ETag`, () =>
    withApp(
      async (t) => {
        const plain = await get(t, `/items/${CHAPTER_ID}/source/record`, t.xml);
        assert.equal(plain.statusCode, 200);
        assert.equal(plain.headers['content-encoding'], undefined);
        assert.match(plain.body, /^<\?xml version="1.0" encoding="UTF-8"\?><OAI-PMH xmlns="http:\/\/www.openarchives.org\/OAI\/2.0\/"/);
        const packed = await get(t, `/items/${CHAPTER_ID}/source/record`, { ...t.xml, 'accept-encoding': 'br' });
        assert.equal(packed.headers['content-encoding'], 'br');
        assert.equal(packed.headers.etag, `${(plain.headers.etag as string).slice(0, -1)}-br"`);
        assert.equal(brotliDecompressSync(packed.rawPayload).toString('utf8'), plain.body);
        // The compressed ETag validates the same content.
        const revalidated = await get(t, `/items/${CHAPTER_ID}/source/record`, {
          ...t.xml,
          'accept-encoding': 'br',
          'if-none-match': packed.headers.etag,
        });
        assert.equal(revalidated.statusCode, 304);
      },
      [CORTEX_DIR],
    ));

  test(`${b} the parts of the real packages are what their aip holds; source types from the records`, () =>
    withApp(
      async (t) => {
        for (const id of [CHAPTER_ID, OTHER_CORTEX_ID, GOETHE_ID]) {
          const aip = (await get(t, `/items/${id}/aip`, t.json)).json();
          for (const part of ['view', 'edm', 'indexing-profile', 'binaries']) {
            const res = await get(t, `/items/${id}/${part}`, t.json);
            assert.equal(res.statusCode, 200, `${id} ${part}`);
            assert.deepEqual(res.json(), aip[part], `${id} ${part}`);
          }
        }
        const type = async (id: string) => (await get(t, `/items/${id}/source/description`, t.json)).json().record.type;
        // A METS record inside an OAI-PMH envelope; LIDO records.
        assert.equal(await type(CHAPTER_ID), 'http://www.loc.gov/METS/');
        assert.equal(await type(OTHER_CORTEX_ID), 'http://www.lido-schema.org');
        assert.equal(await type(GOETHE_ID), 'http://www.lido-schema.org');
        // A package of the newer generation (bare_id.json) has its own source part and no record text.
        assert.equal(await type(BARE_ID), 'http://www.lido-schema.org/');
        const record = await get(t, `/items/${BARE_ID}/source/record`, t.xml);
        assert.equal(record.statusCode, 404);
        assert.equal(
          record.body,
          `${DECL}<error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>404</status><name>ItemPartNotFoundException</name>` +
            `<message>Item '${BARE_ID}' has no source/record part: its package does not contain one. GET /items/${BARE_ID}/aip shows the parts the package has.</message></error>`,
        );
      },
      [CORTEX_DIR],
    ));
}
