/**
 * The OAI-PMH 2.0 provider over the real server (docs/oai-pmh.md): whole documents for
 * every verb and every error condition of section 3.6, GET and POST alike, /oai and /2/oai,
 * no key needed, its own rate limit, and resumption tokens that a changed byte turns into
 * badResumptionToken. Times (responseDate, datestamps) are the only parts compared apart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { ConfigOverrides } from '../../src/config.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cortexXml, writePackages, type TestPackage } from '../helpers/packages.js';

const HOST = 'heritage.example.org';
const BASE = `http://${HOST}/oai`;
const SECRET = 'a test secret';
const PACKAGES: TestPackage[] = [
  { id: 'ROOT', title: 'Root' },
  { id: 'CHILD', title: 'Child & co', parent: 'ROOT' },
  { id: 'ALONE', title: 'Alone' },
];
const ITEM = 'http://www.deutsche-digitale-bibliothek.de/item';
const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd"><responseDate>T</responseDate>';
const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** The document with its times replaced by T (each checked to be a UTC time at seconds granularity). */
function normal(body: string): string {
  return body.replace(/<(responseDate|datestamp|earliestDatestamp)>([^<]*)<\/\1>/g, (_, name: string, value: string) => {
    assert.match(value, DATE, `${name} ${value}`);
    return `<${name}>T</${name}>`;
  });
}

function doc(request: string, body: string): string {
  return `${HEAD}${request}${body}</OAI-PMH>\n`;
}

const req = (attrs: Record<string, string> | null) =>
  `<request${
    attrs === null
      ? ''
      : Object.entries(attrs)
          .map(([k, v]) => ` ${k}="${v}"`)
          .join('')
  }>${BASE}</request>`;

function error(attrs: Record<string, string> | null, code: string, message: string): string {
  return doc(req(attrs), `<error code="${code}">${message}</error>`);
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (run: (t: TestApp) => Promise<void>, flags: ConfigOverrides = {}) => {
    const dir = writePackages(PACKAGES);
    const t = await startTestApp(backend, { load: [dir], flags: { ...flags, oai: { tokenSecret: SECRET, pageSize: 2, ...flags.oai } } });
    try {
      await run(t);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  /** GET without a key, as a harvester sends it. */
  const get = async (t: TestApp, query: string, path = '/oai') => {
    const r = await t.app.inject({ url: `${path}?${query}`, headers: { host: HOST } });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.headers['content-type'], 'text/xml; charset=utf-8');
    return normal(r.body);
  };

  test(`${b} Identify, ListMetadataFormats and ListSets: whole documents, without a key`, async () => {
    await withApp(async (t) => {
      assert.equal(
        await get(t, 'verb=Identify'),
        doc(
          req({ verb: 'Identify' }),
          '<Identify><repositoryName>heritage-api</repositoryName><baseURL>http://heritage.example.org/oai</baseURL><protocolVersion>2.0</protocolVersion>' +
            '<adminEmail>oai-admin@example.org</adminEmail><earliestDatestamp>T</earliestDatestamp><deletedRecord>persistent</deletedRecord>' +
            '<granularity>YYYY-MM-DDThh:mm:ssZ</granularity><description><oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier" ' +
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai-identifier http://www.openarchives.org/OAI/2.0/oai-identifier.xsd">' +
            '<scheme>oai</scheme><repositoryIdentifier>heritage.example.org</repositoryIdentifier><delimiter>:</delimiter>' +
            '<sampleIdentifier>oai:heritage.example.org:4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22</sampleIdentifier></oai-identifier></description></Identify>',
        ),
      );
      const formats =
        '<metadataFormat><metadataPrefix>edm</metadataPrefix><schema>http://www.europeana.eu/schemas/edm/EDM.xsd</schema><metadataNamespace>http://www.europeana.eu/schemas/edm/</metadataNamespace></metadataFormat>' +
        '<metadataFormat><metadataPrefix>oai_dc</metadataPrefix><schema>http://www.openarchives.org/OAI/2.0/oai_dc.xsd</schema><metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</metadataNamespace></metadataFormat>' +
        '<metadataFormat><metadataPrefix>ddb</metadataPrefix><schema>http://www.deutsche-digitale-bibliothek.de/cortex</schema><metadataNamespace>http://www.deutsche-digitale-bibliothek.de/cortex</metadataNamespace></metadataFormat>';
      assert.equal(
        await get(t, 'verb=ListMetadataFormats'),
        doc(req({ verb: 'ListMetadataFormats' }), `<ListMetadataFormats>${formats}</ListMetadataFormats>`),
      );
      assert.equal(
        await get(t, 'verb=ListMetadataFormats&identifier=oai:heritage.example.org:CHILD'),
        doc(
          req({ verb: 'ListMetadataFormats', identifier: 'oai:heritage.example.org:CHILD' }),
          `<ListMetadataFormats>${formats}</ListMetadataFormats>`,
        ),
      );
      assert.equal(
        await get(t, 'verb=ListSets'),
        doc(req({ verb: 'ListSets' }), '<ListSets><set><setSpec>collection-ROOT</setSpec><setName>Root</setName></set></ListSets>'),
      );
    });
  });

  test(`${b} GetRecord in each format: the package, its EDM and Dublin Core, with its sets`, async () => {
    await withApp(async (t) => {
      const header =
        '<header><identifier>oai:heritage.example.org:CHILD</identifier><datestamp>T</datestamp><setSpec>collection-ROOT</setSpec></header>';
      const record = (prefix: string, metadata: string) =>
        doc(
          req({ verb: 'GetRecord', identifier: 'oai:heritage.example.org:CHILD', metadataPrefix: prefix }),
          `<GetRecord><record>${header}<metadata>${metadata}</metadata></record></GetRecord>`,
        );
      const cortex = cortexXml(PACKAGES[1]!).replace(/^<\?xml[^>]*\?>/, '');
      assert.equal(await get(t, 'verb=GetRecord&identifier=oai:heritage.example.org:CHILD&metadataPrefix=ddb'), record('ddb', cortex));
      assert.equal(
        await get(t, 'verb=GetRecord&identifier=oai:heritage.example.org:CHILD&metadataPrefix=edm'),
        record(
          'edm',
          '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">' +
            `<edm:ProvidedCHO rdf:about="${ITEM}/CHILD"><dc:title>Child &amp; co</dc:title><dcterms:isPartOf rdf:resource="${ITEM}/ROOT"/></edm:ProvidedCHO></rdf:RDF>`,
        ),
      );
      assert.equal(
        await get(t, 'verb=GetRecord&identifier=oai:heritage.example.org:CHILD&metadataPrefix=oai_dc'),
        record(
          'oai_dc',
          '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
            'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">' +
            `<dc:title>Child &amp; co</dc:title><dc:identifier>${ITEM}/CHILD</dc:identifier><dc:relation>${ITEM}/ROOT</dc:relation></oai_dc:dc>`,
        ),
      );
      // Deleted and blocked: the header with status="deleted", no metadata.
      assert.equal(await t.store.blockItem('CHILD', 'asked to'), true);
      assert.equal(
        await get(t, 'verb=GetRecord&identifier=oai:heritage.example.org:CHILD&metadataPrefix=edm'),
        doc(
          req({ verb: 'GetRecord', identifier: 'oai:heritage.example.org:CHILD', metadataPrefix: 'edm' }),
          `<GetRecord><record>${header.replace('<header>', '<header status="deleted">')}</record></GetRecord>`,
        ),
      );
    });
  });

  test(`${b} every error condition of section 3.6, as an OAI-PMH document with status 200`, async () => {
    await withApp(async (t) => {
      const verbs = 'Identify, ListMetadataFormats, ListSets, GetRecord, ListIdentifiers, ListRecords';
      assert.equal(await get(t, ''), error(null, 'badVerb', `The request has no verb: add verb=, one of ${verbs}.`));
      assert.equal(
        await get(t, 'verb=Harvest'),
        error(null, 'badVerb', `'Harvest' is not an OAI-PMH verb: use one of ${verbs} (OAI-PMH 2.0 section 4).`),
      );
      assert.equal(
        await get(t, 'verb=Identify&verb=Identify'),
        error(null, 'badVerb', 'The verb is given more than once: send one verb per request.'),
      );
      assert.equal(
        await get(t, 'verb=Identify&set=x'),
        error(null, 'badArgument', "Identify does not take 'set': it takes no arguments (OAI-PMH 2.0 section 4)."),
      );
      assert.equal(
        await get(t, 'verb=ListRecords'),
        error(null, 'badArgument', 'ListRecords needs the argument metadataPrefix (edm, oai_dc or ddb; see ListMetadataFormats).'),
      );
      assert.equal(
        await get(t, 'verb=GetRecord&metadataPrefix=edm'),
        error(null, 'badArgument', 'GetRecord needs the argument identifier.'),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&metadataPrefix=ddb'),
        error(null, 'badArgument', 'The argument metadataPrefix is given more than once: give it once.'),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&resumptionToken=x'),
        error(
          null,
          'badArgument',
          'resumptionToken is an exclusive argument: send it alone with the verb, without metadataPrefix (OAI-PMH 2.0 section 3.5).',
        ),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&from=2024-13-01'),
        error(
          null,
          'badArgument',
          'from is not a UTC datestamp: give YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ, e.g. 2024-03-01T12:00:00Z (OAI-PMH 2.0 section 3.3.1).',
        ),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&from=2024-01-01&until=2024-02-01T00:00:00Z'),
        error(
          null,
          'badArgument',
          'from and until have different granularities: give both as YYYY-MM-DD or both as YYYY-MM-DDThh:mm:ssZ (OAI-PMH 2.0 section 3.3.1).',
        ),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&from=2024-02-01&until=2024-01-01'),
        error(null, 'badArgument', 'from is later than until: the range is empty; give from &lt;= until (OAI-PMH 2.0 section 2.7.1).'),
      );
      const list = { verb: 'ListRecords', metadataPrefix: 'edm' };
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&set=a%20b'),
        error(
          { ...list, set: 'a b' },
          'badArgument',
          "set is not a setSpec (letters, digits and - _ . ! ~ * ' ( ), parts joined by :): see ListSets for the sets here.",
        ),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=marc'),
        error(
          { verb: 'ListRecords', metadataPrefix: 'marc' },
          'cannotDisseminateFormat',
          "'marc' is not a format of this repository: use edm, oai_dc, ddb (see ListMetadataFormats).",
        ),
      );
      assert.equal(
        await get(t, 'verb=GetRecord&identifier=oai:other.org:CHILD&metadataPrefix=edm'),
        error(
          { verb: 'GetRecord', identifier: 'oai:other.org:CHILD', metadataPrefix: 'edm' },
          'idDoesNotExist',
          'No record has this identifier: identifiers here are oai:heritage.example.org:&lt;item id&gt; (see ListIdentifiers).',
        ),
      );
      assert.equal(
        await get(t, 'verb=ListMetadataFormats&identifier=oai:heritage.example.org:NOPE'),
        error(
          { verb: 'ListMetadataFormats', identifier: 'oai:heritage.example.org:NOPE' },
          'idDoesNotExist',
          'No record has this identifier: identifiers here are oai:heritage.example.org:&lt;item id&gt; (see ListIdentifiers).',
        ),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&until=2000-01-01'),
        error(
          { ...list, until: '2000-01-01' },
          'noRecordsMatch',
          'No record matches the combination of from, until, set and metadataPrefix.',
        ),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&metadataPrefix=edm&set=sector-sec_01'),
        error(
          { ...list, set: 'sector-sec_01' },
          'noRecordsMatch',
          'No record is in the set sector-sec_01: see ListSets for the sets here.',
        ),
      );
      assert.equal(
        await get(t, 'verb=ListRecords&resumptionToken=bm90IG91cnM.AAAAAAAAAAAAAAAAAAAAAA'),
        error(
          { verb: 'ListRecords', resumptionToken: 'bm90IG91cnM.AAAAAAAAAAAAAAAAAAAAAA' },
          'badResumptionToken',
          'The resumptionToken is not one this repository gave for ListRecords: start the list again without it.',
        ),
      );
      await t.store.applyItemChanges([{ kind: 'delete', sourceId: 'http://www.deutsche-digitale-bibliothek.de/item/ALONE' }]);
      assert.equal(
        await get(t, 'verb=ListMetadataFormats&identifier=oai:heritage.example.org:ALONE'),
        error(
          { verb: 'ListMetadataFormats', identifier: 'oai:heritage.example.org:ALONE' },
          'noMetadataFormats',
          'The record is deleted: no format of it is available any more (its header is listed with status="deleted").',
        ),
      );
    });
  });

  test(`${b} noSetHierarchy: a store whose records are in no set`, async () => {
    const dir = writePackages([{ id: 'LONE', title: 'Lone' }]);
    const t = await startTestApp(backend, { load: [dir], flags: { oai: { tokenSecret: SECRET } } });
    try {
      const message = 'This repository has no sets yet: its records name no institution and belong to no hierarchy.';
      assert.equal(await get(t, 'verb=ListSets'), error({ verb: 'ListSets' }, 'noSetHierarchy', message));
      assert.equal(
        await get(t, 'verb=ListIdentifiers&metadataPrefix=edm&set=collection-LONE'),
        error(
          { verb: 'ListIdentifiers', metadataPrefix: 'edm', set: 'collection-LONE' },
          'noSetHierarchy',
          'This repository has no sets yet: harvest without set.',
        ),
      );
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${b} ListIdentifiers in pages: tokens, cursor, the last page's empty token; a changed token is badResumptionToken`, async () => {
    await withApp(async (t) => {
      // In the order the items were first stored (the files' order).
      const first = await get(t, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
      const token = /<resumptionToken cursor="0">([^<]+)<\/resumptionToken>/.exec(first)?.[1];
      assert.ok(token, first);
      const h = (id: string, sets = '') =>
        `<header><identifier>oai:heritage.example.org:${id}</identifier><datestamp>T</datestamp>${sets}</header>`;
      const rootSet = '<setSpec>collection-ROOT</setSpec>';
      assert.equal(
        first,
        doc(
          req({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' }),
          `<ListIdentifiers>${h('ALONE')}${h('CHILD', rootSet)}<resumptionToken cursor="0">${token}</resumptionToken></ListIdentifiers>`,
        ),
      );
      assert.equal(
        await get(t, `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`),
        doc(
          req({ verb: 'ListIdentifiers', resumptionToken: token }),
          `<ListIdentifiers>${h('ROOT', rootSet)}<resumptionToken cursor="2"/></ListIdentifiers>`,
        ),
      );
      // POST as a form: the same answer.
      const posted = await t.app.inject({
        method: 'POST',
        url: '/oai',
        headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`,
      });
      assert.equal(posted.statusCode, 200);
      assert.equal(
        normal(posted.body),
        doc(
          req({ verb: 'ListIdentifiers', resumptionToken: token }),
          `<ListIdentifiers>${h('ROOT', rootSet)}<resumptionToken cursor="2"/></ListIdentifiers>`,
        ),
      );
      // Every single-character change of the token, and the token of another verb: badResumptionToken, never records.
      const badToken = (tk: string, verb = 'ListIdentifiers') =>
        error(
          { verb, resumptionToken: tk.replace(/&/g, '&amp;') },
          'badResumptionToken',
          `The resumptionToken is not one this repository gave for ${verb}: start the list again without it.`,
        );
      for (let i = 0; i < token.length; i += 7) {
        const changed: string = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
        assert.equal(await get(t, `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(changed)}`), badToken(changed));
      }
      const forged = `${Buffer.from(JSON.stringify({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', set: 'collection-ROOT', after: 0, cursor: 0 })).toString('base64url')}.${token.split('.')[1]}`;
      assert.equal(await get(t, `verb=ListIdentifiers&resumptionToken=${forged}`), badToken(forged));
      assert.equal(await get(t, `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`), badToken(token, 'ListRecords'));
      assert.equal(
        await get(t, `verb=ListSets&resumptionToken=${encodeURIComponent(token)}`),
        error(
          { verb: 'ListSets', resumptionToken: token },
          'badResumptionToken',
          'The resumptionToken is not one this repository gave for ListSets: start the list again without it.',
        ),
      );
      // Under /2 as well.
      assert.equal((await get(t, 'verb=Identify', '/2/oai')).includes('<baseURL>http://heritage.example.org/2/oai</baseURL>'), true);
    });
  });

  test(`${b} POST with another body than a form, and methods other than GET and POST`, async () => {
    await withApp(async (t) => {
      const r = await t.app.inject({
        method: 'POST',
        url: '/oai',
        headers: { host: HOST, 'content-type': 'application/json' },
        payload: '{"verb":"Identify"}',
      });
      assert.equal(r.statusCode, 200);
      assert.equal(
        normal(r.body),
        error(
          null,
          'badArgument',
          'A POST request carries its arguments as application/x-www-form-urlencoded (OAI-PMH 2.0 section 3.1.1.2), not as application/json.',
        ),
      );
      const put = await t.app.inject({ method: 'PUT', url: '/oai', headers: { host: HOST } });
      assert.equal(put.statusCode, 405);
    });
  });

  test(`${b} open without a key, with its own limit per address apart from the API's`, async () => {
    await withApp(
      async (t) => {
        const ask = () => t.app.inject({ url: '/oai?verb=Identify', headers: { host: HOST } });
        assert.equal((await ask()).statusCode, 200);
        assert.equal((await ask()).statusCode, 200);
        const limited = await ask();
        assert.equal(limited.statusCode, 429);
        assert.match(String(limited.headers['retry-after']), /^\d+$/);
        // The API's limit of the same address is untouched (a key is still asked for there).
        const api = await t.app.inject({ url: '/items/ALONE', headers: { host: HOST, ...t.json } });
        assert.equal(api.statusCode, 200);
      },
      { oai: { rateLimitMax: 2 }, http: { rateLimitMax: 100 } },
    );
  });
}
