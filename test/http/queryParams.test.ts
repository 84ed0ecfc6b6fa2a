/**
 * docs/decisions.md "Numbers": every numeric parameter is a safe integer in its range,
 * written in decimal digits; the query string is valid percent-encoding.
 * Ajv alone coerced "Infinity" (rows=Infinity returned every person), "1e3",
 * "0x10", " 5" and "".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { FIXTURES } from '../helpers/paths.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;

const integerError = (name: string, max: number) =>
  JSON.stringify({
    status: 400,
    name: 'InvalidParameterException',
    message: `The parameter ${name} must be given once, as a whole number from 0 to ${max} in the digits 0-9 only (no sign, space, decimal point, exponent or hex).`,
  });

const encodingError = (part: string) =>
  JSON.stringify({
    status: 400,
    name: 'MalformedUrlException',
    message: `The ${part} of the URL is not valid percent-encoding: each '%' must begin a %XX escape of UTF-8 bytes. Write a literal '%' as %25 and characters outside ASCII as their UTF-8 escapes (e.g. %C3%A4 for 'ä').`,
  });

const PARAMS: Array<[string, number]> = [
  ['rows', 1000],
  ['offset', 1_000_000],
  ['facet.limit', 1000],
  ['minDocs', Number.MAX_SAFE_INTEGER],
];

/** Written as they would appear in a URL. */
const BAD_VALUES = [
  'Infinity',
  '-Infinity',
  'NaN',
  '1e3',
  '0x10',
  '0b1',
  '9007199254740993',
  '99999999999999999999',
  '%205',
  '5%20',
  '+5',
  '-1',
  '1.5',
  '1.0',
  '',
  'ten',
  '%EF%BC%95',
];

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} rows, offset, facet.limit and minDocs refuse anything but decimal digits in range, naming the parameter and its range`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    try {
      for (const [name, max] of PARAMS) {
        const values = [...BAD_VALUES, String(max + 1)].filter((v) => !(name === 'minDocs' && v === String(max + 1)));
        for (const value of values) {
          const res = await t.app.inject({ url: `/entities?${name}=${value}`, headers: t.json });
          assert.equal(res.statusCode, 400, `${name}=${value}`);
          assert.equal(res.body, integerError(name, max), `${name}=${value}`);
        }
        const twice = await t.app.inject({ url: `/entities?${name}=1&${name}=2`, headers: t.json });
        assert.equal(twice.body, integerError(name, max), `${name} twice`);
      }
      // The bounds themselves, and a leading zero, are fine.
      for (const query of [
        'rows=1000',
        'rows=0',
        'rows=007',
        'offset=1000000',
        'facet.limit=1000&facet=person_place_fct',
        `minDocs=${Number.MAX_SAFE_INTEGER}`,
      ]) {
        const res = await t.app.inject({ url: `/entities?${query}`, headers: t.json });
        assert.equal(res.statusCode, 200, query);
      }
      const seven = (await t.app.inject({ url: '/entities?rows=007', headers: t.json })).json();
      assert.equal(seven.results[0].docs.length, 7);
    } finally {
      await t.close();
    }
  });

  test(`${b} a query string that is not valid percent-encoding is a 400, not a search for the literal text`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    try {
      const cases: Array<[string, string]> = [
        ['query=%zz', 'value of the parameter query'],
        ['query=Goethe%', 'value of the parameter query'],
        ['query=%E0%A4%A', 'value of the parameter query'],
        // A lone continuation byte is not UTF-8.
        ['query=%80', 'value of the parameter query'],
        ['person_place_fct=%zz', 'value of the parameter person_place_fct'],
        // A name that is not ours is not named: it could be anything, a key included.
        ['%zz=1', 'query string'],
        ['unknown=%zz', 'query string'],
      ];
      for (const [query, part] of cases) {
        const res = await t.app.inject({ url: `/entities?${query}`, headers: t.json });
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.body, encodingError(part), query);
      }
      // Well-formed escapes, '+' and UTF-8 still search.
      for (const query of ['query=G%C3%B6the', 'query=Goethe+Faust', 'query=100%25', 'query=%2A%3A%2A']) {
        const res = await t.app.inject({ url: `/entities?${query}`, headers: t.json });
        assert.equal(res.statusCode, 200, query);
      }
      // The item routes check their query string too.
      const items = await t.app.inject({ url: '/items/X/parents?x=%zz', headers: t.json });
      assert.equal(items.body, encodingError('query string'));
    } finally {
      await t.close();
    }
  });
}
