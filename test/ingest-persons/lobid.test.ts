// Loading persons: lobid-gnd single records, search pages (member[]), JSON lines
// and Elasticsearch bulk lines. Only Person / DifferentiatedPerson become entities; other
// GND types are skipped and counted by type. Expected values read off the raw files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectPersonFormat, readPersons } from '../../src/ingest/persons/readPersons.js';
import { PERSON_FILES, personsOf, readText, tally } from './paths.js';

test('single lobid-gnd record: Goethe in natural order, https id stored as http, arrays of dates take the first', () => {
  const text = readText(PERSON_FILES.lobidPerson);
  assert.equal(detectPersonFormat(text), 'lobid');
  const results = readPersons(text);
  assert.deepEqual(tally(results), { person: 1 });
  assert.equal(results[0]?.position, 'record 1');
  const [goethe] = personsOf(results);
  const raw = JSON.parse(text) as { variantName: string[] };
  assert.deepEqual(goethe, {
    id: 'http://d-nb.info/gnd/118540238', // source: https://d-nb.info/gnd/118540238
    type: 'person',
    // Source: "Goethe, Johann Wolfgang von", with preferredNameEntityForThePerson
    // {forename, prefix, surname}; the inverted form is kept as the first variant (docs/decisions.md
    // "Names in natural order").
    preferredName: 'Johann Wolfgang von Goethe',
    variantName: ['Goethe, Johann Wolfgang von', ...raw.variantName], // 152 names, all distinct and already trimmed in the source
    dateOfBirth: '1749-08-28', // source: ["1749-08-28"]
    dateOfDeath: '1832-03-22',
    placeOfBirth: ['Frankfurt am Main'],
    placeOfDeath: ['Weimar'],
    professionOrOccupation: [
      'Naturwissenschaftler',
      'Zeichner',
      'Theaterintendant',
      'Schriftsteller',
      'Maler',
      'Publizist',
      'Politiker',
      'Jurist',
    ],
    gender: ['Mann'], // source label "Männlich" for gender#male
  });
  assert.equal(goethe?.variantName.length, 153);
  assert.equal(goethe?.variantName[1], "Gyot'e, Yohan Volfgang");
});

test('lobid-gnd search page: the 10 members are read, not the page itself', () => {
  const text = readText(PERSON_FILES.lobidSearch);
  assert.equal(detectPersonFormat(text), 'lobid-search');
  const results = readPersons(text);
  assert.deepEqual(tally(results), { person: 10 });
  assert.deepEqual(
    results.map((r) => r.position),
    Array.from({ length: 10 }, (_, i) => `record ${i + 1}`),
  );
  const persons = personsOf(results);
  assert.deepEqual(
    persons.map((p) => p.id),
    [
      'http://d-nb.info/gnd/1029750548',
      'http://d-nb.info/gnd/1024748952',
      'http://d-nb.info/gnd/1023940469',
      'http://d-nb.info/gnd/1021579149',
      'http://d-nb.info/gnd/1049555651',
      'http://d-nb.info/gnd/1049617525',
      'http://d-nb.info/gnd/1058507443',
      'http://d-nb.info/gnd/126625905',
      'http://d-nb.info/gnd/131747177',
      'http://d-nb.info/gnd/133149145',
    ],
  );
  // Two different people share the name "Franz Eichinger": ids, not names, identify persons.
  assert.equal(persons.filter((p) => p.preferredName === 'Franz Eichinger').length, 2);
  assert.deepEqual(
    persons.map((p) => p.dateOfBirth ?? null),
    ['1941-10-04', null, '1920', '1958', null, '1964', '1982', null, '1970', '1946'],
  );
  const genders = persons.map((p) => p.gender?.join('|'));
  assert.deepEqual(genders, ['Unbekannt', 'Mann', 'Frau', 'Unbekannt', 'Unbekannt', 'Unbekannt', 'Mann', 'Unbekannt', 'Frau', 'Unbekannt']);
  assert.deepEqual(persons[5], {
    id: 'http://d-nb.info/gnd/1049617525',
    type: 'person',
    preferredName: 'Monika Eichinger',
    variantName: ['Eichinger, Monika'],
    dateOfBirth: '1964',
    placeOfBirth: ['Giarmata'],
    professionOrOccupation: ['Fachärztin', 'Radiologin'],
    gender: ['Unbekannt'],
  });
});

test('lobid-gnd Elasticsearch bulk file: 2 persons, 2 ConferenceOrEvent skipped, the @context line skipped', () => {
  const text = readText(PERSON_FILES.lobidBulk);
  assert.equal(detectPersonFormat(text), 'es-bulk');
  const results = readPersons(text);
  assert.deepEqual(tally(results), { person: 2, 'skipped:ConferenceOrEvent': 2, 'skipped:@context': 1 });
  // Positions are the record lines; the action lines (1, 3, 5, 7, 9) are not records.
  assert.deepEqual(
    results.map((r) => `${r.position} ${r.kind === 'skipped' ? r.entityType : r.kind}`),
    [
      'line 2 ConferenceOrEvent', // type [ConferenceOrEvent, AuthorityResource, SeriesOfConferenceOrEvent]
      'line 4 ConferenceOrEvent',
      'line 6 person',
      'line 8 person',
      'line 10 @context', // {"@context": "https://lobid.org/gnd/context.jsonld"} and nothing else
    ],
  );
  assert.deepEqual(personsOf(results), [
    {
      id: 'http://d-nb.info/gnd/1077774206',
      type: 'person',
      preferredName: 'Thomas Clasen',
      variantName: ['Clasen, Thomas'],
      gender: ['Mann'],
    },
    {
      id: 'http://d-nb.info/gnd/1072719991',
      type: 'person',
      preferredName: 'Liangshu Zhao',
      variantName: ['Zhao, Liangshu', 'Zhao Liang shu', '趙, 良𩆩', 'Zhao Liangshu'],
      gender: ['Unbekannt'],
    },
  ]);
});

test('lobid-gnd JSON lines (the search page members, one per line)', () => {
  const page = JSON.parse(readText(PERSON_FILES.lobidSearch)) as { member: unknown[] };
  const jsonl = page.member.map((m) => JSON.stringify(m)).join('\r\n');
  assert.equal(detectPersonFormat(jsonl), 'jsonl');
  const results = readPersons(jsonl);
  assert.deepEqual(
    results.map((r) => r.position),
    Array.from({ length: 10 }, (_, i) => `line ${i + 1}`),
  );
  assert.deepEqual(personsOf(results), personsOf(readPersons(readText(PERSON_FILES.lobidSearch))));
});

test('lobid-gnd: other GND types are skipped by their top-level class', () => {
  const lines = [
    { id: 'https://d-nb.info/gnd/2-1', type: ['AuthorityResource', 'CorporateBody', 'Company'], preferredName: 'A' },
    {
      id: 'https://d-nb.info/gnd/4-1',
      type: ['PlaceOrGeographicName', 'AuthorityResource', 'TerritorialCorporateBodyOrAdministrativeUnit'],
      preferredName: 'B',
    },
    { id: 'https://d-nb.info/gnd/4-2', type: ['AuthorityResource', 'SubjectHeading', 'SubjectHeadingSensoStricto'], preferredName: 'C' },
    { id: 'https://d-nb.info/gnd/4-3', type: ['Work', 'AuthorityResource'], preferredName: 'D' },
    { id: 'https://d-nb.info/gnd/4-4', type: ['Family', 'AuthorityResource'], preferredName: 'E' },
    { id: 'https://d-nb.info/gnd/4-5', type: ['AuthorityResource', 'Person'], preferredName: 'F' },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
  assert.deepEqual(tally(readPersons(lines)), {
    'skipped:CorporateBody': 1,
    'skipped:PlaceOrGeographicName': 1,
    'skipped:SubjectHeading': 1,
    'skipped:Work': 1,
    'skipped:Family': 1,
    person: 1,
  });
});

test('lobid-gnd: the first of several dates is taken, whitespace stripped', () => {
  const rec = {
    id: 'https://d-nb.info/gnd/9-9',
    type: ['Person'],
    preferredName: ' X ',
    dateOfBirth: ['  ', ' 1749 ', '28.08.1749'],
    dateOfDeath: [],
  };
  assert.deepEqual(personsOf(readPersons(JSON.stringify(rec))), [
    { id: 'http://d-nb.info/gnd/9-9', type: 'person', preferredName: 'X', variantName: [], dateOfBirth: '1749' },
  ]);
});
