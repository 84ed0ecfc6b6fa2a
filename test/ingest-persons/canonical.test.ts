// docs/decisions.md "GND ids": https://d-nb.info/gnd/X and http://d-nb.info/gnd/X
// are the same person; one form (http) is stored. Other URIs are kept as given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalGndUri, canonicalPersonId } from '../../src/domain/person.js';
import { readPersons } from '../../src/ingest/persons/readPersons.js';
import { personsOf } from './paths.js';

test('canonicalGndUri: http, https, trailing slash and /about give the http form', () => {
  const goethe = 'http://d-nb.info/gnd/118540238';
  for (const uri of [
    'http://d-nb.info/gnd/118540238',
    'https://d-nb.info/gnd/118540238',
    'https://d-nb.info/gnd/118540238/',
    'https://d-nb.info/gnd/118540238/about',
    'http://d-nb.info/gnd/118540238/about/',
    'https://d-nb.info/gnd/118540238/about/lds',
    '  https://d-nb.info/gnd/118540238  ',
    'HTTPS://D-NB.INFO/gnd/118540238',
  ]) {
    assert.equal(canonicalGndUri(uri), goethe, uri);
  }
});

test('canonicalGndUri: GND numbers with hyphen and check character X', () => {
  assert.equal(canonicalGndUri('https://d-nb.info/gnd/4018118-2'), 'http://d-nb.info/gnd/4018118-2');
  assert.equal(canonicalGndUri('https://d-nb.info/gnd/1-2'), 'http://d-nb.info/gnd/1-2');
  assert.equal(canonicalGndUri('https://d-nb.info/gnd/11861925x'), 'http://d-nb.info/gnd/11861925X');
});

test('canonicalGndUri: null for anything that is not a GND URI', () => {
  for (const uri of [
    'http://viaf.org/viaf/96994048',
    'https://lobid.org/gnd/118540238',
    'http://d-nb.info/standards/vocab/gnd/gender#male',
    'http://d-nb.info/gnd/',
    'http://d-nb.info/gnd/118540238/other',
    '118540238',
    '',
  ]) {
    assert.equal(canonicalGndUri(uri), null, uri);
  }
});

test('canonicalPersonId: GND canonicalised, other URIs kept as they are, non-URIs refused', () => {
  assert.equal(canonicalPersonId('https://d-nb.info/gnd/118540238'), 'http://d-nb.info/gnd/118540238');
  assert.equal(canonicalPersonId('http://viaf.org/viaf/96994048'), 'http://viaf.org/viaf/96994048');
  assert.equal(canonicalPersonId('https://www.wikidata.org/entity/Q5879'), 'https://www.wikidata.org/entity/Q5879');
  assert.equal(canonicalPersonId('118540238'), null);
  assert.equal(canonicalPersonId('Goethe'), null);
});

test('readPersons stores the https and http form of one GND person under the same id', () => {
  const lines = [
    '{"id":"https://d-nb.info/gnd/118540238","type":["Person"],"preferredName":"Goethe, Johann Wolfgang von"}',
    '{"@id":"http://d-nb.info/gnd/118540238/about","person":{"preferredName":"Johann Wolfgang von Goethe"}}',
    '{"id":"https://d-nb.info/gnd/118540238/","type":"person","preferredName":"Goethe"}',
  ].join('\n');
  const ids = personsOf(readPersons(lines)).map((p) => p.id);
  assert.deepEqual(ids, ['http://d-nb.info/gnd/118540238', 'http://d-nb.info/gnd/118540238', 'http://d-nb.info/gnd/118540238']);
});

test('a non-GND URI id is accepted as it is; a non-URI id is an error that says what was expected', () => {
  const viaf = readPersons('{"id":"http://viaf.org/viaf/96994048","type":"person","preferredName":"Johann Wolfgang von Goethe"}');
  assert.deepEqual(viaf, [
    {
      kind: 'person',
      position: 'record 1',
      person: { id: 'http://viaf.org/viaf/96994048', type: 'person', preferredName: 'Johann Wolfgang von Goethe', variantName: [] },
    },
  ]);
  const bare = readPersons('{"id":"118540238","type":"person","preferredName":"Goethe"}');
  assert.equal(bare.length, 1);
  assert.equal(bare[0]?.kind, 'error');
  assert.match(
    bare[0]?.kind === 'error' ? bare[0].reason : '',
    /"id" "118540238" is not a URI \(expected a URI such as "http:\/\/d-nb\.info\/gnd\/118540238"\)/,
  );
});
