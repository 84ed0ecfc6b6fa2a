/** The pages' language choice and word lists (src/web/messages.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseLang, facetValueLabel, format, MESSAGES } from '../../src/web/messages.js';

test('the language: ?lang= first, then Accept-Language by weight, else German', () => {
  const cases: Array<[unknown, string | undefined, string]> = [
    ['en', 'de', 'en'],
    ['de', 'en', 'de'],
    ['fr', 'en', 'en'],
    [undefined, undefined, 'de'],
    [undefined, '', 'de'],
    [undefined, 'en-US,en;q=0.9', 'en'],
    [undefined, 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'en'],
    [undefined, 'de;q=0.5, en;q=0.6', 'en'],
    [undefined, 'en;q=0, de;q=0.1', 'de'],
    [undefined, 'en;q=0', 'de'],
    [undefined, 'fr, *;q=0.1', 'de'],
    [undefined, 'EN', 'en'],
    [undefined, ';;;,,,q=x', 'de'],
  ];
  for (const [param, header, lang] of cases) assert.equal(chooseLang(param, header), lang, `${String(param)} / ${header}`);
});

test('both languages have every message, none empty', () => {
  assert.deepEqual(Object.keys(MESSAGES.en).sort(), Object.keys(MESSAGES.de).sort());
  for (const lang of ['de', 'en'] as const)
    for (const [key, text] of Object.entries(MESSAGES[lang])) assert.notEqual(text.trim(), '', `${lang}.${key}`);
});

test('vocabulary codes read as names; other values as written; placeholders filled', () => {
  assert.equal(facetValueLabel('sector_fct', 'sec_02', 'de'), 'Bibliothek');
  assert.equal(facetValueLabel('type_fct', 'mediatype_005', 'en'), 'Video');
  assert.equal(facetValueLabel('place_fct', 'sec_02', 'en'), 'sec_02');
  assert.equal(facetValueLabel('sector_fct', '__proto__', 'en'), '__proto__');
  assert.equal(format('{a} of {b}, {c}', { a: 1, b: 'x' }), '1 of x, {c}');
});
