// Loading persons: DNB EntityFacts JSON-LD, as an array or one record per line.
// Expected numbers were counted independently with python3 over the raw file (json.load,
// strip, order-keeping dedup), not produced by the code under test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectPersonFormat, readPersons } from '../../src/ingest/persons/readPersons.js';
import type { Person } from '../../src/domain/person.js';
import { PERSON_FILES, personsOf, readText, tally } from './paths.js';

const text = readText(PERSON_FILES.entityFacts);
const results = readPersons(text);
const persons = personsOf(results);
const byId = new Map(persons.map((p) => [p.id, p]));

test('all 1,222 EntityFacts records are persons: none skipped, no errors', () => {
  assert.equal(detectPersonFormat(text), 'entityfacts');
  assert.equal(results.length, 1222);
  assert.deepEqual(tally(results), { person: 1222 });
  assert.equal(new Set(persons.map((p) => p.id)).size, 1222, 'ids are unique');
  assert.ok(persons.every((p) => /^http:\/\/d-nb\.info\/gnd\/[0-9X-]+$/.test(p.id)));
  assert.equal(results[1]?.position, 'record 2');
});

test('field coverage matches a count over the raw file', () => {
  const has = (f: (p: Person) => unknown): number => persons.filter((p) => f(p) !== undefined).length;
  assert.equal(
    has((p) => p.dateOfBirth),
    920,
  );
  assert.equal(
    has((p) => p.dateOfDeath),
    861,
  );
  assert.equal(
    has((p) => p.placeOfBirth),
    414,
  );
  assert.equal(
    has((p) => p.placeOfDeath),
    328,
  );
  assert.equal(
    has((p) => p.professionOrOccupation),
    803,
  );
  assert.equal(
    has((p) => p.gender),
    719,
  );
  assert.equal(persons.filter((p) => p.variantName.length > 0).length, 773);
  // 3,887 variant names in the file, 111 of them repeats within their record.
  assert.equal(
    persons.reduce((n, p) => n + p.variantName.length, 0),
    3776,
  );
  assert.equal(
    persons.reduce((n, p) => n + (p.professionOrOccupation?.length ?? 0), 0),
    1714,
  );
  const genders = new Map<string, number>();
  for (const g of persons.flatMap((p) => p.gender ?? [])) genders.set(g, (genders.get(g) ?? 0) + 1);
  assert.deepEqual(Object.fromEntries(genders), { Mann: 662, Frau: 57 });
});

test('Goethe is not in the 2014 EntityFacts sample (he is only in LobidPerson.json)', () => {
  assert.equal(byId.has('http://d-nb.info/gnd/118540238'), false);
});

test('Egon Friedell (record 2), field by field as in the raw file', () => {
  assert.deepEqual(byId.get('http://d-nb.info/gnd/118535560'), {
    id: 'http://d-nb.info/gnd/118535560',
    type: 'person',
    preferredName: 'Egon Friedell',
    variantName: ['Egon Fridell', 'Egon Friedmann', 'Egon Friedländer'],
    dateOfBirth: '21. Januar 1878',
    dateOfDeath: '16. März 1938',
    placeOfBirth: ['Wien'],
    placeOfDeath: ['Wien'],
    // The last one has no "@id" in the source, only "@value": labels are what counts.
    professionOrOccupation: ['Schriftsteller', 'Historiker', 'Philosoph', 'Kritiker', 'Schauspieler', 'Kabarettleiter'],
    gender: ['Mann'],
  });
});

test('Therese Schlesinger-Eckstein (record 129): female, places, variant equal to the preferred name kept', () => {
  assert.equal(results[128]?.kind === 'person' && results[128].person.id, 'http://d-nb.info/gnd/101843305');
  assert.deepEqual(byId.get('http://d-nb.info/gnd/101843305'), {
    id: 'http://d-nb.info/gnd/101843305',
    type: 'person',
    preferredName: 'Therese Schlesinger-Eckstein',
    variantName: ['Therese Schlesinger-Eckstein', 'Therese S.-Eckstein', 'Therese Schlesinger'],
    dateOfBirth: '6. Juni 1863',
    dateOfDeath: '5. Juni 1940',
    placeOfBirth: ['Wien'],
    placeOfDeath: ['Blois'],
    professionOrOccupation: ['Politikerin', 'Feministin', 'Schriftstellerin'],
    gender: ['Frau'],
  });
});

test('Ignaz Zadek (record 1): no places, no gender: those fields are omitted, not empty', () => {
  const zadek = byId.get('http://d-nb.info/gnd/124963463');
  assert.deepEqual(zadek, {
    id: 'http://d-nb.info/gnd/124963463',
    type: 'person',
    preferredName: 'Ignaz Zadek',
    variantName: ['I. Zadek'],
    dateOfBirth: '1858',
    dateOfDeath: '1931',
    professionOrOccupation: ['Arzt'],
  });
  assert.deepEqual(Object.keys(zadek ?? {}), [
    'id',
    'type',
    'preferredName',
    'variantName',
    'dateOfBirth',
    'dateOfDeath',
    'professionOrOccupation',
  ]);
});

test('repeated values within a field are dropped, source order kept', () => {
  // Raw: ["Henry Havelock Ellis", "Henry Havelock Ellis", "Henry H. Ellis"]
  assert.deepEqual(byId.get('http://d-nb.info/gnd/118681990')?.variantName, ['Henry Havelock Ellis', 'Henry H. Ellis']);
  // Raw occupations: Schriftsteller, Schriftsteller, Neurologe
  assert.deepEqual(byId.get('http://d-nb.info/gnd/116935839')?.professionOrOccupation, ['Schriftsteller', 'Neurologe']);
});

test('dateOfBirthAndDeath (a period such as "20. Jh.") is not taken as a birth or death date', () => {
  // 126233683 has only dateOfBirthAndDeath "20. Jh.".
  const p = byId.get('http://d-nb.info/gnd/126233683');
  assert.ok(p);
  assert.equal(p.dateOfBirth, undefined);
  assert.equal(p.dateOfDeath, undefined);
});

test('one EntityFacts record per line (first 3 records of the file) gives the same persons', () => {
  const raw = JSON.parse(text) as unknown[];
  const jsonl =
    raw
      .slice(0, 3)
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n';
  assert.equal(detectPersonFormat(jsonl), 'entityfacts');
  const lines = readPersons(jsonl);
  assert.deepEqual(
    lines.map((r) => r.position),
    ['line 1', 'line 2', 'line 3'],
  );
  assert.deepEqual(personsOf(lines), persons.slice(0, 3));
  assert.deepEqual(
    persons.slice(0, 3).map((p) => p.preferredName),
    ['Ignaz Zadek', 'Egon Friedell', 'Wahrmund'],
  );
});
