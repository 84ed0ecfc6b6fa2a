// parseQueryWithTerms: where each plain term of the tree stands in the query as sent, so a
// spelling correction ("did you mean") can rewrite exactly those characters and keep the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, parseQueryWithTerms, QUERY_FIELDS } from '../../src/query/parse.js';

const fields = [...QUERY_FIELDS];

/** Each term as `field:text@slice`, the slice cut from the query by its span. */
function spans(query: string): string[] {
  return parseQueryWithTerms(query, { fields }).terms.map((t) => `${t.node.field ?? '*'}:${t.node.text}@${query.slice(t.start, t.end)}`);
}

const ROWS: Array<[query: string, expected: string[]]> = [
  ['Goehte', ['*:Goehte@Goehte']],
  ['  Goehte   Schiler  ', ['*:Goehte@Goehte', '*:Schiler@Schiler']],
  ['preferredName:Goehte AND "Johann Wolfgang"', ['preferredName:Goehte@Goehte']],
  [
    'preferredName:(Goehte Wolfgang) -placeOfBirth:Weimar',
    ['preferredName:Goehte@Goehte', 'preferredName:Wolfgang@Wolfgang', 'placeOfBirth:Weimar@Weimar'],
  ],
  ['goe* g?the Goethe-Haus^2', ['*:Goethe-Haus@Goethe-Haus']],
  ['a\\:b c/d x\\ y', ['*:a:b@a\\:b', '*:c/d@c/d', '*:x y@x\\ y']],
  ['dateOfBirth:[1749 TO 1832] OR Müler', ['*:Müler@Müler']],
  ['(Beethofen)AND(Bonn)', ['*:Beethofen@Beethofen', '*:Bonn@Bonn']],
  ['+Goehte !Faust && NOT x', ['*:Goehte@Goehte', '*:Faust@Faust', '*:x@x']],
];

for (const [query, expected] of ROWS) {
  test(`term spans of ${JSON.stringify(query)}`, () => assert.deepEqual(spans(query), expected));
}

test("the tree is the one parseQuery gives; its term nodes are the spans' (which also list dropped optional clauses)", () => {
  const query = 'preferredName:(Goehte Wolfgang) OR -x "a b"';
  const r = parseQueryWithTerms(query, { fields });
  assert.deepEqual(r.query, parseQuery(query));
  const nodes: unknown[] = [];
  const walk = (n: typeof r.query): void => {
    if (n.kind === 'term') nodes.push(n);
    if (n.kind === 'and' || n.kind === 'or') n.children.forEach(walk);
    if (n.kind === 'not') walk(n.child);
  };
  walk(r.query);
  assert.equal(nodes.length, 1); // `Goehte` and `Wolfgang` are optional next to required "a b" (compile.ts)
  assert.equal(r.terms.length, 3);
  for (const n of nodes) assert.ok(r.terms.some((t) => t.node === n));
});
