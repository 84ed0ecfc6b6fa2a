// Retries against the real server's injected faults: 503 with Retry-After
// (OAI-PMH 2.0 section 3.1.2; RFC 9110 section 10.2.3), other 5xx, a
// connection cut mid-body, a stalled answer, a refused connection; no retry
// for 4xx; an abort stops at once. `sleep` is replaced so that no test waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HarvestHttpError, listRecordsPages } from '../../src/ingest/oai/listRecordsPages.js';
import { startOaiServer } from '../helpers/oaiServer.js';
import { collect, headersIn, recorder, rejection, sampleRecords } from './support.js';

const records = sampleRecords();
const ids = records.map((r) => r.identifier);
const identifiers = (pages: Array<{ body: string }>) => pages.flatMap((p) => headersIn(p.body).map((h) => h.identifier));

test('a 503 with Retry-After: 1 is retried once, after exactly the 1000 ms asked for', async () => {
  const server = await startOaiServer({ records, pageSize: 10, failOnce: { requestIndex: 1, status: 503, retryAfter: '1' } });
  try {
    const r = recorder();
    const pages = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }, { sleep: r.sleep, onRetry: r.onRetry }));
    const second = `${server.url}?verb=ListRecords&resumptionToken=s1%2F10%2Bedm%20page`;
    assert.deepEqual(r.delays, [1000]);
    assert.deepEqual(r.retries, [{ url: second, attempt: 1, delayMs: 1000, reason: 'HTTP 503, Retry-After: 1' }]);
    assert.deepEqual(server.requests.slice(1, 3), [second, second]);
    assert.equal(server.requests.length, 4);
    assert.deepEqual(identifiers(pages), ids);
  } finally {
    await server.close();
  }
});

test('Retry-After beyond maxDelayMs is capped; an HTTP-date is turned into the time until then', async () => {
  const inAMinute = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000).toUTCString();
  const server = await startOaiServer({
    records,
    pageSize: 10,
    failures: [
      { requestIndex: 0, status: 503, retryAfter: '3600' },
      { requestIndex: 2, status: 503, retryAfter: inAMinute },
    ],
  });
  try {
    const r = recorder();
    const pages = await collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }, { sleep: r.sleep, maxDelayMs: 120_000 }));
    assert.equal(r.delays.length, 2);
    assert.equal(r.delays[0], 120_000);
    // A minute ahead, less the little time the test took to get here.
    assert.ok(r.delays[1]! > 55_000 && r.delays[1]! <= 61_000, String(r.delays[1]));
    assert.deepEqual(identifiers(pages), ids);
  } finally {
    await server.close();
  }
});

test('a connection dropped in the middle of a page is retried and the page is read whole', async () => {
  const server = await startOaiServer({ records, pageSize: 10, dropConnectionAt: 2 });
  try {
    const r = recorder();
    const pages = await collect(
      listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }, { sleep: r.sleep, onRetry: r.onRetry, baseDelayMs: 1000 }),
    );
    assert.equal(r.retries.length, 1);
    assert.equal(r.retries[0]!.url, `${server.url}?verb=ListRecords&resumptionToken=s1%2F20%2Bedm%20page`);
    assert.match(r.retries[0]!.reason, /^network error: terminated/);
    // First retry: between half and all of baseDelayMs.
    assert.ok(r.delays[0]! >= 500 && r.delays[0]! <= 1000, String(r.delays[0]));
    assert.equal(server.requests[2], server.requests[3]);
    assert.deepEqual(
      pages.map((p) => p.recordCount),
      [10, 10, 10],
    );
    assert.deepEqual(identifiers(pages), ids);
  } finally {
    await server.close();
  }
});

test('a 502 and a stalled answer are retried; the stall is cut by timeoutMs', async () => {
  const server = await startOaiServer({ records, pageSize: 10, failOnce: { requestIndex: 0, status: 502 }, stallAt: 2 });
  try {
    const r = recorder();
    // The stalled request is never answered; the others must answer within the timeout
    // even on a busy machine, so it is not cut short (a shorter one made this test flaky).
    const pages = await collect(
      listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }, { sleep: r.sleep, onRetry: r.onRetry, timeoutMs: 3000 }),
    );
    assert.deepEqual(
      r.retries.map((i) => [i.attempt, i.reason]),
      [
        [1, 'HTTP 502'],
        [1, 'no complete answer within 3000 ms'],
      ],
    );
    assert.deepEqual(identifiers(pages), ids);
  } finally {
    await server.close();
  }
});

test('retries exhausted: HarvestHttpError with the URL, the status and the number of attempts; back-off doubles', async () => {
  const server = await startOaiServer({ records, failOnce: { requestIndex: 0, status: 503, times: 100 } });
  try {
    const r = recorder();
    const e = await rejection(
      collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }, { sleep: r.sleep, retries: 3, baseDelayMs: 1000 })),
    );
    const url = `${server.url}?verb=ListRecords&metadataPrefix=edm`;
    assert.ok(e instanceof HarvestHttpError);
    assert.deepEqual(
      { name: e.name, url: e.url, status: e.status, attempts: e.attempts, message: e.message },
      { name: 'HarvestHttpError', url, status: 503, attempts: 4, message: `${url} kept failing: HTTP 503 after 4 attempts.` },
    );
    assert.deepEqual(server.requests, [url, url, url, url]);
    assert.equal(r.delays.length, 3);
    r.delays.forEach((d, i) => assert.ok(d >= 500 * 2 ** i && d <= 1000 * 2 ** i, `retry ${i + 1}: ${d}`));
  } finally {
    await server.close();
  }
});

test('a 404 is not retried', async () => {
  const server = await startOaiServer({ records, failOnce: { requestIndex: 0, status: 404 } });
  try {
    const r = recorder();
    const e = await rejection(collect(listRecordsPages({ baseUrl: server.url, metadataPrefix: 'edm' }, { sleep: r.sleep })));
    const url = `${server.url}?verb=ListRecords&metadataPrefix=edm`;
    assert.ok(e instanceof HarvestHttpError);
    assert.deepEqual(
      { url: e.url, status: e.status, attempts: e.attempts, message: e.message },
      { url, status: 404, attempts: 1, message: `${url} answered HTTP 404: 404 Try again later.` },
    );
    assert.deepEqual(r.delays, []);
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('a refused connection is retried, then reported with its cause and no status', async () => {
  const server = await startOaiServer({ records });
  const url = server.url;
  await server.close();
  const r = recorder();
  const e = await rejection(collect(listRecordsPages({ baseUrl: url, metadataPrefix: 'edm' }, { sleep: r.sleep, retries: 1 })));
  assert.ok(e instanceof HarvestHttpError);
  assert.deepEqual(
    { status: e.status, attempts: e.attempts, url: e.url },
    { status: undefined, attempts: 2, url: `${url}?verb=ListRecords&metadataPrefix=edm` },
  );
  assert.match(e.message, /could not be harvested: network error: fetch failed: .*ECONNREFUSED.* after 2 attempts\.$/);
  assert.equal(r.delays.length, 1);
});

test('an abort stops the harvest with the abort reason, without retrying', async () => {
  const server = await startOaiServer({ records, failOnce: { requestIndex: 0, status: 503, times: 100 } });
  try {
    const controller = new AbortController();
    const stop = new Error('operator pressed Ctrl-C');
    const e = await rejection(
      collect(
        listRecordsPages(
          { baseUrl: server.url, metadataPrefix: 'edm' },
          {
            signal: controller.signal,
            sleep: async () => controller.abort(stop),
          },
        ),
      ),
    );
    assert.equal(e, stop);
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('an abort during the wait between attempts ends it at once with the abort reason', async () => {
  const server = await startOaiServer({ records, failOnce: { requestIndex: 0, status: 503, retryAfter: '3600' } });
  try {
    const controller = new AbortController();
    const stop = new Error('operator pressed Ctrl-C');
    const started = Date.now();
    // The real sleep this time: without the abort it would wait the capped hour (10 s here).
    const e = await rejection(
      collect(
        listRecordsPages(
          { baseUrl: server.url, metadataPrefix: 'edm' },
          {
            signal: controller.signal,
            maxDelayMs: 10_000,
            onRetry: () => setTimeout(() => controller.abort(stop), 20),
          },
        ),
      ),
    );
    assert.equal(e, stop);
    assert.ok(Date.now() - started < 5000);
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});
