// Valid queries -> canonical tree (queryToString). The semantics of each construct are
// documented in src/query/parse.ts; the row comments say which decision a row pins down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, queryToString, QUERY_FIELDS } from '../../src/query/parse.js';

const ROWS: Array<[query: string, expected: string]> = [
  // terms and the default operator AND
  ['goethe', 'term(*:goethe)'],
  ['Goethe Schiller', 'AND(term(*:Goethe), term(*:Schiller))'],
  ['  goethe \t schiller\n', 'AND(term(*:goethe), term(*:schiller))'],
  ['a b c', 'AND(term(*:a), term(*:b), term(*:c))'],
  ['Wrocław', 'term(*:Wrocław)'],
  ['1749-08-28', 'term(*:1749-08-28)'],
  ['a+b a/b', 'AND(term(*:a+b), term(*:a/b))'],
  ['and or', 'AND(term(*:and), term(*:or))'], // operators are upper case only
  // boolean operators
  ['a AND b', 'AND(term(*:a), term(*:b))'],
  ['a && b', 'AND(term(*:a), term(*:b))'],
  ['a OR b', 'OR(term(*:a), term(*:b))'],
  ['a || b', 'OR(term(*:a), term(*:b))'],
  ['a OR b OR c', 'OR(term(*:a), term(*:b), term(*:c))'],
  ['(a)AND(b)', 'AND(term(*:a), term(*:b))'],
  ['a AND  NOT b', 'AND(term(*:a), NOT(term(*:b)))'],
  ['a NOT b', 'AND(term(*:a), NOT(term(*:b)))'],
  ['a -b', 'AND(term(*:a), NOT(term(*:b)))'],
  ['a !b', 'AND(term(*:a), NOT(term(*:b)))'],
  ['+a -b c', 'AND(term(*:a), term(*:c), NOT(term(*:b)))'],
  ['+a', 'term(*:a)'], // '+' changes nothing under default AND
  // only-negative queries get an `all` to subtract from
  ['NOT a', 'AND(ALL, NOT(term(*:a)))'],
  ['-a', 'AND(ALL, NOT(term(*:a)))'],
  ['!a', 'AND(ALL, NOT(term(*:a)))'],
  ['-a -b', 'AND(ALL, NOT(term(*:a)), NOT(term(*:b)))'],
  // Lucene's clause occurrences with default AND (see compile.ts)
  ['a OR NOT b', 'AND(term(*:a), NOT(term(*:b)))'],
  ['NOT a OR b', 'AND(term(*:b), NOT(term(*:a)))'],
  ['a OR b c', 'term(*:c)'], // a, b optional next to required c: they only score
  ['a AND b OR c', 'term(*:a)'],
  ['a OR b AND c', 'AND(term(*:b), term(*:c))'],
  ['a OR +b', 'OR(term(*:a), term(*:b))'],
  // grouping, flattening
  ['(a OR b) c', 'AND(OR(term(*:a), term(*:b)), term(*:c))'],
  ['(a OR b) AND (c OR d)', 'AND(OR(term(*:a), term(*:b)), OR(term(*:c), term(*:d)))'],
  ['((a b) c)', 'AND(term(*:a), term(*:b), term(*:c))'],
  ['a OR (b OR (c))', 'OR(term(*:a), term(*:b), term(*:c))'],
  ['-(a b)', 'AND(ALL, NOT(AND(term(*:a), term(*:b))))'],
  ['a -(b OR c)', 'AND(term(*:a), NOT(OR(term(*:b), term(*:c))))'],
  ['a OR (NOT b)', 'OR(term(*:a), AND(ALL, NOT(term(*:b))))'],
  ['NOT (NOT a)', 'AND(ALL, NOT(AND(ALL, NOT(term(*:a)))))'],
  // phrases and fields
  ['"a b"', 'phrase(*:"a b")'],
  ['preferredName:"Johann Wolfgang von Goethe"', 'phrase(preferredName:"Johann Wolfgang von Goethe")'],
  ['id:"http://d-nb.info/gnd/118540238"', 'phrase(id:"http://d-nb.info/gnd/118540238")'],
  ['type:person', 'term(type:person)'],
  ['preferredName: Goethe', 'term(preferredName:Goethe)'],
  ['professionOrOccupation:Dichter gender:männlich', 'AND(term(professionOrOccupation:Dichter), term(gender:männlich))'],
  ['-type:person', 'AND(ALL, NOT(term(type:person)))'],
  ['preferredName:(Goethe OR Schiller)', 'OR(term(preferredName:Goethe), term(preferredName:Schiller))'],
  ['preferredName:(Goethe variantName:Göthe)', 'AND(term(preferredName:Goethe), term(variantName:Göthe))'],
  ['preferredName:(goe* OR "j w")', 'OR(prefix(preferredName:goe), phrase(preferredName:"j w"))'],
  ['preferredName:AND', 'term(preferredName:AND)'], // after 'field:' a word is a value
  ['"AND" \\AND', 'AND(phrase(*:"AND"), term(*:AND))'],
  [
    'type:person AND (goethe OR schiller) -preferredName:"Christiane"',
    'AND(term(type:person), OR(term(*:goethe), term(*:schiller)), NOT(phrase(preferredName:"Christiane")))',
  ],
  // all, exists
  ['*:*', 'ALL'],
  ['*', 'ALL'],
  ['*:* -type:x', 'AND(ALL, NOT(term(type:x)))'],
  ['a *:*', 'term(*:a)'],
  ['a OR *:*', 'ALL'],
  ['dateOfDeath:*', 'exists(dateOfDeath)'],
  ['placeOfBirth:* AND NOT placeOfDeath:*', 'AND(exists(placeOfBirth), NOT(exists(placeOfDeath)))'],
  // wildcards
  ['goe*', 'prefix(*:goe)'],
  ['preferredName:Goe*', 'prefix(preferredName:Goe)'],
  ['g?ethe', 'wildcard(*:g?ethe)'],
  ['*the', 'wildcard(*:*the)'],
  ['go*he', 'wildcard(*:go*he)'],
  ['goe*he*', 'wildcard(*:goe*he*)'],
  ['?', 'wildcard(*:?)'],
  ['"goe*"', 'phrase(*:"goe*")'], // no wildcards inside phrases
  // escapes
  ['http\\://d-nb.info/gnd/118540238', 'term(*:http://d-nb.info/gnd/118540238)'],
  ['id:http\\://d-nb.info/gnd/118540238', 'term(id:http://d-nb.info/gnd/118540238)'],
  [
    'id:https\\://d-nb.info/gnd/118540238 OR id:"http://d-nb.info/gnd/118529579"',
    'OR(term(id:https://d-nb.info/gnd/118540238), phrase(id:"http://d-nb.info/gnd/118529579"))',
  ],
  ['\\(1749\\)', 'term(*:(1749))'],
  ['a\\"b', 'term(*:a"b)'],
  ['\\\\', 'term(*:\\)'],
  ['a\\ b', 'term(*:a b)'],
  ['a\\*', 'term(*:a*)'], // an escaped star is a literal
  ['variantName:\\*', 'term(variantName:*)'],
  ['a\\**', 'prefix(*:a*)'],
  ['a\\*b*?', 'wildcard(*:a\\*b*?)'], // literal '*' kept escaped in a pattern
  ['"say \\"hi\\""', 'phrase(*:"say \\"hi\\"")'],
  ['"a\\b"', 'phrase(*:"ab")'],
  // ranges, on any field; the evaluator decides how to compare
  ['dateOfBirth:[1700 TO 1800]', 'range(dateOfBirth:[1700 TO 1800])'],
  ['dateOfBirth:{1700 TO 1800}', 'range(dateOfBirth:{1700 TO 1800})'],
  ['dateOfBirth:[1700 TO 1800}', 'range(dateOfBirth:[1700 TO 1800})'],
  ['dateOfBirth:{1700 TO 1800]', 'range(dateOfBirth:{1700 TO 1800])'],
  ['dateOfDeath:[* TO 1800]', 'range(dateOfDeath:[* TO 1800])'],
  ['dateOfBirth:[1900 TO *}', 'range(dateOfBirth:[1900 TO *})'],
  ['count:[* TO *]', 'range(count:[* TO *])'],
  ['dateOfBirth:[ 1700  TO  1800 ]', 'range(dateOfBirth:[1700 TO 1800])'],
  ['preferredName:["A b" TO "C d"]', 'range(preferredName:[A b TO C d])'],
  ['dateOfBirth:(["1700" TO 1750] OR [1800 TO 1850])', 'OR(range(dateOfBirth:[1700 TO 1750]), range(dateOfBirth:[1800 TO 1850]))'],
  ['a -dateOfBirth:[1700 TO 1800]', 'AND(term(*:a), NOT(range(dateOfBirth:[1700 TO 1800])))'],
  // boosts are accepted and ignored
  ['goethe^2', 'term(*:goethe^2)'],
  ['"a b"^0.5 c^1.5', 'AND(phrase(*:"a b"^0.5), term(*:c^1.5))'],
  ['preferredName:goe*^2 g?the^.5', 'AND(prefix(preferredName:goe^2), wildcard(*:g?the^0.5))'],
  ['"a b"~3', 'phrase(*:"a b"~3)'],
  ['preferredName:"a b c"~2^4 x', 'AND(phrase(preferredName:"a b c"~2^4), term(*:x))'],
  ['"a b"~0', 'phrase(*:"a b")'],
  // a group or a range has no node to carry a boost: accepted and ignored
  ['(a b)^3', 'AND(term(*:a), term(*:b))'],
  ['count:[1 TO 5]^2', 'range(count:[1 TO 5])'],
  // a term without a letter or digit is left out beside others, kept alone
  ['Breitkopf & Härtel', 'AND(term(*:Breitkopf), term(*:Härtel))'],
  ['a OR & OR b', 'OR(term(*:a), term(*:b))'],
  ['&', 'term(*:&)'],
];

test('at least 60 table rows', () => assert.ok(ROWS.length >= 60, String(ROWS.length)));

for (const [query, expected] of ROWS) {
  test(`parses ${JSON.stringify(query)}`, () => {
    assert.equal(queryToString(parseQuery(query)), expected);
  });
}

test('every known field can be queried by its exact name', () => {
  for (const f of QUERY_FIELDS) assert.equal(queryToString(parseQuery(`${f}:x`)), `term(${f}:x)`);
});

test('the tree is plain data with the documented shape', () => {
  assert.deepEqual(parseQuery('preferredName:"a b" -goe* dateOfBirth:{1700 TO *]'), {
    kind: 'and',
    children: [
      { kind: 'phrase', field: 'preferredName', text: 'a b' },
      { kind: 'range', field: 'dateOfBirth', lower: '1700', upper: null, includeLower: false, includeUpper: true },
      { kind: 'not', child: { kind: 'prefix', field: null, text: 'goe' } },
    ],
  });
});

test('a query of exactly maxLength characters is accepted', () => {
  assert.equal(queryToString(parseQuery('a'.repeat(1000))), `term(*:${'a'.repeat(1000)})`);
  assert.equal(queryToString(parseQuery('abc', { maxLength: 3 })), 'term(*:abc)');
});
