// Loading persons: format detection from content, the service's own entity shape
// (spec 2.1 docs) for loading one instance from another's output, and bad input reported
// per record (line-based) or per document (whole-document formats).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectPersonFormat, readPersons, type PersonReadResult } from '../../src/ingest/persons/readPersons.js';
import { PERSON_FILES, personsOf, readText, tally } from './paths.js';

const efText = readText(PERSON_FILES.entityFacts);
const efRaw = JSON.parse(efText) as unknown[];
const efLine = (i: number): string => JSON.stringify(efRaw[i]);

function onlyError(results: PersonReadResult[]): { reason: string; position: string } {
  assert.equal(results.length, 1, JSON.stringify(results));
  const [r] = results;
  assert.equal(r?.kind, 'error', JSON.stringify(r));
  return r;
}

test('own entity shape round trip: Person -> JSON line -> readPersons -> same Person', () => {
  const persons = [
    ...personsOf(readPersons(efText)),
    ...personsOf(readPersons(readText(PERSON_FILES.lobidPerson))),
    ...personsOf(readPersons(readText(PERSON_FILES.lobidSearch))),
  ];
  assert.equal(persons.length, 1233);
  const lines = persons.map((p) => JSON.stringify(p)).join('\n') + '\n';
  assert.equal(detectPersonFormat(lines), 'entity');
  const back = readPersons(lines);
  assert.deepEqual(tally(back), { person: 1233 });
  assert.deepEqual(personsOf(back), persons);
  // ... and as a JSON array.
  assert.equal(detectPersonFormat(JSON.stringify(persons)), 'entity');
  assert.deepEqual(personsOf(readPersons(JSON.stringify(persons))), persons);
});

test('own entity shape: "count" is ignored (the store computes it), other types are skipped', () => {
  const lines = [
    '{"id":"http://d-nb.info/gnd/118540238","type":"person","preferredName":"Johann Wolfgang von Goethe","variantName":[],"gender":["Mann"],"count":17}',
    '{"id":"http://d-nb.info/gnd/2-1","type":"organization","preferredName":"X"}',
  ].join('\n');
  assert.deepEqual(readPersons(lines), [
    {
      kind: 'person',
      position: 'line 1',
      person: {
        id: 'http://d-nb.info/gnd/118540238',
        type: 'person',
        preferredName: 'Johann Wolfgang von Goethe',
        variantName: [],
        gender: ['Mann'],
      },
    },
    { kind: 'skipped', position: 'line 2', entityType: 'organization' },
  ]);
});

test('format detection from content', () => {
  assert.equal(detectPersonFormat(efText), 'entityfacts');
  assert.equal(detectPersonFormat(`${efLine(0)}\n${efLine(1)}`), 'entityfacts');
  assert.equal(detectPersonFormat(readText(PERSON_FILES.lobidPerson)), 'lobid');
  assert.equal(detectPersonFormat(readText(PERSON_FILES.lobidSearch)), 'lobid-search');
  assert.equal(detectPersonFormat(readText(PERSON_FILES.lobidBulk)), 'es-bulk');
  assert.equal(detectPersonFormat('\uFEFF{"id":"http://x.org/1","type":"person","preferredName":"A"}'), 'entity');
  assert.equal(detectPersonFormat('<rdf:RDF/>'), 'unknown');
  assert.equal(detectPersonFormat('{"foo": 1}'), 'unknown');
  assert.equal(detectPersonFormat(''), 'unknown');
});

test('broken JSON on one line of a JSON-lines file: an error for that line, the other lines read', () => {
  const text = [efLine(0), '{"@id": "http://d-nb.info/gnd/1", "person": {', '', efLine(1), efLine(2)].join('\n');
  assert.equal(detectPersonFormat(text), 'entityfacts');
  const results = readPersons(text);
  assert.deepEqual(
    results.map((r) => `${r.position} ${r.kind}`),
    ['line 1 person', 'line 2 error', 'line 4 person', 'line 5 person'],
  );
  const err = results[1];
  assert.match(err?.kind === 'error' ? err.reason : '', /^JSON syntax error \(.+\); expected one JSON object on this line$/);
});

test('broken JSON on the first line still reads the rest (line-based by majority)', () => {
  const text = ['{"index":{"_id":"x"}', efLine(0), efLine(1)].join('\n');
  assert.deepEqual(
    readPersons(text).map((r) => `${r.position} ${r.kind}`),
    ['line 1 error', 'line 2 person', 'line 3 person'],
  );
});

test('broken JSON in a whole-document format: one error for the document, saying where', () => {
  const broken = efText.replace('"Egon Friedell"', '"Egon Friedell" "');
  const err = onlyError(readPersons(broken));
  assert.equal(err.position, 'document');
  assert.match(err.reason, /^JSON syntax error in the document at line 46, column 39 \(.+\); nothing was read from it/);
  assert.equal(detectPersonFormat(broken), 'unknown');
});

test('a record without preferredName or without id is an error that says which', () => {
  const text = [
    '{"@id":"http://d-nb.info/gnd/1","person":{"variantName":["A"]}}',
    '{"id":"https://d-nb.info/gnd/2","type":["Person"],"preferredName":"   "}',
    '{"type":["DifferentiatedPerson","Person"],"preferredName":"B"}',
    '{"person":{}}',
  ].join('\n');
  const reasons = readPersons(text).map((r) => (r.kind === 'error' ? `${r.position}: ${r.reason}` : r.kind));
  assert.deepEqual(reasons, [
    'line 1: record http://d-nb.info/gnd/1 has no "preferredName" (expected a non-empty string)',
    'line 2: record https://d-nb.info/gnd/2 has no "preferredName" (expected a non-empty string)',
    'line 3: record has no "id" (expected a URI such as "http://d-nb.info/gnd/118540238")',
    'line 4: record has no "@id" (expected a URI such as "http://d-nb.info/gnd/118540238") and no "preferredName" (expected a non-empty string)',
  ]);
});

test('unknown format: one error that lists the accepted formats', () => {
  for (const text of ['<?xml version="1.0"?><rdf:RDF/>', 'id;preferredName\n1;Goethe', '{"foo": 1, "bar": [2]}', '[1, 2, 3]', '[]']) {
    const err = onlyError(readPersons(text));
    assert.equal(err.position, 'document');
    assert.match(
      err.reason,
      /^unknown format: .+; expected a DNB EntityFacts JSON array .+lobid-gnd search page .+Elasticsearch bulk lines .+entities/,
      text,
    );
  }
  assert.match(onlyError(readPersons('{"foo": 1, "bar": [2]}')).reason, /found an object with keys "foo", "bar"/);
  assert.match(onlyError(readPersons('   \n')).reason, /^the input is empty; expected /);
});

test('an unrecognised record among good ones is an error for that record', () => {
  const text = [efLine(0), '{"name":"Goethe"}', '[1]'].join('\n');
  const results = readPersons(text);
  assert.deepEqual(
    results.map((r) => `${r.position} ${r.kind}`),
    ['line 1 person', 'line 2 error', 'line 3 error'],
  );
  assert.match(
    results[1]?.kind === 'error' ? results[1].reason : '',
    /^unrecognised record, an object with keys "name": expected an EntityFacts record/,
  );
});

test('bulk lines: update and delete actions are reported, not silently applied or dropped', () => {
  const text = [
    '{"delete":{"_id":"https://d-nb.info/gnd/1"}}',
    '{"update":{"_id":"https://d-nb.info/gnd/2"}}',
    '{"doc":{"preferredName":"Y"}}',
    '{"create":{"_id":"https://d-nb.info/gnd/3"}}',
    '{"id":"https://d-nb.info/gnd/3","type":["Person"],"preferredName":"Z"}',
  ].join('\n');
  assert.equal(detectPersonFormat(text), 'es-bulk');
  const results = readPersons(text);
  assert.deepEqual(
    results.map((r) => `${r.position} ${r.kind}`),
    ['line 1 error', 'line 2 error', 'line 5 person'],
  );
  assert.match(
    results[0]?.kind === 'error' ? results[0].reason : '',
    /bulk action "delete" is not supported; expected "index" or "create"/,
  );
});

test('EntityFacts records of other types (later flat EntityFacts with "@type") are skipped', () => {
  const text = [
    '{"@id":"https://d-nb.info/gnd/2-1","@type":"organisation","preferredName":"X"}',
    '{"@id":"https://d-nb.info/gnd/118540238","@type":"person","preferredName":"Johann Wolfgang von Goethe",' +
      '"placeOfBirth":[{"@id":"https://d-nb.info/gnd/4018118-2","preferredName":"Frankfurt am Main"}],"gender":{"@id":"x","label":"Männlich"}}',
  ].join('\n');
  assert.deepEqual(readPersons(text), [
    { kind: 'skipped', position: 'line 1', entityType: 'organisation' },
    {
      kind: 'person',
      position: 'line 2',
      person: {
        id: 'http://d-nb.info/gnd/118540238',
        type: 'person',
        preferredName: 'Johann Wolfgang von Goethe',
        variantName: [],
        placeOfBirth: ['Frankfurt am Main'],
        gender: ['Mann'],
      },
    },
  ]);
});
