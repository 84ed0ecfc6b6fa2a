// Tests of src/formats/packageJson.ts: repeated keys merged, everything else as JSON.parse.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonSyntaxError, parsePackageJson } from '../../src/formats/packageJson.js';
import { readFixture } from './fixtures.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  assert.ok(v !== null && typeof v === 'object' && !Array.isArray(v));
  return v as Obj;
}

const isWhitespaceDollar = (key: string, value: unknown): boolean => key === '$' && typeof value === 'string' && /^[ \t\n\r]*$/.test(value);

/**
 * Compares parsePackageJson's result with JSON.parse's, key by key: equal wherever the
 * key occurs once, except that whitespace-only `$` keys are absent. `merged` lists the
 * paths whose keys are repeated in the raw text (checked separately).
 */
function compareWithJsonParse(ours: unknown, theirs: unknown, path: string, merged: Set<string>): void {
  if (merged.has(path)) return;
  if (Array.isArray(theirs)) {
    assert.ok(Array.isArray(ours), path);
    assert.equal(ours.length, theirs.length, path);
    theirs.forEach((t, i) => compareWithJsonParse(ours[i], t, `${path}[${i}]`, merged));
    return;
  }
  if (theirs !== null && typeof theirs === 'object') {
    const o = obj(ours);
    const t = theirs as Obj;
    const expectedKeys = Object.keys(t).filter((k) => !isWhitespaceDollar(k, t[k]));
    assert.deepEqual(Object.keys(o), expectedKeys, path);
    for (const k of expectedKeys) compareWithJsonParse(o[k], t[k], `${path}.${k}`, merged);
    return;
  }
  assert.equal(ours, theirs, path);
}

test('goethe.json: repeated keys merged in document order', () => {
  const pkg = obj(parsePackageJson(readFixture('goethe.json')));
  const rdf = obj(obj(pkg.edm).RDF);
  assert.deepEqual(Object.keys(rdf), ['Aggregation', 'WebResource', 'Concept', 'Agent', 'ProvidedCHO', 'Event', 'Place', 'TimeSpan']);
  const concepts = rdf.Concept;
  assert.ok(Array.isArray(concepts));
  assert.equal(concepts.length, 5);
  assert.deepEqual(
    concepts.map((c) => obj(c)['@about']),
    [
      'http://ddb.vocnet.org/medientyp/mt002',
      'http://ddb.vocnet.org/sparte/sparte006',
      'CUHGJVDB3EL3R67Z43O2OYJMOOERZELQ',
      '773AJ3QDG7HCRSPPQSKXBB7NJUVECXLU',
      'http://d-nb.info/gnd/4113357-2',
    ],
  );
  for (const c of concepts) assert.equal(Object.hasOwn(obj(c), '$'), false, 'whitespace $ dropped');
  assert.equal((rdf.Agent as unknown[]).length, 5);
  assert.equal((rdf.Event as unknown[]).length, 2);
  assert.equal((rdf.Place as unknown[]).length, 2);

  const cho = obj(rdf.ProvidedCHO);
  assert.deepEqual(cho.subject, [
    'Druckgraphik',
    'Goethe, Johann Wolfgang von',
    { '@resource': 'http://d-nb.info/gnd/4113357-2' },
    { '@resource': 'http://d-nb.info/gnd/118540238' },
  ]);
  // The merged key stays at the position of its first occurrence.
  assert.deepEqual(Object.keys(cho), ['@about', 'currentLocation', 'hasType', 'hasMet', 'description', 'type', 'subject', 'title']);
});

test('goethe.json: everything without duplicates equals JSON.parse', () => {
  const text = readFixture('goethe.json');
  const merged = new Set(['.edm.RDF.Concept', '.edm.RDF.Agent', '.edm.RDF.Event', '.edm.RDF.Place', '.edm.RDF.ProvidedCHO.subject']);
  compareWithJsonParse(parsePackageJson(text), JSON.parse(text), '', merged);
  // JSON.parse keeps only the last occurrence of a repeated key: it is the tail of ours.
  const ours = obj(obj(obj(parsePackageJson(text)).edm).RDF);
  const theirs = obj(obj(obj(JSON.parse(text)).edm).RDF);
  const lastPlace = Object.fromEntries(Object.entries(obj(theirs.Place)).filter(([k, v]) => !isWhitespaceDollar(k, v)));
  assert.deepEqual((ours.Place as unknown[]).at(-1), lastPlace);
});

test('bare_id.json and multi_uri.json have no repeated keys: equal to JSON.parse but for whitespace $', () => {
  for (const file of ['bare_id.json', 'multi_uri.json']) {
    const text = readFixture(file);
    compareWithJsonParse(parsePackageJson(text), JSON.parse(text), file, new Set());
  }
});

test('merge rules: arrays spliced, position of the first occurrence, single arrays kept', () => {
  const value = parsePackageJson('{"a":1,"b":[2],"a":[3,4],"c":{"$":" \\n","d":null},"a":5,"e":[6],"$":"x"}');
  assert.deepEqual(value, { a: [1, 3, 4, 5], b: [2], c: { d: null }, e: [6], $: 'x' });
  assert.deepEqual(Object.keys(obj(value)), ['a', 'b', 'c', 'e', '$']);
  assert.deepEqual(parsePackageJson('{"$":""}'), {});
  assert.deepEqual(parsePackageJson('[{"k":[1],"k":[]},"s",true,-1.5e3]'), [{ k: [1] }, 's', true, -1500]);
  const proto = obj(parsePackageJson('{"__proto__":{"x":1}}'));
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(proto, JSON.parse('{"__proto__":{"x":1}}'));
});

test('syntax errors carry line, column and offset', () => {
  const text = readFixture('goethe.json');
  // Remove the brace closing `properties`: the rest still parses (as members of
  // `properties`), so the missing brace is found at the very end, after the final newline.
  const broken = text.replace('"cortex-type":"Kultur"}', '"cortex-type":"Kultur"');
  assert.notEqual(broken, text);
  let error: unknown;
  try {
    parsePackageJson(broken);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof JsonSyntaxError);
  assert.equal(error.offset, broken.length);
  assert.deepEqual([error.line, error.column], [2, 1]);
  assert.equal(error.message, "line 2, column 1: '}' expected");

  const cases: Array<[string, number, number, RegExp]> = [
    ['{\n  "a": 1\n', 3, 1, /'}' expected/],
    ['{\n  "a": 1,\n}', 3, 1, /Property name expected/],
    ['[1 // c\n]', 1, 4, /Comments/],
    ['', 1, 1, /Value expected/],
    ['{"a": tru}', 1, 7, /Invalid symbol/],
  ];
  for (const [json, line, column, reason] of cases) {
    assert.throws(
      () => parsePackageJson(json),
      (e: unknown) => {
        assert.ok(e instanceof JsonSyntaxError, JSON.stringify(json));
        assert.deepEqual([e.line, e.column], [line, column], JSON.stringify(json));
        assert.match(e.reason, reason);
        return true;
      },
    );
  }
});
