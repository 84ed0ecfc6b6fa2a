/**
 * Accept / Accept-Encoding negotiation (RFC 9110 12.5.1, 12.5.3) and the
 * memo in front of it: a repeated header gives the same answer as a fresh
 * parse, and the memo stays bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byHeaderValue, negotiate, negotiateEncoding } from '../../src/http/negotiate.js';

const ITEM = ['application/json', 'application/xml', 'text/xml'];

test('negotiation picks by quality, specificity and our order, the same the second time', () => {
  const cases: Array<[string, string | undefined]> = [
    ['application/json', 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/xml'],
    ['application/json;q=0.5, application/xml', 'application/xml'],
    ['*/*;q=0.1, application/json;q=0', 'application/xml'],
    ['image/png', undefined],
  ];
  for (const [accept, expected] of cases) {
    assert.equal(negotiate(accept, ITEM), expected, accept);
    assert.equal(negotiate(accept, ITEM), expected, `${accept} again`);
  }
  for (const [header, expected] of [
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br, gzip', 'br'],
    ['identity', 'identity'],
    ['*', 'br'],
    ['gzip;q=0', 'identity'],
  ] as const) {
    assert.equal(negotiateEncoding(header), expected, header);
    assert.equal(negotiateEncoding(header), expected, `${header} again`);
  }
  assert.equal(negotiateEncoding(undefined), 'identity');
});

test('the header memo computes each value once, keeps at most max values and none longer than 256 characters', () => {
  const computed: string[] = [];
  const upper = byHeaderValue((v: string) => {
    computed.push(v);
    return v.toUpperCase();
  }, 2);
  assert.equal(upper('a'), 'A');
  assert.equal(upper('a'), 'A');
  assert.equal(upper('b'), 'B');
  assert.equal(upper('c'), 'C');
  assert.equal(upper('c'), 'C');
  const long = 'x'.repeat(257);
  assert.equal(upper(long), long.toUpperCase());
  assert.equal(upper(long), long.toUpperCase());
  assert.deepEqual(computed, ['a', 'b', 'c', 'c', long, long]);
  const undef = byHeaderValue(() => undefined);
  assert.equal(undef('x'), undefined);
  assert.equal(undef('x'), undefined);
});
