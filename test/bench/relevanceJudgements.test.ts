/**
 * The judged set of the relevance benchmark (bench/relevance/README.md) is well-formed: at
 * least 80 queries in German, English and French of every kind, grades 0 to 3, every judged
 * id a document of the fixtures, every document judged relevant found by the query's
 * `foundBy` expression (how the candidates were found); and its measures compute what they
 * say on rankings made by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtureDocuments } from '../../bench/relevance/fixtureDocuments.js';
import { KINDS, problemsOf, QUERY_LANGUAGES, readJudgements } from '../../bench/relevance/judgements.js';
import { ndcgAt, recallAt } from '../../bench/relevance/metrics.js';

test('the judged set is well-formed, and every judged id is a document of the fixtures', async () => {
  const queries = readJudgements();
  assert.ok(queries.length >= 80, `${queries.length} queries`);
  for (const l of QUERY_LANGUAGES)
    assert.ok(
      queries.some((q) => q.language === l),
      `no query in ${l}`,
    );
  for (const k of KINDS)
    assert.ok(
      queries.some((q) => q.kind === k),
      `no query of kind ${k}`,
    );
  const docs = new Map((await fixtureDocuments()).map((d) => [d.id, d]));
  const unknown: string[] = [];
  const unfound: string[] = [];
  for (const q of queries) {
    const re = new RegExp(q.foundBy, 'iu');
    for (const [id, grade] of Object.entries(q.judged)) {
      const doc = docs.get(id);
      if (doc === undefined) unknown.push(`${q.id}: ${id}`);
      else if (grade > 0 && !Object.values(doc.text).some((values) => values.some((v) => re.test(v)))) unfound.push(`${q.id}: ${id}`);
    }
  }
  assert.deepEqual(unknown, []);
  assert.deepEqual(unfound, []);
});

test('a judged set with a bad grade, a repeated id or nothing relevant is refused, each problem named', () => {
  const good = { id: 'a', language: 'de', kind: 'typo', query: 'x', foundBy: 'x', judged: { D1: 3 } };
  assert.deepEqual(problemsOf({ queries: [good] }), []);
  assert.deepEqual(
    problemsOf({
      queries: [
        good,
        { ...good, judged: { D1: 4 } },
        { ...good, id: 'b', language: 'xx', kind: 'other', judged: { D1: 0 } },
        { ...good, id: 'c', foundBy: '(' },
      ],
    }),
    [
      'queries[1] (a): id repeated',
      'queries[1] (a): grade 4 not 0 to 3',
      'queries[2] (b): language not one of de, en, fr',
      'queries[2] (b): kind not one of inflection, transliteration, typo, multi-word, phrase, name',
      'queries[2] (b): no document judged relevant',
      'queries[3] (c): foundBy is not a regular expression',
    ],
  );
});

test('nDCG@10 and recall@100 of rankings worked out by hand', () => {
  const judged = { A: 3, B: 1, C: 0 };
  assert.equal(ndcgAt(['A', 'B'], judged, 10), 1);
  assert.equal(recallAt(['A', 'B'], judged, 100), 1);
  // B first, A second: (1/log2 2 + 7/log2 3) / (7/log2 2 + 1/log2 3)
  const swapped = (1 + 7 / Math.log2(3)) / (7 + 1 / Math.log2(3));
  assert.ok(Math.abs(ndcgAt(['B', 'A'], judged, 10) - swapped) < 1e-12);
  assert.equal(ndcgAt(['C', 'X'], judged, 10), 0);
  assert.equal(recallAt(['C', 'A'], judged, 100), 0.5);
  // beyond the depth counts nothing
  assert.equal(recallAt(['C', 'A', 'B'], judged, 1), 0);
});
