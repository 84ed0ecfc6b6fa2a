// The providers file (docs/edm-mapping.md, "The providers file"): a good file completes
// provider-info, the institution, sector_fct and provider_fct_normdata of built packages;
// a bad one is refused with every problem named by entry and field.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { buildPackage } from '../../src/ingest/edm/buildPackage.js';
import { readProvidersFile, type ProviderDirectory } from '../../src/ingest/edm/providers.js';
import type { EdmRecord } from '../../src/ingest/edm/types.js';
import { FIXTURES } from '../helpers/paths.js';

type Obj = Record<string, unknown>;
const EXAMPLE = readFileSync(`${FIXTURES}providers.example.json`, 'utf8');
const INGEST = new Date('2024-05-06T07:08:09Z');

function recordFromText(text: string): EdmRecord {
  const rdf = parseXml(text);
  const cho = rdf.children.find((c): c is XmlElement => typeof c !== 'string' && c.local === 'ProvidedCHO');
  return { choUri: cho?.attributes.find((a) => a.local === 'about')?.value ?? '', rdf, sourceXml: text };
}

function build(record: EdmRecord, providers: ProviderDirectory): Obj {
  return cortexToJson(parseXml(buildPackage(record, { ingestDate: INGEST, providers }).xml));
}

const facet = (pkg: Obj, name: string): unknown =>
  ((pkg['indexing-profile'] as Obj).facet as Obj[]).find((f) => f['@name'] === name)?.value;

/** A minimal record in the DDB form whose data provider is named as in the HOPE records. */
const HOPE_LIKE = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:ore="http://www.openarchives.org/ore/terms/">
  <edm:ProvidedCHO rdf:about="http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662">
    <dc:title>Combat (1974)13</dc:title><dc:language>fra</dc:language><edm:type>TEXT</edm:type>
  </edm:ProvidedCHO>
  <ore:Aggregation rdf:about="10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662">
    <edm:aggregatedCHO rdf:resource="http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662"/>
    <edm:dataProvider>Amsab-Institute of Social History</edm:dataProvider>
    <edm:provider>HOPE - Heritage of the People's Europe</edm:provider>
  </ore:Aggregation>
</rdf:RDF>`;

test('the example providers file: entries found by name, alias and URI', () => {
  const providers = readProvidersFile(EXAMPLE);
  assert.deepEqual(
    providers.entries.map((e) => e.name),
    ['Germanisches Nationalmuseum', 'Museum für Musikinstrumente der Universität Leipzig', 'Amsab-ISG'],
  );
  assert.equal(providers.find({ name: '  germanisches   NATIONALMUSEUM ' })?.uri, 'https://www.gnm.de/');
  assert.equal(providers.find({ name: 'Amsab-Institute of Social History' })?.name, 'Amsab-ISG'); // an alias
  assert.equal(providers.find({ uri: 'http://WWW.amsab.be' })?.name, 'Amsab-ISG'); // http/https, case, trailing slash
  assert.equal(providers.find({ name: 'Unknown museum' }), undefined);
  // Domains give the sector when none is stated.
  assert.deepEqual(
    providers.entries.map((e) => [e.domains, e.sector]),
    [
      [['Museum'], 'sec_06'],
      [['Museum'], 'sec_06'],
      [['Archiv', 'Bibliothek', 'Museum'], 'sec_01'],
    ],
  );
});

test('the example file completes a MIMO package: provider-info, institution, sector', () => {
  const record = recordFromText(readFileSync(`${FIXTURES}items/edm/mimo/09102_Ag_EU_MIMO_EDM_record142.xml`, 'utf8'));
  const pkg = build(record, readProvidersFile(EXAMPLE));
  assert.deepEqual(pkg['provider-info'], {
    'provider-domains': { 'provider-domain': ['Museum', '', ''] },
    'provider-name': 'Museum für Musikinstrumente der Universität Leipzig',
    'provider-parent-id': '',
    'provider-uri': 'https://mfm.uni-leipzig.de/',
    'provider-email': '',
    'provider-collection': '',
    'provider-item-id': '#ULEI:M0004387',
    'provider-item-id-type': '',
    'provider-id': '',
    'provider-ddb-id': '',
    'provider-logo': '',
    'provider-longitude': '',
    'provider-latitude': '',
    'provider-state': 'Sachsen',
  });
  assert.deepEqual(((pkg.view as Obj).item as Obj).institution, {
    url: 'https://mfm.uni-leipzig.de/',
    id: '',
    name: 'Museum für Musikinstrumente der Universität Leipzig',
    logo: '',
  });
  assert.equal(facet(pkg, 'sector_fct'), 'sec_06');
  assert.equal(facet(pkg, 'provider_fct_normdata'), undefined); // no provider-ddb-id in the example
});

test('a provider named by an alias; its name, ids, parent, logo and coordinates from the file', () => {
  const providers = readProvidersFile(
    JSON.stringify({
      providers: [
        {
          name: 'Amsab-ISG',
          aliases: ['Amsab-Institute of Social History'],
          uri: 'https://www.amsab.be/',
          domains: ['Archiv'],
          ids: { 'provider-id': '00000001', 'provider-ddb-id': 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'provider-parent-id': '00000002' },
          logo: 'https://example.org/logo.png',
          latitude: 51.05,
          longitude: '3.72',
          email: 'info@example.org',
        },
        {
          name: 'Parent body',
          ids: { 'provider-id': '00000002', 'provider-ddb-id': 'BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
          sector: 'Forschung',
        },
      ],
    }),
  );
  const pkg = build(recordFromText(HOPE_LIKE), providers);
  assert.deepEqual(pkg['provider-info'], {
    'provider-domains': { 'provider-domain': ['Archiv', '', ''] },
    'provider-name': 'Amsab-ISG',
    'provider-parent-id': '00000002',
    'provider-uri': 'https://www.amsab.be/',
    'provider-email': 'info@example.org',
    'provider-collection': '',
    'provider-item-id': 'http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662', // no dc:identifier: the CHO URI
    'provider-item-id-type': '',
    'provider-id': '00000001',
    'provider-ddb-id': 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'provider-logo': 'https://example.org/logo.png',
    'provider-longitude': '3.72',
    'provider-latitude': '51.05',
    'provider-state': '',
    'provider-parents': {
      'provider-info': {
        'provider-domains': { 'provider-domain': ['Forschung', '', ''] }, // from the sector
        'provider-name': 'Parent body',
        'provider-parent-id': '',
        'provider-uri': '',
        'provider-email': '',
        'provider-collection': '',
        'provider-item-id-type': '',
        'provider-id': '00000002',
        'provider-ddb-id': 'BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
        'provider-logo': '',
        'provider-longitude': '',
        'provider-latitude': '',
        aggregator: 'false',
      },
    },
  });
  assert.deepEqual(((pkg.view as Obj).item as Obj).institution, {
    url: 'https://www.amsab.be/',
    id: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    name: 'Amsab-ISG',
    logo: 'https://example.org/logo.png',
  });
  assert.equal(facet(pkg, 'sector_fct'), 'sec_01');
  assert.equal(
    facet(pkg, 'provider_fct_normdata'),
    'http://www.deutsche-digitale-bibliothek.de/organization/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  );
  // The record's own names stay in provider_fct; dc:language fra is the ISO 639-2/B code fre.
  assert.deepEqual(facet(pkg, 'provider_fct'), ['Amsab-Institute of Social History', "HOPE - Heritage of the People's Europe"]);
  assert.equal(facet(pkg, 'language_fct'), 'fre');
});

test('bad entries: every problem named by entry and field, with what to do', () => {
  const bad = JSON.stringify({
    providers: [
      { name: 'Good', uri: 'https://good.example/' },
      { name: 'Typo', lattitude: 1 },
      { name: 'Coordinates', latitude: 'north', longitude: 181 },
      { name: 'Ids', ids: { 'provider-id': 12, 'ddb-id': 'X' } },
      { name: 'Kinds', domains: ['Musem'], sector: 'sec_99', email: 'nobody', uri: 'www.example.org' },
      { aliases: ['no name'] },
      'just a string',
      { name: 'good', uri: 'https://other.example/' },
    ],
  });
  assert.throws(() => readProvidersFile(bad), {
    message: [
      'entry 2 ("Typo"): "lattitude" is not a known field; use one of name, aliases, uri, ids, logo, latitude, longitude, domains, sector, state, email, comment',
      'entry 3 ("Coordinates"): "latitude" must be a decimal number between -90 and 90 (WGS84 degrees, e.g. 49.4478), got "north"',
      'entry 3 ("Coordinates"): "longitude" must be a decimal number between -180 and 180 (WGS84 degrees, e.g. 49.4478), got 181',
      'entry 4 ("Ids"): "ids.provider-id" must be a non-empty string (write ids in quotes, so leading zeros stay), got 12',
      'entry 4 ("Ids"): "ids.ddb-id" is not a known id; use provider-id, provider-ddb-id, provider-parent-id',
      'entry 5 ("Kinds"): "uri" must be an absolute http(s) URI without spaces, got "www.example.org"',
      'entry 5 ("Kinds"): "email" must be an e-mail address such as info@example.org, got "nobody"',
      'entry 5 ("Kinds"): "domains" has the unknown domain "Musem"; use Archiv, Bibliothek, Denkmalpflege, Forschung, Mediathek, Museum, Sonstige',
      'entry 5 ("Kinds"): "sector" must be a sector code sec_01 .. sec_07 or a domain name (Archiv, Bibliothek, Denkmalpflege, Forschung, Mediathek, Museum, Sonstige), got "sec_99"',
      'entry 6: "name" is missing: give the provider\'s "name" (as records write it) and/or its "uri"',
      'entry 7 must be an object such as {"name": "...", "uri": "https://..."}, got "just a string"',
      'entry 8 ("good"): name "good" is also given by entry 1; give both entries an "ids": {"provider-id": ...} if they are different institutions, else merge them',
    ].join('; '),
  });
});

test('bad files: not JSON, wrong shape, unknown top-level key', () => {
  assert.throws(
    () => readProvidersFile('{"providers": ['),
    /^Error: not valid JSON \(.+\); the file must be \{"providers": \[ \{\.\.\.\}, \.\.\. \]\}$/,
  );
  assert.throws(() => readProvidersFile('{"provider": []}'), {
    message: 'expected {"providers": [ {...}, ... ]} (or a JSON array of provider entries)',
  });
  assert.throws(() => readProvidersFile('{"providers": [], "extra": 1}'), {
    message: 'unknown top-level key "extra"; only "providers" (and "comment") are allowed',
  });
  assert.equal(readProvidersFile('[]').entries.length, 0); // a bare array is accepted too
});
