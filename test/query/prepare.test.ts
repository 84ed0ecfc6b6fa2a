// The pre-pass that covers the gaps of the `lucene` package (src/query/prepare.ts): what
// lucene itself does wrong, the canonical text we hand it instead, and the offset map.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { prepare } from '../../src/query/prepare.js';
import { parseQuery, QuerySyntaxError } from '../../src/query/parse.js';

const lucene = createRequire(import.meta.url)('lucene') as { parse(q: string): Record<string, unknown> };

test('the gaps of lucene 2.1.1 that the pre-pass exists for', () => {
  // dangling and doubled operators vanish without an error
  assert.deepEqual(Object.keys(lucene.parse('a AND')), ['left']);
  assert.deepEqual(lucene.parse('AND'), { operator: 'AND' });
  assert.equal(lucene.parse('a AND  NOT b').operator, 'AND'); // the NOT is lost
  // a prefix before a field becomes part of the field name; groups cannot be negated
  assert.equal((lucene.parse('-id:x').left as { field: string }).field, '-id');
  assert.throws(() => lucene.parse('-(a b)'));
  // '/' starts a regex, so unquoted URIs fail even with the colon escaped
  assert.throws(() => lucene.parse('http\\://d-nb.info/gnd/118540238'));
  // term~1 is read as fuzzy 'term~' followed by the term '1'
  assert.equal(lucene.parse('a~1').operator, '<implicit>');
  // no quoted range bounds, no blanks inside the brackets
  assert.throws(() => lucene.parse('x:["a b" TO c]'));
  assert.throws(() => lucene.parse('x:[ a TO b ]'));
});

const REWRITES: Array<[query: string, forLucene: string]> = [
  ['a AND  NOT b', 'a AND NOT b'],
  ['(a)AND(b)', '( a ) AND ( b )'],
  ['a && b || c', 'a AND b OR c'],
  ['-(a b)', 'NOT ( a b )'],
  ['-id:x !y', 'NOT id:x NOT y'],
  ['+a +(b)', 'a ( b )'],
  ['http\\://d-nb.info/x', 'http\\:\\/\\/d-nb.info\\/x'],
  ['goethe^2 "a b"^0.5 (c)^3', 'goethe "a b" ( c )'],
  ['x:["a b" TO c]', 'x:[a\\ b TO c]'],
  ['x:[ a  TO  b ]', 'x:[a TO b]'],
  ['"a\\b \\"c\\""', '"ab \\"c\\""'],
  ['a\\\tb', 'a\\ b'],
  ['id: "x" type:(a)', 'id:"x" type:( a )'],
];

for (const [query, forLucene] of REWRITES) {
  test(`rewrites ${JSON.stringify(query)} for lucene`, () => {
    const p = prepare(query);
    assert.equal(p.text, forLucene);
    assert.equal(p.origin.length, p.text.length + 1);
    assert.equal(p.origin[p.text.length], query.length);
  });
}

test('every rewritten character maps back to the user offset it came from', () => {
  const p = prepare('-id:http\\://x');
  // 'NOT id:http\:\/\/x' : N, O, T come from '-' at 0; a separating blank from the next token
  assert.deepEqual(p.origin.slice(0, 4), [0, 0, 0, 1]);
  assert.equal(p.origin[p.text.indexOf('id')], 1);
  assert.equal(p.origin[p.text.indexOf('x')], 12);
  // so an error found by the compiler reports the user's position
  assert.throws(
    () => parseQuery('-foo:http\\://x'),
    (e: unknown) => e instanceof QuerySyntaxError && e.position === 1,
  );
  assert.throws(
    () => parseQuery('a   OR  -bar:x'),
    (e: unknown) => e instanceof QuerySyntaxError && e.position === 9,
  );
});

test("a query too deep for lucene's recursion is a QuerySyntaxError, not a RangeError", () => {
  assert.throws(
    () => parseQuery('a '.repeat(50_000), { maxLength: 1_000_000 }),
    (e: unknown) => e instanceof QuerySyntaxError && e.message.includes('the query is too complex'),
  );
});
