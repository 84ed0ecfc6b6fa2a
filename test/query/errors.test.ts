// Invalid queries -> QuerySyntaxError with a 0-based position and a readable message; and
// a seeded random test that nothing but a tree or a QuerySyntaxError ever comes out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INTERNAL_FAILURE, parseQuery, queryToString, QuerySyntaxError } from '../../src/query/parse.js';

const ROWS: Array<[query: string, position: number, fragment: string]> = [
  // parentheses, both ways
  ['(a', 2, "expected ')' to close '(' opened at position 0"],
  ['((a)', 4, "expected ')' to close '(' opened at position 0"],
  ['a (b (c) d', 10, "to close '(' opened at position 2"],
  ['a)', 1, "')' closes no '('"],
  ['(a))', 3, "expected '(' earlier in the query"],
  ['()', 1, "expected a term between '(' and ')'"],
  ['(', 1, "expected a term after '('"],
  // dangling and doubled operators
  ['AND', 0, "expected a term before 'AND'"],
  ['a AND', 5, "expected a term after 'AND'"],
  ['goethe AND', 10, "Query syntax error at position 10: expected a term after 'AND'."],
  ['OR b', 0, "expected a term before 'OR'"],
  ['(OR b)', 1, "expected a term before 'OR'"],
  ['a AND OR b', 6, "expected a term after 'AND'"],
  ['a || && b', 5, "expected a term after '||'"],
  ['(a AND)', 6, "expected a term after 'AND'"],
  ['NOT', 3, "expected a term after 'NOT'"],
  ['a NOT', 5, "expected a term after 'NOT'"],
  ['NOT -a', 4, "expected a term after 'NOT'"],
  ['NOT AND a', 4, "expected a term after 'NOT'"],
  ['--a', 1, "expected a term after '-'"],
  ['a -', 3, "expected a term after '-'"],
  // fields
  ['id:', 3, "expected a value after 'id:'"],
  ['(id:)', 4, "expected a value after 'id:'"],
  ['foo:bar', 0, "unknown field 'foo'; expected one of the fields id, type, preferredName"],
  ['a foo:"x"', 2, "unknown field 'foo'"],
  ['foo:(a b)', 0, "unknown field 'foo'"],
  ['preferredname:goethe', 0, "did you mean 'preferredName'?"],
  ['*:goethe', 0, "'*' is not a field name; expected '*:*'"],
  [':a', 0, "expected a field name right before ':'"],
  ['id:http://d-nb.info/gnd/118540238', 7, "unescaped ':' in the value of 'id:'; expected '\\:'"],
  ['preferredName:-a', 14, 'write -preferredName:value to exclude it'],
  // quotes
  ['"abc', 4, "expected '\"' to close the phrase opened at position 0"],
  ['a "b c', 6, 'opened at position 2'],
  ['""', 0, 'empty phrase'],
  // empty and too long
  ['', 0, 'query must not be empty'],
  [' \t\n ', 0, 'query must not be empty'],
  ['x'.repeat(1001), 1000, 'the query is longer than 1000 characters; expected at most 1000 characters'],
  // unsupported constructs
  ['goethe~1', 6, "fuzzy search ('term~') is not supported"],
  ['goethe~', 6, 'use a wildcard such as goe*'],
  ['"a b"~x', 6, "a whole number from 0 to 100 after '~'"],
  ['"a b"~101', 6, 'proximity 101 is too large'],
  ['"a b"~2~3', 7, "a second '~'"],
  ['a^2^3', 3, "a second '^'"],
  ['"a b" ~2', 6, "'~' after a blank"],
  ['a ~', 2, "'~' after a blank"],
  // boost, escapes
  ['a^', 2, "expected a number after '^'"],
  ['a^x', 2, "expected a number after '^'"],
  ['^2', 0, "expected a term right before '^'"],
  ['a\\', 1, "the query ends with a lone '\\'"],
  // ranges
  ['[a TO b]', 0, 'a range needs a field'],
  ['dateOfBirth:[1700 TO]', 20, 'expected a range of the form [lower TO upper]'],
  ['dateOfBirth:[1700 to 1800]', 18, "expected 'TO' between the two bounds"],
  ['dateOfBirth:[1700 TO 1800', 25, "expected ']' or '}' to close the range opened at position 12"],
  ['preferredName:["" TO b]', 15, 'a bound between the quotes'],
  ['a]', 1, "']' closes no range"],
  ['('.repeat(40) + 'a' + ')'.repeat(40), 32, 'at most 32 levels of nested parentheses'],
];

test('at least 20 error rows', () => assert.ok(ROWS.length >= 20, String(ROWS.length)));

for (const [query, position, fragment] of ROWS) {
  test(`rejects ${JSON.stringify(query.length > 50 ? `${query.slice(0, 47)}...` : query)}`, () => {
    assert.throws(
      () => parseQuery(query),
      (e: unknown) => {
        assert.ok(e instanceof QuerySyntaxError, `not a QuerySyntaxError: ${String(e)}`);
        assert.equal(e.position, position, e.message);
        assert.ok(e.message.includes(fragment), `${e.message}\n  lacks: ${fragment}`);
        assert.match(e.message, /^Query syntax error at position \d+: .+\.$/);
        assert.ok(e.message.includes(e.expected), 'message states what was expected');
        return true;
      },
    );
  });
}

test('QuerySyntaxError is an Error with name, position and expected', () => {
  try {
    parseQuery('goethe AND');
    assert.fail('no error');
  } catch (e) {
    assert.ok(e instanceof Error && e instanceof QuerySyntaxError);
    assert.equal(e.name, 'QuerySyntaxError');
    assert.equal(e.position, 10);
    assert.equal(e.expected, "a term after 'AND'");
    assert.equal(e.message, "Query syntax error at position 10: expected a term after 'AND'.");
  }
});

test('maxLength option sets the limit and the error position', () => {
  assert.throws(
    () => parseQuery('goethe', { maxLength: 3 }),
    (e: unknown) => e instanceof QuerySyntaxError && e.position === 3 && e.message.includes('longer than 3 characters'),
  );
});

/** mulberry32: small deterministic PRNG, so a failure can be reproduced. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The characters of the brief, letters and blanks weighted up, plus a digit and two field
// names so that fields, boosts and ranges are reached too.
const PIECES = [
  ...['a', 'b', 'a', 'b', ' ', ' ', ' ', '(', ')', '"', ':', '*', '?', '[', ']', '{', '}'],
  ...['\\', '+', '-', '!', '^', '~', 'AND', 'OR', 'NOT', 'TO', '2', 'id', 'type'],
];

test('2,000 random queries give a tree or a QuerySyntaxError, nothing else', () => {
  const next = rng(20240611);
  let trees = 0;
  let errors = 0;
  for (let n = 0; n < 2000; n++) {
    const len = 1 + Math.floor(next() * 16);
    let q = '';
    for (let k = 0; k < len; k++) q += PIECES[Math.floor(next() * PIECES.length)];
    try {
      queryToString(parseQuery(q));
      trees++;
    } catch (e) {
      assert.ok(e instanceof QuerySyntaxError, `${JSON.stringify(q)} threw ${String(e)}`);
      assert.notEqual(e.expected, INTERNAL_FAILURE, `${JSON.stringify(q)}: internal failure ${String(e.cause)}`);
      assert.ok(e.position >= 0 && e.position <= q.length, `${JSON.stringify(q)}: position ${e.position}`);
      errors++;
    }
  }
  // both outcomes must be well represented, or the generator tests nothing
  assert.ok(trees > 150 && errors > 150, `trees ${trees}, errors ${errors}`);
});
