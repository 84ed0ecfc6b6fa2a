/**
 * The default operator (Solr's q.op, v1 /search's defaultOperator): with OR, clauses
 * without an operator between them are optional, at least one must match; explicit
 * AND, OR and NOT keep their meaning.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery, queryToString } from '../../src/query/parse.js';

const fields = ['title', 'place'];
const or = (q: string) => queryToString(parseQuery(q, { fields, defaultOperator: 'OR' }));
const and = (q: string) => queryToString(parseQuery(q, { fields }));

test('defaultOperator OR makes juxtaposed clauses optional', () => {
  assert.equal(or('goethe schiller'), queryToString(parseQuery('goethe OR schiller', { fields })));
  assert.equal(or('title:(goethe schiller)'), queryToString(parseQuery('title:(goethe OR schiller)', { fields })));
  assert.equal(or('goethe AND schiller weimar'), and('goethe AND schiller'));
  assert.equal(or('goethe schiller -weimar'), and('(goethe OR schiller) -weimar'));
  assert.equal(or('goethe'), and('goethe'));
  // the default stays AND
  assert.equal(and('goethe schiller'), and('goethe AND schiller'));
  assert.equal(queryToString(parseQuery('goethe schiller', { fields, defaultOperator: 'AND' })), and('goethe AND schiller'));
});
