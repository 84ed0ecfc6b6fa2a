// The package built from real MIMO records (fixtures/items/edm/mimo/, already in the DDB
// form: properties on edm:ProvidedCHO): view, facets and binaries checked value by value
// against the source files. Every expected value below
// was read off the record by hand; the comment next to it says where. Day numbers and
// item ids were computed independently with python3 (see buildPackageIds.test.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { buildPackage } from '../../src/ingest/edm/buildPackage.js';
import type { EdmRecord } from '../../src/ingest/edm/types.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import { FIXTURES } from '../helpers/paths.js';

type Obj = Record<string, unknown>;
const MIMO = `${FIXTURES}items/edm/mimo/`;
const INGEST = new Date('2024-05-06T07:08:09Z');

function recordFromFile(path: string): EdmRecord {
  const text = readFileSync(path, 'utf8');
  const rdf = parseXml(text);
  const cho = rdf.children.find((c): c is XmlElement => typeof c !== 'string' && c.local === 'ProvidedCHO');
  const about = cho?.attributes.find((a) => a.local === 'about')?.value;
  assert.ok(about, `${path} has a CHO with rdf:about`);
  return { choUri: about, rdf, sourceXml: text };
}

function build(file: string): { itemId: string; xml: string; pkg: Obj } {
  const { itemId, xml } = buildPackage(recordFromFile(MIMO + file), { ingestDate: INGEST });
  return { itemId, xml, pkg: cortexToJson(parseXml(xml)) };
}

/** The facets as name -> values (always an array), in package order. */
function facets(pkg: Obj): Record<string, string[]> {
  const profile = pkg['indexing-profile'] as Obj;
  const list = profile.facet as Obj[];
  return Object.fromEntries(list.map((f) => [f['@name'] as string, Array.isArray(f.value) ? (f.value as string[]) : [f.value as string]]));
}

const LICENSE_BY_NC_SA_3 = {
  // edm:rights of the web resource and of the ore:Aggregation in all three records.
  '@resource': 'http://creativecommons.org/licenses/by-nc-sa/3.0/',
  '@img': 'https://licensebuttons.net/l/by-nc-sa/3.0/88x31.png',
  '@url': 'http://creativecommons.org/licenses/by-nc-sa/3.0/deed.de',
  $: 'Namensnennung – Nicht-kommerziell – Weitergabe unter gleichen Bedingungen',
};

test('MIMO record0 (GNM, Langtrompete): properties, preview, view with its fields', () => {
  const { itemId, pkg } = build('09102_Ag_EU_MIMO_EDM_record0.xml');
  // No DDB id in the record: base32(sha1("#GNM:7116411")), the CHO's rdf:about (python3).
  assert.equal(itemId, 'IJWFAITCKVQTCZHGKBO7W3P4DXCHC6FM');
  assert.deepEqual(Object.keys(pkg), [
    'properties',
    'edm',
    'indexing-profile',
    'preview',
    'view',
    'metadata-record',
    'provider-info',
    'binaries',
  ]);
  assert.deepEqual(pkg.properties, {
    'item-id': itemId,
    'ingest-id': '20240506', // the ingest day, no ingestId given
    'ingest-date': '24-05-06 07:08:09', // spec 2.4 form, UTC
    'cortex-type': 'Kultur',
  });
  const title = 'Langtrompete (Kopie)'; // dc:title
  const description1 = 'Kopie nach einer Langtrompete von Wolff Birckholtz, Nürnberg 1650. Leihgabe Michael Münkwitz, Rostock.';
  const description2 = 'ohne Mundstück';
  assert.deepEqual(pkg.preview, {
    '@type': 'Kultur',
    '@media': 'image', // edm:type IMAGE
    title,
    subtitle: 'Natural trumpet', // first dc:type -> skos:Concept InstrumentsKeywords/4419 prefLabel
    thumbnail: { '@href': `/binary/${itemId}/list/1.jpg` }, // isShownBy ends in .jpg
  });
  assert.deepEqual((pkg.view as Obj).item, {
    identifier: '#GNM:7116411', // dc:identifier
    label: title,
    title,
    subtitle: 'Natural trumpet',
    rights: '', // no dc:rights on the CHO or its web resource
    'metadata-rights': '', // no dcterms:rights on the Aggregation
    origin: 'http://www.mimo-db.eu/GNM/7116411', // edm:isShownAt
    category: 'Kultur',
    media: 'image',
    thumbnail: '',
    latitude: '', // the Place Rostock has no wgs84 coordinates
    longitude: '',
    viewers: null,
    license: LICENSE_BY_NC_SA_3,
    institution: { url: '', id: '', name: 'Germanisches Nationalmuseum', logo: '' }, // edm:dataProvider, no providers file
    fields: [
      {
        '@usage': 'display',
        field: [
          {
            '@id': 'dc_type',
            name: 'Objekttyp',
            value: { '@resource': 'http://www.mimo-db.eu/InstrumentsKeywords/4419', $: 'Natural trumpet' },
          },
          {
            '@id': 'dc_type',
            name: 'Objekttyp',
            value: { '@resource': 'http://www.mimo-db.eu/HornbostelAndSachs/334', $: '423.1 Natural labrosones' },
          },
          { '@id': 'dc_description', name: 'Beschreibung', value: description1 },
          { '@id': 'dc_description', name: 'Beschreibung', value: description2 },
          { '@id': 'dc_creator', name: 'Urheber', value: 'Michael Münkwitz' },
          { '@id': 'dc_date', name: 'Datierung', value: '2009' },
          // dc:coverage -> edm:Place geonames 2844588, prefLabel "Rostock"
          {
            '@id': 'dc_coverage',
            name: 'Räumlicher oder zeitlicher Bezug',
            value: { '@resource': 'http://sws.geonames.org/2844588/', $: 'Rostock' },
          },
          { '@id': 'dc_identifier', name: 'Identifikator', value: '#GNM:7116411' },
        ],
      },
      {
        '@usage': 'index',
        field: [
          { '@resource': 'http://purl.org/dc/elements/1.1/title', '@id': 'title', name: 'Title', value: title },
          {
            '@resource': 'http://purl.org/dc/elements/1.1/description',
            '@id': 'description',
            name: 'Beschreibung',
            value: [description1, description2],
          },
          { '@id': 'begin_time', name: 'Anfang', value: '733410' }, // dc:date 2009 -> 2009-01-01
          { '@id': 'end_time', name: 'Ende', value: '733774' }, // 2009-12-31
          { '@id': 'license', name: 'Lizenz', value: 'http://creativecommons.org/licenses/by-nc-sa/3.0/' },
          { '@id': 'grid_preview', name: 'grid_preview', value: 'true' },
          { '@id': 'digitalisat', name: 'digitalisat', value: 'true' },
        ],
      },
    ],
  });
  // metadata-record: the source file as text, without its XML declaration.
  const source = readFileSync(`${MIMO}09102_Ag_EU_MIMO_EDM_record0.xml`, 'utf8');
  assert.equal(pkg['metadata-record'], source.replace(/^<\?xml[^?]*\?>\s*/, ''));
});

test('MIMO record0: facets and binaries', () => {
  const { itemId, pkg } = build('09102_Ag_EU_MIMO_EDM_record0.xml');
  assert.deepEqual(facets(pkg), {
    time_fct: ['time_62100', 'time_62110'], // dc:date 2009: 21st century, decade 2001-2010
    place_fct_normdata: ['http://sws.geonames.org/2844588/'], // edm:Place rdf:about
    place_fct: ['Rostock'], // its skos:prefLabel
    affiliate_fct: ['Michael Münkwitz'], // literal dc:creator: a name, no normdata
    affiliate_fct_role: ['Michael Münkwitz', 'Michael Münkwitz_1_affiliate_fct_involved'],
    keywords_fct: ['Natural trumpet', '423.1 Natural labrosones'], // the two dc:type concepts
    keywords_fct_normdata: ['http://www.mimo-db.eu/InstrumentsKeywords/4419', 'http://www.mimo-db.eu/HornbostelAndSachs/334'],
    type_fct: ['mediatype_002'], // edm:type IMAGE
    sector_fct: ['sec_06'], // the data provider's name says museum
    provider_fct: ['Germanisches Nationalmuseum', 'MIMO - Musical Instrument Museums Online'], // dataProvider, provider
    last_update: ['24-05-06 07:08:09'],
  });
  // isShownBy = object = the only hasView: one binary.
  assert.deepEqual(pkg.binaries, {
    binary: {
      '@category': 'list',
      '@primary': 'true',
      '@position': '1',
      '@path': `/binary/${itemId}/list/1.jpg`,
      '@mimetype': 'image/jpeg',
      '@name': 'Langtrompete (Kopie)',
    },
  });
});

test('MIMO record76 (GNM, Querflöte, six views): facets, binaries in isShownBy-then-hasView order', () => {
  const { itemId, pkg } = build('09102_Ag_EU_MIMO_EDM_record76.xml');
  assert.equal(itemId, 'QOYTRJ4576TP7OAF2AXW2ORLMBTWZDGL'); // base32(sha1("#GNM:7285206"))
  assert.deepEqual(facets(pkg), {
    time_fct: ['time_62000', 'time_62030'], // dc:date "vor 1924": the year 1924, 20th century, 1921-1930
    place_fct: ['Nürnber / Deutschland'], // the Place has no rdf:about and only a skos:altLabel (sic)
    // dc:creator -> edm:Agent Person/1901 "Robert Leibl", and the literal dc:creator "Leibl"
    affiliate_fct_normdata: ['http://www.mimo-db.eu/InstrumentMaker/Person/1901'],
    affiliate_fct_role_normdata: [
      'http://www.mimo-db.eu/InstrumentMaker/Person/1901',
      'http://www.mimo-db.eu/InstrumentMaker/Person/1901_1_affiliate_fct_involved',
    ],
    affiliate_fct: ['Robert Leibl', 'Leibl'],
    affiliate_fct_role: ['Robert Leibl', 'Leibl', 'Robert Leibl_1_affiliate_fct_involved', 'Leibl_1_affiliate_fct_involved'],
    keywords_fct: ['Piccolo flute', '421.121.12 Open side-blown flutes with fingerholes'],
    keywords_fct_normdata: ['http://www.mimo-db.eu/InstrumentsKeywords/4029', 'http://www.mimo-db.eu/HornbostelAndSachs/268'],
    type_fct: ['mediatype_002'],
    sector_fct: ['sec_06'],
    provider_fct: ['Germanisches Nationalmuseum', 'MIMO - Musical Instrument Museums Online'],
    last_update: ['24-05-06 07:08:09'],
  });
  // isShownBy (= edm:object) is the 4th hasView; it comes first, then the other views in order.
  const views = ['1298040681802', '1276844842694', '1298987832188', '1297778903744', '1298040695911', '1298040793802'];
  const binaries = (pkg.binaries as Obj).binary as Obj[];
  assert.deepEqual(
    binaries,
    views.map((_, i) => ({
      '@category': 'list',
      '@primary': String(i === 0),
      '@position': String(i + 1),
      '@path': `/binary/${itemId}/list/${i + 1}.jpg`,
      '@mimetype': 'image/jpeg',
      '@name': 'Querflöte (Pikkolo), System Boehm',
    })),
  );
  // The source order is kept in the edm part, where each binary's URL is.
  const aggregation = ((pkg.edm as Obj).RDF as Obj).Aggregation as Obj;
  assert.equal((aggregation.isShownBy as Obj)['@resource'], `http://www.mimo-db.eu/media/GNM/IMAGE/MI957_${views[0]}_2.jpg`);
  const item = (pkg.view as Obj).item as Obj;
  assert.equal(item.subtitle, 'Piccolo flute'); // first dc:type concept
  const index = ((item.fields as Obj[])[1] as Obj).field as Obj[];
  assert.deepEqual(
    index.filter((f) => String(f['@id']).endsWith('_time')).map((f) => f.value),
    ['702363', '702728'],
  ); // 1924-01-01, 1924-12-31
});

test("MIMO record142 (Leipzig, Violine): view, facets, binaries with the web resources' rights", () => {
  const { itemId, xml, pkg } = build('09102_Ag_EU_MIMO_EDM_record142.xml');
  assert.equal(itemId, 'PWWCJWKUR627VZVB2CIHAOKSGVTLPWQT'); // base32(sha1("#ULEI:M0004387"))
  const description =
    'Dieses Instrument war früher doppelt inventarisiert, nämlich zusätzlich auf Nr. 4828.vermutlich originaler Hals, ' +
    'leicht abgewinkelt; Wirbelkasten original zum Hals gehörig, Mensur Decke 195,5; Mensur Hals 131.Veit Heller, MfM Leipzig';
  const rights = '© Museum für Musikinstrumente der Universität Leipzig'; // dc:rights of each edm:WebResource
  assert.deepEqual((pkg.view as Obj).item, {
    identifier: '#ULEI:M0004387',
    label: 'Violine',
    title: 'Violine',
    subtitle: 'Violin', // dc:type -> InstrumentsKeywords/3573
    rights, // the CHO has no dc:rights: the primary web resource's
    'metadata-rights': '',
    origin: 'http://www.mimo-db.eu/ULEI/M0004387',
    category: 'Kultur',
    media: 'image',
    thumbnail: '',
    latitude: '',
    longitude: '',
    viewers: null,
    license: LICENSE_BY_NC_SA_3,
    institution: { url: '', id: '', name: 'Museum für Musikinstrumente der Universität Leipzig', logo: '' },
    fields: [
      {
        '@usage': 'display',
        field: [
          { '@id': 'dc_type', name: 'Objekttyp', value: { '@resource': 'http://www.mimo-db.eu/InstrumentsKeywords/3573', $: 'Violin' } },
          {
            '@id': 'dc_type',
            name: 'Objekttyp',
            value: {
              '@resource': 'http://www.mimo-db.eu/HornbostelAndSachs/6472',
              $: '321.322-7 Necked box lutes or necked guitars sounded by bowing',
            },
          },
          { '@id': 'dc_description', name: 'Beschreibung', value: description },
          {
            '@id': 'dc_creator',
            name: 'Urheber',
            value: { '@resource': 'http://www.mimo-db.eu/InstrumentMaker/Person/1962', $: 'Carl Friedrich Lippold' },
          },
          { '@id': 'dc_creator', name: 'Urheber', value: 'Lippold' },
          { '@id': 'dc_date', name: 'Datierung', value: '1880' },
          {
            '@id': 'dc_coverage',
            name: 'Räumlicher oder zeitlicher Bezug',
            value: { '@resource': 'http://sws.geonames.org/2873340/', $: 'Markneukirchen' },
          },
          { '@id': 'dc_identifier', name: 'Identifikator', value: '#ULEI:M0004387' },
        ],
      },
      {
        '@usage': 'index',
        field: [
          { '@resource': 'http://purl.org/dc/elements/1.1/title', '@id': 'title', name: 'Title', value: 'Violine' },
          { '@resource': 'http://purl.org/dc/elements/1.1/description', '@id': 'description', name: 'Beschreibung', value: description },
          { '@id': 'begin_time', name: 'Anfang', value: '686293' }, // 1880-01-01
          { '@id': 'end_time', name: 'Ende', value: '686658' }, // 1880-12-31
          { '@id': 'license', name: 'Lizenz', value: 'http://creativecommons.org/licenses/by-nc-sa/3.0/' },
          { '@id': 'grid_preview', name: 'grid_preview', value: 'true' },
          { '@id': 'digitalisat', name: 'digitalisat', value: 'true' },
        ],
      },
    ],
  });
  assert.deepEqual(facets(pkg), {
    time_fct: ['time_61900', 'time_61975'], // 1880: 19th century, 4th quarter 1876-1900
    place_fct_normdata: ['http://sws.geonames.org/2873340/'],
    place_fct: ['Markneukirchen'], // prefLabel xml:lang="de" (the altLabel is not used)
    affiliate_fct_normdata: ['http://www.mimo-db.eu/InstrumentMaker/Person/1962'],
    affiliate_fct_role_normdata: [
      'http://www.mimo-db.eu/InstrumentMaker/Person/1962',
      'http://www.mimo-db.eu/InstrumentMaker/Person/1962_1_affiliate_fct_involved',
    ],
    affiliate_fct: ['Carl Friedrich Lippold', 'Lippold'],
    affiliate_fct_role: [
      'Carl Friedrich Lippold',
      'Lippold',
      'Carl Friedrich Lippold_1_affiliate_fct_involved',
      'Lippold_1_affiliate_fct_involved',
    ],
    keywords_fct: ['Violin', '321.322-7 Necked box lutes or necked guitars sounded by bowing'],
    keywords_fct_normdata: ['http://www.mimo-db.eu/InstrumentsKeywords/3573', 'http://www.mimo-db.eu/HornbostelAndSachs/6472'],
    type_fct: ['mediatype_002'],
    sector_fct: ['sec_06'],
    provider_fct: ['Museum für Musikinstrumente der Universität Leipzig', 'MIMO - Musical Instrument Museums Online'],
    last_update: ['24-05-06 07:08:09'],
  });
  // isShownBy 4793.jpg, then hasView 4793_01.jpg and 4793_02.jpg; each web resource's dc:rights is name3.
  assert.deepEqual(
    (pkg.binaries as Obj).binary,
    [1, 2, 3].map((n) => ({
      '@category': 'list',
      '@primary': String(n === 1),
      '@position': String(n),
      '@path': `/binary/${itemId}/list/${n}.jpg`,
      '@mimetype': 'image/jpeg',
      '@name3': rights,
      '@name': 'Violine',
    })),
  );
  // provider-info from the record alone: the name and the domain its name says; every other value is an empty string (spec 2.4).
  assert.deepEqual(pkg['provider-info'], {
    'provider-domains': { 'provider-domain': ['Museum', '', ''] },
    'provider-name': 'Museum für Musikinstrumente der Universität Leipzig',
    'provider-parent-id': '',
    'provider-uri': '',
    'provider-email': '',
    'provider-collection': '',
    'provider-item-id': '#ULEI:M0004387',
    'provider-item-id-type': '',
    'provider-id': '',
    'provider-ddb-id': '',
    'provider-logo': '',
    'provider-longitude': '',
    'provider-latitude': '',
    'provider-state': '',
  });
  // The loader takes the package unchanged.
  const [read] = readItemRecords(xml);
  assert.equal(read?.kind, 'item');
  if (read?.kind !== 'item') return;
  assert.deepEqual(
    {
      id: read.item.id,
      label: read.item.label,
      choUri: read.item.choUri,
      parentRef: read.item.parentRef,
      hierarchyType: read.item.hierarchyType,
      position: read.item.position,
    },
    { id: itemId, label: 'Violine', choUri: '#ULEI:M0004387', parentRef: null, hierarchyType: null, position: null },
  );
});

test("the edm part is the record's rdf:RDF, element for element", () => {
  const file = `${MIMO}09102_Ag_EU_MIMO_EDM_record142.xml`;
  const { pkg } = build('09102_Ag_EU_MIMO_EDM_record142.xml');
  assert.deepEqual((pkg.edm as Obj).RDF, cortexToJson(parseXml(readFileSync(file, 'utf8'))));
});
