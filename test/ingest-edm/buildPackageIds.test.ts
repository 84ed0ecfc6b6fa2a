// Item ids of packages built from EDM (spec 2.4 properties/item-id; docs/decisions.md "Item ids
// from EDM"), records that
// cannot make a package, and the small vocabularies the builder maps values through: DDB
// time codes and day numbers, language codes, media types, license labels.
//
// Known pairs were computed independently of our code, with python3:
//   base64.b32encode(hashlib.sha1(uri.encode()).digest())
// and, for day numbers, the Julian day number formulas (Gregorian from 1582-10-15, Julian
// before) minus JDN(0001-01-01 Julian) = 1721424, plus 1; for dates after 1582 that is
// Python's date.toordinal() + 2. The real package 4XUD... gives 680449 for 1864-01-01
// and 685562 for 1877-12-31, which the same formula reproduces.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseXml } from '../../src/formats/xmlTree.js';
import { buildPackage } from '../../src/ingest/edm/buildPackage.js';
import { base32, derivedItemId, edmItemId } from '../../src/ingest/edm/itemId.js';
import { languageCode } from '../../src/ingest/edm/languages.js';
import { licenseOf } from '../../src/ingest/edm/licenses.js';
import { extensionOfMimeType, extensionOfUrl, mediaTypeOfEdmType, mimeTypeOfExtension } from '../../src/domain/mediaTypes.js';
import { dayNumber, timeCodes, yearRange } from '../../src/ingest/edm/timeVocabulary.js';
import { RecordError } from '../../src/formats/recordError.js';

const RDF_NS =
  'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:owl="http://www.w3.org/2002/07/owl#"';

function record(about: string, inner = '') {
  const xml = `<rdf:RDF ${RDF_NS}><edm:ProvidedCHO rdf:about="${about}">${inner}</edm:ProvidedCHO></rdf:RDF>`;
  return { choUri: about, rdf: parseXml(xml), sourceXml: xml };
}

test('derived ids: base32 of SHA-1, known pairs computed with python3', () => {
  assert.equal(derivedItemId('http://example.org/cho/1'), 'DZDEQLRHSFSQPH3PWWYJ2IIHHHYLC47S');
  assert.equal(derivedItemId('#GNM:7116411'), 'IJWFAITCKVQTCZHGKBO7W3P4DXCHC6FM');
  assert.equal(derivedItemId('URN:NBN:SI:doc-35SZSOCF'), 'FLSV3NAC55EHTQYRV5CFCTD6DST2AMYU');
  assert.equal(derivedItemId(''), '3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ');
  // RFC 4648 section 10 test vectors (with the padding removed).
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ];
  for (const [input, output] of vectors) assert.equal(base32(Buffer.from(input)), output, input);
});

test('derived ids are deterministic, 32 characters of the base32 alphabet, and differ per URI', () => {
  const uris = ['http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662', '#ULEI:M0000001', 'urn:x:ü', 'a'.repeat(5000)];
  const ids = uris.map((u) => edmItemId(record(u)));
  for (const [i, id] of ids.entries()) {
    assert.match(id, /^[A-Z2-7]{32}$/);
    assert.equal(edmItemId(record(uris[i] as string)), id, 'the same URI gives the same id');
  }
  assert.equal(new Set(ids).size, uris.length);
});

test('a DDB item id stated by the record is kept: rdf:about, owl:sameAs, dc:identifier', () => {
  const ddb = 'http://www.deutsche-digitale-bibliothek.de/item/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR';
  assert.equal(edmItemId(record(ddb)), 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR');
  assert.equal(edmItemId(record('http://example.org/a', `<owl:sameAs rdf:resource="${ddb}"/>`)), 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR');
  assert.equal(edmItemId(record('http://example.org/a', `<dc:identifier>${ddb}</dc:identifier>`)), 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR');
  // Another site's item URI is not a DDB id.
  assert.equal(edmItemId(record('http://example.org/item/ABC')), derivedItemId('http://example.org/item/ABC'));
});

test('DDB time vocabulary codes of year ranges', () => {
  // 4XUD... (1864-1877) has exactly these three.
  assert.deepEqual(timeCodes({ from: 1864, to: 1877 }), ['time_61900', 'time_61947', 'time_61975']);
  assert.deepEqual(timeCodes({ from: 1826, to: 1826 }), ['time_61900', 'time_61925']); // 2nd quarter 19th c.
  assert.deepEqual(timeCodes({ from: 1543, to: 1543 }), ['time_61600', 'time_61605']); // 1st half 16th c.
  assert.deepEqual(timeCodes({ from: 1996, to: 2004 }), ['time_62000', 'time_62095', 'time_62100', 'time_62110']);
  assert.deepEqual(timeCodes({ from: 2023, to: 2023 }), ['time_62100']); // no decade code after 2020 in the vocabulary
  assert.deepEqual(timeCodes({ from: 850, to: 850 }), ['time_60900']); // 9th century, not divided
  assert.deepEqual(timeCodes({ from: 1700, to: 1701 }), ['time_61700', 'time_61745', 'time_61800', 'time_61807']);
});

test('years named by free-text dates', () => {
  const cases: Array<[string, [number, number] | undefined]> = [
    ['1880', [1880, 1880]],
    ['1862-1888', [1862, 1888]],
    ['ca. 1890/1930', [1890, 1930]],
    ['vor 1924', [1924, 1924]],
    ['um 1540', [1540, 1540]],
    ['1974-05-03', [1974, 1974]],
    ['18.05.1974', [1974, 1974]],
    ['18. Jahrhundert', [1701, 1800]],
    ['2. Hälfte 17. Jahrhundert', [1601, 1700]],
    ['17th century', [1601, 1700]],
    ['500 v. Chr.', undefined],
    ['undatiert', undefined],
  ];
  for (const [text, expected] of cases) {
    assert.deepEqual(yearRange(text), expected === undefined ? undefined : { from: expected[0], to: expected[1] }, text);
  }
});

test('day numbers of begin_time / end_time', () => {
  assert.equal(dayNumber(1864, 1, 1), 680449); // 4XUD... begin_time
  assert.equal(dayNumber(1877, 12, 31), 685562); // 4XUD... end_time
  assert.equal(dayNumber(1, 1, 1), 1);
  assert.equal(dayNumber(1500, 1, 1), 547510); // Julian calendar before 1582 (python3: JDN formula)
  assert.equal(dayNumber(1582, 10, 15), dayNumber(1582, 10, 4) + 1); // the Gregorian reform: no days in between
});

test('language codes: ISO 639-2/B from 639-1, 639-2/T, tags, names and code-list URIs', () => {
  const cases: Array<[string, string]> = [
    ['de', 'ger'],
    ['fra', 'fre'],
    ['deu', 'ger'],
    ['de-DE', 'ger'],
    ['sl', 'slv'],
    ['Deutsch', 'ger'],
    ['English', 'eng'],
    ['http://id.loc.gov/vocabulary/iso639-2/lat', 'lat'],
    ['http://lexvo.org/id/iso639-3/nld', 'dut'],
    ['mul', 'mul'],
    ['Klingonisch', 'klingonisch'],
  ];
  for (const [value, code] of cases) assert.equal(languageCode(value), code, value);
});

test('media types and file extensions', () => {
  assert.deepEqual(['TEXT', 'IMAGE', 'SOUND', 'VIDEO', '3D', 'other'].map(mediaTypeOfEdmType), [
    'mediatype_003',
    'mediatype_002',
    'mediatype_001',
    'mediatype_005',
    'mediatype_006',
    undefined,
  ]);
  assert.equal(extensionOfUrl('http://www.mimo-db.eu/media/ULEI/IMAGE/4793_01.jpg'), 'jpg');
  assert.equal(extensionOfUrl('http://hdl.handle.net/10796/79B8?locatt=view:level2'), '');
  assert.equal(extensionOfUrl('http://example.org/a.TIF?x=1'), 'tif');
  assert.equal(mimeTypeOfExtension('tif'), 'image/tiff');
  assert.equal(extensionOfMimeType('image/jpeg'), 'jpg');
  assert.equal(extensionOfMimeType('application/x-unknown'), 'bin');
});

test('license labels of known rights URIs; an unknown URI is shown as itself', () => {
  assert.deepEqual(licenseOf('http://creativecommons.org/publicdomain/mark/1.0/'), {
    resource: 'http://creativecommons.org/publicdomain/mark/1.0/',
    img: 'https://licensebuttons.net/p/mark/1.0/88x31.png',
    url: 'http://creativecommons.org/publicdomain/mark/1.0/deed.de',
    label: 'Weltweit frei von bekannten urheberrechtlichen Einschränkungen', // as in NF42...
  });
  assert.deepEqual(licenseOf('https://creativecommons.org/licenses/by/4.0/deed.en'), {
    resource: 'https://creativecommons.org/licenses/by/4.0/deed.en',
    img: 'https://licensebuttons.net/l/by/4.0/88x31.png',
    url: 'https://creativecommons.org/licenses/by/4.0/deed.de',
    label: 'Namensnennung',
  });
  assert.equal(
    licenseOf('http://creativecommons.org/licenses/by-nc-nd/3.0/de/').label,
    'Namensnennung – Nicht-kommerziell – Keine Bearbeitungen',
  );
  assert.equal(licenseOf('http://creativecommons.org/publicdomain/zero/1.0/').label, 'Keine Rechte vorbehalten – CC0 1.0 Universell');
  assert.deepEqual(licenseOf('http://rightsstatements.org/vocab/InC/1.0/'), {
    resource: 'http://rightsstatements.org/vocab/InC/1.0/',
    img: '',
    url: 'http://rightsstatements.org/vocab/InC/1.0/',
    label: 'Urheberrechtsschutz',
  });
  assert.equal(licenseOf('http://www.europeana.eu/rights/rr-f/').label, 'Rechte vorbehalten – Freier Zugang'); // HOPE records
  assert.deepEqual(licenseOf('urn:x-rights:"1"'), {
    resource: 'urn:x-rights:"1"',
    img: '',
    url: 'urn:x-rights:"1"',
    label: 'urn:x-rights:"1"',
  });
});

test('a record that cannot make a package is refused with RecordError', () => {
  const noCho = `<rdf:RDF ${RDF_NS}><edm:WebResource rdf:about="http://example.org/a.jpg"/></rdf:RDF>`;
  assert.throws(
    () => buildPackage({ choUri: 'http://example.org/x', rdf: parseXml(noCho), sourceXml: noCho }, { ingestDate: new Date(0) }),
    (e: unknown) => e instanceof RecordError && e.message === 'the record has no edm:ProvidedCHO',
  );
  const notRdf = '<record><title>x</title></record>';
  assert.throws(
    () => buildPackage({ choUri: 'x', rdf: parseXml(notRdf), sourceXml: notRdf }, { ingestDate: new Date(0) }),
    (e: unknown) => e instanceof RecordError && e.message === "the record's root is <record>, expected rdf:RDF",
  );
});
