// The ListRecords client against a real OAI-PMH server serving the real EDM
// fixtures: flow control (OAI-PMH 2.0 section 3.5), selective harvesting
// (2.7), deleted records (2.5.1), and the errors of section 3.6.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listRecordsPages, OaiError, type OaiPage } from '../../src/ingest/oai/listRecordsPages.js';
import { loadEdmRecords, startOaiServer, type OaiServer } from '../helpers/oaiServer.js';
import { collect, HOPE_DIR, headersIn, rejection, sampleRecords } from './support.js';

const control = (p: OaiPage) => ({
  url: p.url,
  resumptionToken: p.resumptionToken,
  completeListSize: p.completeListSize,
  cursor: p.cursor,
  recordCount: p.recordCount,
});
const records = sampleRecords();
const ids = records.map((r) => r.identifier);

describe('against a server with 30 records in pages of 7', () => {
  let server: OaiServer;
  before(async () => {
    server = await startOaiServer({ records, pageSize: 7 });
  });
  after(() => server.close());

  test('yields every page in order, each record once, and sends only the token after the first request', async () => {
    server.requests.length = 0;
    const pages = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }));
    const u = server.url;
    assert.deepEqual(pages.map(control), [
      {
        url: `${u}?verb=ListRecords&metadataPrefix=edm`,
        resumptionToken: 's1/7+edm page',
        completeListSize: 30,
        cursor: 0,
        recordCount: 7,
      },
      {
        url: `${u}?verb=ListRecords&resumptionToken=s1%2F7%2Bedm%20page`,
        resumptionToken: 's1/14+edm page',
        completeListSize: 30,
        cursor: 7,
        recordCount: 7,
      },
      {
        url: `${u}?verb=ListRecords&resumptionToken=s1%2F14%2Bedm%20page`,
        resumptionToken: 's1/21+edm page',
        completeListSize: 30,
        cursor: 14,
        recordCount: 7,
      },
      {
        url: `${u}?verb=ListRecords&resumptionToken=s1%2F21%2Bedm%20page`,
        resumptionToken: 's1/28+edm page',
        completeListSize: 30,
        cursor: 21,
        recordCount: 7,
      },
      {
        url: `${u}?verb=ListRecords&resumptionToken=s1%2F28%2Bedm%20page`,
        resumptionToken: null,
        completeListSize: 30,
        cursor: 28,
        recordCount: 2,
      },
    ]);
    assert.deepEqual(
      server.requests,
      pages.map((p) => p.url),
    );
    assert.deepEqual(
      pages.flatMap((p) => headersIn(p.body).map((h) => h.identifier)),
      ids,
    );
    for (const p of pages) assert.match(p.responseDate ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  test('set, from and until go in the first request only; the selection is what the server filtered', async () => {
    server.requests.length = 0;
    const pages = await collect(
      listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', set: 'hope-combat', from: '2024-01-10', until: '2024-01-20' }),
    );
    const first = `${server.url}?verb=ListRecords&metadataPrefix=edm&set=hope-combat&from=2024-01-10&until=2024-01-20`;
    assert.deepEqual(server.requests, [first, `${server.url}?verb=ListRecords&resumptionToken=s2%2F7%2Bedm%20page`]);
    assert.deepEqual(
      pages.map((p) => p.recordCount),
      [7, 4],
    );
    // Days 10 to 20 inclusive (section 2.7.1: both bounds inclusive) are records 9..19.
    assert.deepEqual(
      pages.flatMap((p) => headersIn(p.body).map((h) => h.identifier)),
      ids.slice(9, 20),
    );
  });

  test('a list that fits one page comes without a resumptionToken element', async () => {
    const pages = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', set: 'mimo' }));
    assert.deepEqual(pages.map(control), [
      {
        url: `${server.url}?verb=ListRecords&metadataPrefix=edm&set=mimo`,
        resumptionToken: null,
        completeListSize: null,
        cursor: null,
        recordCount: 7,
      },
    ]);
    assert.deepEqual(
      headersIn(pages[0]!.body).map((h) => h.identifier),
      ids.slice(23),
    );
  });

  test('a stopped harvest resumes from its saved token and loses or repeats nothing', async () => {
    let saved: string | null = null;
    const firstRun: string[] = [];
    for await (const page of listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' })) {
      firstRun.push(...headersIn(page.body).map((h) => h.identifier));
      saved = page.resumptionToken;
      if (firstRun.length >= 14) break; // the operator pressed Ctrl-C after two pages
    }
    assert.equal(saved, 's4/14+edm page');
    server.requests.length = 0;
    const rest = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', resumptionToken: saved }));
    assert.deepEqual(server.requests, [
      `${server.url}?verb=ListRecords&resumptionToken=s4%2F14%2Bedm%20page`,
      `${server.url}?verb=ListRecords&resumptionToken=s4%2F21%2Bedm%20page`,
      `${server.url}?verb=ListRecords&resumptionToken=s4%2F28%2Bedm%20page`,
    ]);
    assert.deepEqual([...firstRun, ...rest.flatMap((p) => headersIn(p.body).map((h) => h.identifier))], ids);
  });

  test('noRecordsMatch ends the harvest normally with no page', async () => {
    server.requests.length = 0;
    const pages = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', from: '2030-01-01' }));
    assert.deepEqual(pages, []);
    assert.deepEqual(server.requests, [`${server.url}?verb=ListRecords&metadataPrefix=edm&from=2030-01-01`]);
  });

  test('cannotDisseminateFormat, badResumptionToken and badArgument throw OaiError with code, message and URL', async () => {
    const cases = [
      {
        request: { baseUrl: server.url, metadataPrefix: 'oai_dc' },
        url: `${server.url}?verb=ListRecords&metadataPrefix=oai_dc`,
        code: 'cannotDisseminateFormat',
        serverMessage: "This repository serves 'edm' only.",
      },
      {
        request: { baseUrl: server.url, metadataPrefix: 'edm', resumptionToken: 'expired' },
        url: `${server.url}?verb=ListRecords&resumptionToken=expired`,
        code: 'badResumptionToken',
        serverMessage: "The resumptionToken 'expired' is unknown or expired.",
      },
      {
        request: { baseUrl: `${server.url}?apikey=1`, metadataPrefix: 'edm' },
        url: `${server.url}?apikey=1&verb=ListRecords&metadataPrefix=edm`,
        code: 'badArgument',
        serverMessage: "'apikey' is not an argument of ListRecords.",
      },
    ];
    for (const c of cases) {
      const e = await rejection(collect(listRecordsPages(c.request)));
      assert.ok(e instanceof OaiError, String(e));
      assert.deepEqual(
        { name: e.name, code: e.code, serverMessage: e.serverMessage, url: e.url, message: e.message },
        {
          name: 'OaiError',
          code: c.code,
          serverMessage: c.serverMessage,
          url: c.url,
          message: `The OAI-PMH repository answered ${c.code}: ${c.serverMessage} (request: ${c.url})`,
        },
      );
    }
  });
});

test('deleted records come as headers without metadata and are counted on their page', async () => {
  const server = await startOaiServer({ records, pageSize: 10, deleted: [ids[3]!, ids[25]!] });
  try {
    const pages = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }));
    const headers = pages.flatMap((p) => headersIn(p.body));
    assert.deepEqual(
      headers.filter((h) => h.deleted),
      [
        { identifier: ids[3], deleted: true, hasMetadata: false },
        { identifier: ids[25], deleted: true, hasMetadata: false },
      ],
    );
    assert.deepEqual(
      headers.map((h) => h.identifier),
      ids,
    );
    assert.deepEqual(
      pages.map((p) => p.recordCount),
      [10, 10, 10],
    );
  } finally {
    await server.close();
  }
});

test('a repository with day granularity answers badArgument to a from with seconds (section 3.3.1)', async () => {
  const server = await startOaiServer({ records, granularity: 'YYYY-MM-DD' });
  try {
    const e = await rejection(collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', from: '2024-01-10T00:00:00Z' })));
    assert.ok(e instanceof OaiError);
    assert.deepEqual(
      [e.code, e.serverMessage],
      ['badArgument', "'2024-01-10T00:00:00Z' is finer than the repository's granularity YYYY-MM-DD."],
    );
  } finally {
    await server.close();
  }
});

test('all 786 HOPE "Combat" records, in pages of 100: each once, in order', async () => {
  const hope = loadEdmRecords(HOPE_DIR);
  assert.equal(hope.length, 786);
  const server = await startOaiServer({ records: hope, pageSize: 100 });
  try {
    const pages = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }));
    assert.deepEqual(
      pages.map((p) => [p.cursor, p.recordCount]),
      [
        [0, 100],
        [100, 100],
        [200, 100],
        [300, 100],
        [400, 100],
        [500, 100],
        [600, 100],
        [700, 86],
      ],
    );
    assert.deepEqual(
      pages.flatMap((p) => headersIn(p.body).map((h) => h.identifier)),
      hope.map((r) => r.identifier),
    );
    // The metadata arrives whole: every served rdf:RDF is in a body, byte for byte.
    const bodies = pages.map((p) => p.body).join('');
    assert.equal(hope.filter((r) => !bodies.includes(`<metadata>${r.metadata}</metadata>`)).length, 0);
  } finally {
    await server.close();
  }
});
