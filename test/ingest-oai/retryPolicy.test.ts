// The pure parts of the client: Retry-After (RFC 9110 sections 10.2.3 and
// 5.6.7), the back-off, and OAI datestamps (OAI-PMH 2.0 section 3.3.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, isRetryableStatus, parseRetryAfter, retryDelay } from '../../src/ingest/oai/retry.js';
import { parseHttpDate } from '../../src/ingest/oai/httpDate.js';
import { datestampGranularity } from '../../src/ingest/oai/datestamp.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0); // Thu, 15 Jan 2026 12:00:00 GMT

test('Retry-After: delay-seconds and the three HTTP-date forms, relative to now; anything else is null', () => {
  const cases: Array<[string | null, number | null]> = [
    ['1', 1000],
    ['0', 0],
    [' 120 ', 120_000],
    ['Thu, 15 Jan 2026 12:00:30 GMT', 30_000], // IMF-fixdate
    ['Thursday, 15-Jan-26 12:01:00 GMT', 60_000], // RFC 850
    ['Thu Jan 15 12:00:05 2026', 5000], // asctime, read as UTC whatever the local zone
    ['Thu, 15 Jan 2026 11:00:00 GMT', 0], // past: go now
    ['-1', null],
    ['1.5', null],
    ['soon', null],
    ['', null],
    ['2026-01-15T12:00:30Z', null], // ISO 8601 is not an HTTP-date
    ['Thu, 15 Jan 2026 12:00:30 UTC', null],
    [null, null],
  ];
  assert.deepEqual(
    cases.map(([v]) => [v, parseRetryAfter(v, NOW)]),
    cases,
  );
});

test('HTTP-date: impossible days are refused; RFC 850 two-digit years are at most 50 years ahead', () => {
  assert.equal(parseHttpDate('Sat, 31 Feb 2026 00:00:00 GMT', NOW), null);
  assert.equal(parseHttpDate('Thu, 15 Jan 2026 25:00:00 GMT', NOW), null);
  assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', NOW), Date.UTC(1994, 10, 6, 8, 49, 37));
  assert.equal(parseHttpDate('Monday, 01-Jan-74 00:00:00 GMT', NOW), Date.UTC(2074, 0, 1));
  assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994', NOW), Date.UTC(1994, 10, 6, 8, 49, 37));
});

test('back-off doubles from baseDelayMs, jitters within the upper half, and stops at maxDelayMs', () => {
  const low = () => 0;
  const high = () => 1;
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => [backoffDelay(n, 1000, 60_000, low), backoffDelay(n, 1000, 60_000, high)]),
    [
      [500, 1000],
      [1000, 2000],
      [2000, 4000],
      [4000, 8000],
    ],
  );
  assert.deepEqual([backoffDelay(10, 1000, 60_000, low), backoffDelay(10, 1000, 60_000, high)], [30_000, 60_000]);
});

test('retryDelay takes a readable Retry-After capped at maxDelayMs, and the back-off otherwise', () => {
  const policy = { baseDelayMs: 1000, maxDelayMs: 10_000, nowMs: NOW, random: () => 1 };
  assert.equal(retryDelay(1, '3', policy), 3000);
  assert.equal(retryDelay(1, '3600', policy), 10_000);
  assert.equal(retryDelay(3, null, policy), 4000);
  assert.equal(retryDelay(3, 'later', policy), 4000);
});

test('only 5xx are retried', () => {
  assert.deepEqual(
    [400, 404, 408, 429, 499, 500, 502, 503, 504, 599].map((s) => [s, isRetryableStatus(s)]),
    [
      [400, false],
      [404, false],
      [408, false],
      [429, false],
      [499, false],
      [500, true],
      [502, true],
      [503, true],
      [504, true],
      [599, true],
    ],
  );
});

test('OAI datestamps: day or seconds granularity, UTC only, real dates only', () => {
  const cases: Array<[string, string | null]> = [
    ['2024-03-01', 'YYYY-MM-DD'],
    ['2024-02-29', 'YYYY-MM-DD'],
    ['2024-03-01T12:34:56Z', 'YYYY-MM-DDThh:mm:ssZ'],
    ['2023-02-29', null],
    ['2024-03-01T12:34Z', null],
    ['2024-03-01T12:34:56', null],
    ['2024-03-01T12:34:56+01:00', null],
    ['2024-03-01T12:34:56.000Z', null],
    ['2024-03-01 12:34:56Z', null],
    ['20240301', null],
  ];
  assert.deepEqual(
    cases.map(([v]) => [v, datestampGranularity(v)]),
    cases,
  );
});
