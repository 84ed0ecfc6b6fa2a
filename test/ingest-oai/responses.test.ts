// What the client makes of answers that are not a plain page of records: a web
// page instead of an endpoint, other XML, protocol violations, an OAI-PMH error
// sent with a 4xx; bad arguments refused before any request; Identify.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HarvestHttpError, listRecordsPages, OaiError, type ClientOptions } from '../../src/ingest/oai/listRecordsPages.js';
import { identifyGranularity } from '../../src/ingest/oai/identify.js';
import { UsageError } from '../../src/errors.js';
import { startOaiServer } from '../helpers/oaiServer.js';
import { collect, rejection, sampleRecords } from './support.js';

const BASE = 'http://oai.example.org/oai';
const records = sampleRecords();

/** A fetch that answers from a list, in order, and remembers the URLs asked for. */
function scripted(answers: Array<{ status?: number; body: string; type?: string }>): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (input) => {
      urls.push(input instanceof Request ? input.url : input.toString());
      const a = answers[urls.length - 1];
      if (!a) throw new Error('no more scripted answers');
      return new Response(a.body, { status: a.status ?? 200, headers: { 'content-type': a.type ?? 'text/xml' } });
    },
  };
}

const oai = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-01T00:00:00Z</responseDate><request>${BASE}</request>${inner}</OAI-PMH>`;
const noSleep: ClientOptions = { sleep: async () => {} };

test('an HTML page with status 200 is a HarvestHttpError saying the URL is not an OAI-PMH endpoint', async () => {
  const server = await startOaiServer({ records, html: true });
  try {
    const e = await rejection(collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }, noSleep)));
    const url = `${server.url}?verb=ListRecords&metadataPrefix=edm`;
    assert.ok(e instanceof HarvestHttpError);
    assert.deepEqual(
      { url: e.url, status: e.status, attempts: e.attempts, message: e.message },
      {
        url,
        status: 200,
        attempts: 1,
        message: `${url} does not look like an OAI-PMH endpoint: the answer (HTTP 200, text/html; charset=utf-8) is not an OAI-PMH response because it is an HTML page. Check that the URL is the repository's OAI-PMH base URL.`,
      },
    );
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('well-formed XML that is not OAI-PMH, and text that is not XML, are named as such', async () => {
  const rss = scripted([{ body: '<?xml version="1.0"?><rss version="2.0"><channel/></rss>' }]);
  let e = await rejection(collect(listRecordsPages({ baseUrl: BASE, metadataPrefix: 'edm' }, { ...noSleep, fetch: rss.fetch })));
  assert.ok(e instanceof HarvestHttpError);
  assert.equal(
    e.message,
    `${BASE}?verb=ListRecords&metadataPrefix=edm does not look like an OAI-PMH endpoint: the answer (HTTP 200, text/xml) is not an OAI-PMH response because its root element is <rss>, not <OAI-PMH>. Check that the URL is the repository's OAI-PMH base URL.`,
  );
  const json = scripted([{ body: '{"error":"use /api/v2"}', type: 'application/json' }]);
  e = await rejection(collect(listRecordsPages({ baseUrl: BASE, metadataPrefix: 'edm' }, { ...noSleep, fetch: json.fetch })));
  assert.ok(e instanceof HarvestHttpError);
  assert.match(
    e.message,
    /^http:\/\/oai\.example\.org\/oai\?verb=ListRecords&metadataPrefix=edm does not look like an OAI-PMH endpoint: the answer \(HTTP 200, application\/json\) is not an OAI-PMH response because it is not well-formed XML \(line 1, column 1: .+\)\. Check that/,
  );
});

test('a from that is not an OAI datestamp is refused with a clear UsageError before any request', async () => {
  const server = await startOaiServer({ records });
  try {
    for (const from of ['2024-13-01', '01.03.2024', '2024-03-01T12:00:00', '2024-02-30', '2024-03-01T24:00:00Z', '2024-3-1', '']) {
      const e = await rejection(collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', from })));
      assert.ok(e instanceof UsageError, from);
      assert.equal(
        e.message,
        `from '${from}' is not an OAI-PMH datestamp: give a UTC date as YYYY-MM-DD (e.g. 2024-03-01) or a UTC time as YYYY-MM-DDThh:mm:ssZ (e.g. 2024-03-01T12:00:00Z) (OAI-PMH 2.0 section 3.3.1).`,
      );
    }
    const mixed = await rejection(
      collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', from: '2024-03-01', until: '2024-04-01T00:00:00Z' })),
    );
    assert.equal(
      (mixed as Error).message,
      "from '2024-03-01' and until '2024-04-01T00:00:00Z' must have the same granularity, both YYYY-MM-DD or both YYYY-MM-DDThh:mm:ssZ (OAI-PMH 2.0 section 3.3.1).",
    );
    const backwards = await rejection(
      collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', from: '2024-03-02', until: '2024-03-01' })),
    );
    assert.equal((backwards as Error).message, "from '2024-03-02' is later than until '2024-03-01' (OAI-PMH 2.0 section 2.7.1).");
    const badUrl = await rejection(collect(listRecordsPages({ baseUrl: 'oai.example.org', metadataPrefix: 'edm' })));
    assert.equal(
      (badUrl as Error).message,
      "'oai.example.org' is not a URL: give the OAI-PMH base URL of the repository, e.g. https://example.org/oai.",
    );
    assert.deepEqual(server.requests, []);
    // Valid forms go through.
    for (const from of ['2024-01-05', '2024-01-05T00:00:00Z']) {
      assert.equal((await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm', from }))).length, 3, from);
    }
  } finally {
    await server.close();
  }
});

test('an OAI-PMH error sent with HTTP 400 is still an OaiError; noRecordsMatch with 404 still ends normally', async () => {
  const s = scripted([{ status: 400, body: oai('<error code="badArgument">from is not a date</error>') }]);
  const e = await rejection(collect(listRecordsPages({ baseUrl: BASE, metadataPrefix: 'edm' }, { ...noSleep, fetch: s.fetch })));
  assert.ok(e instanceof OaiError);
  assert.deepEqual([e.code, e.serverMessage, e.url], ['badArgument', 'from is not a date', `${BASE}?verb=ListRecords&metadataPrefix=edm`]);
  const none = scripted([{ status: 404, body: oai('<error code="noRecordsMatch"/>') }]);
  assert.deepEqual(await collect(listRecordsPages({ baseUrl: BASE, metadataPrefix: 'edm' }, { ...noSleep, fetch: none.fetch })), []);
});

test('a repository that sends back the token it was given is stopped instead of harvested forever', async () => {
  const page = oai(
    '<ListRecords><record><header><identifier>a</identifier><datestamp>2024-01-01</datestamp></header></record><resumptionToken>same</resumptionToken></ListRecords>',
  );
  const s = scripted([{ body: page }, { body: page }]);
  const e = await rejection(collect(listRecordsPages({ baseUrl: BASE, metadataPrefix: 'edm' }, { ...noSleep, fetch: s.fetch })));
  assert.ok(e instanceof HarvestHttpError);
  assert.equal(
    e.message,
    `${BASE}?verb=ListRecords&resumptionToken=same returned the same resumptionToken it was sent ('same'); stopping instead of looping (OAI-PMH 2.0 section 3.5).`,
  );
  assert.deepEqual(s.urls, [`${BASE}?verb=ListRecords&metadataPrefix=edm`, `${BASE}?verb=ListRecords&resumptionToken=same`]);
});

test('control elements are read whatever the prefix; an empty ListRecords page with a token is passed on', async () => {
  const prefixed =
    `<?xml version="1.0"?><o:OAI-PMH xmlns:o="http://www.openarchives.org/OAI/2.0/"><o:responseDate>2026-02-03T04:05:06Z</o:responseDate><o:request>${BASE}</o:request>` +
    '<o:ListRecords><o:resumptionToken expirationDate="2026-02-04T00:00:00Z" completeListSize="1" cursor="0"> next&amp;1 </o:resumptionToken></o:ListRecords></o:OAI-PMH>';
  const last = oai(
    '<ListRecords><record><header status="deleted"><identifier>x</identifier><datestamp>2024-01-01</datestamp></header></record><resumptionToken completeListSize="1" cursor="0"></resumptionToken></ListRecords>',
  );
  const s = scripted([{ body: prefixed }, { body: last }]);
  const pages = await collect(listRecordsPages({ baseUrl: BASE, metadataPrefix: 'edm' }, { ...noSleep, fetch: s.fetch }));
  assert.deepEqual(
    pages.map(({ body: _, ...rest }) => rest),
    [
      {
        url: `${BASE}?verb=ListRecords&metadataPrefix=edm`,
        doctypeNote: null,
        responseDate: '2026-02-03T04:05:06Z',
        resumptionToken: 'next&1',
        completeListSize: 1,
        cursor: 0,
        recordCount: 0,
      },
      {
        url: `${BASE}?verb=ListRecords&resumptionToken=next%261`,
        doctypeNote: null,
        responseDate: '2026-01-01T00:00:00Z',
        resumptionToken: null,
        completeListSize: 1,
        cursor: 0,
        recordCount: 1,
      },
    ],
  );
});

test('identifyGranularity reads the granularity of the Identify response (section 4.2)', async () => {
  for (const granularity of ['YYYY-MM-DD', 'YYYY-MM-DDThh:mm:ssZ'] as const) {
    const server = await startOaiServer({ records, granularity });
    try {
      assert.equal(await identifyGranularity(server.url), granularity);
      assert.deepEqual(server.requests, [`${server.url}?verb=Identify`]);
    } finally {
      await server.close();
    }
  }
});
