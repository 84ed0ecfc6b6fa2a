/**
 * compileGlob (src/search/glob.ts): the same answers as a regular expression
 * on small random cases, and answers at all on the patterns that held the
 * server for minutes with a backtracking regex (issue #13, point 1). A
 * backtracking matcher does not finish the hostile cases in the life of the
 * test run, so they fail by hanging, not by a clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGlob } from '../../src/search/glob.js';

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

const reference = (pattern: string) => new RegExp(`^${pattern.replace(/\*/g, '[^]*').replace(/\?/g, '.')}$`, 'u');

test('compileGlob agrees with a regular expression on random words and patterns', () => {
  const random = rng(13);
  const pick = (alphabet: string[], n: number) => Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
  const letters = ['a', 'b', 'ß', '𝔸'];
  for (let k = 0; k < 4000; k++) {
    const word = pick(letters, Math.floor(random() * 7));
    const pattern = pick([...letters, '*', '?', '*'], 1 + Math.floor(random() * 6));
    assert.equal(compileGlob(pattern).matches(word), reference(pattern).test(word), `${pattern} ~ ${word}`);
  }
});

test('compileGlob: ? is one code point, * also none, runs of * and ? in any order', () => {
  const cases: Array<[string, string, boolean]> = [
    ['g?the', 'göthe', true],
    ['g?the', 'gthe', false],
    ['?', '𝔸', true],
    ['??', '𝔸', false],
    ['goe*', 'goe', true],
    ['*goe*', 'goethe', true],
    ['*?*?', 'a', false],
    ['*?*?', 'ab', true],
    ['?*?', 'ab', true],
    ['a*b*c', 'abbbbc', true],
    ['a*b*c', 'acb', false],
    ['*', '', true],
    ['', '', true],
    ['', 'a', false],
  ];
  for (const [pattern, word, expected] of cases) assert.equal(compileGlob(pattern).matches(word), expected, `${pattern} ~ ${word}`);
  assert.deepEqual([compileGlob('a?*?b').minLength, compileGlob('a?*?b').maxLength], [4, Infinity]);
  assert.deepEqual([compileGlob('a??b').minLength, compileGlob('a??b').maxLength], [4, 4]);
});

test('compileGlob answers the hostile patterns of issue #13 (exponential for a backtracking regex)', () => {
  // 33 repeats of *?*?…*?z (the issue's query); a word never has that many letters.
  const issue = '*?*?*?*?*?*?*?*?*?*?*?*?*?*?z'.repeat(33);
  assert.equal(compileGlob(issue).matches('goethe'), false);
  // A word long enough to pass the length test, and patterns that a regex tries every split of.
  const long = 'a'.repeat(5000);
  assert.equal(compileGlob(`${'*a'.repeat(200)}*b`).matches(long), false);
  assert.equal(compileGlob(`${'*a'.repeat(200)}*`).matches(long), true);
  assert.equal(compileGlob(`${'*?'.repeat(400)}z`).matches(`${long}z`), true);
  assert.equal(compileGlob(`${'*?'.repeat(400)}z`).matches(long), false);
  assert.equal(compileGlob('*qx*').matches(`${long}qx${long}`), true);
});
