// Tests of src/formats/cortexToJson.ts on the real cortex files and on the mapping rules.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parseXml } from '../../src/formats/xmlTree.js';
import { CORTEX_XML_IDS, readFixture } from './fixtures.js';

type Obj = Record<string, unknown>;

function obj(v: unknown, what: string): Obj {
  assert.ok(v !== null && typeof v === 'object' && !Array.isArray(v), `${what} is an object`);
  return v as Obj;
}

for (const id of CORTEX_XML_IDS) {
  test(`real cortex file ${id}: parts, ids, license, binaries, record`, () => {
    const pkg = cortexToJson(parseXml(readFixture(`${id}.xml`)));
    const parts = [
      'properties',
      'edm',
      'indexing-profile',
      'preview',
      'view',
      'metadata-record',
      'provider-info',
      'aggregator-info',
      'binaries',
    ];
    assert.deepEqual(
      Object.keys(pkg),
      parts.filter((p) => p !== 'aggregator-info' || id.startsWith('NF42')),
    );

    assert.equal(obj(pkg.properties, 'properties')['item-id'], id);
    const rdf = obj(obj(pkg.edm, 'edm').RDF, 'edm.RDF');
    assert.equal(obj(rdf.ProvidedCHO, 'ProvidedCHO')['@about'], `http://www.deutsche-digitale-bibliothek.de/item/${id}`);

    const item = obj(obj(pkg.view, 'view').item, 'view.item');
    const license = obj(item.license, 'license');
    assert.deepEqual(Object.keys(license), ['@resource', '@img', '@url', '$']);
    assert.ok(typeof license.$ === 'string' && license.$.length > 0);

    const binaries = obj(pkg.binaries, 'binaries').binary;
    assert.ok(Array.isArray(binaries) && binaries.length >= 4);
    for (const b of binaries) {
      assert.match(String(obj(b, 'binary')['@path']), new RegExp(`^/binary/${id}/(full|list|grid|mvth|mvpr)/\\d+\\.[a-z]+$`));
    }

    const record = pkg['metadata-record'];
    assert.equal(typeof record, 'string');
    assert.ok(!String(record).includes('&lt;'), 'entities are decoded');
    if (id.startsWith('NF42')) {
      assert.ok(String(record).startsWith('<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"'));
      // Leading zeros stay: strings are never parsed as numbers.
      assert.equal(obj(pkg['provider-info'], 'provider-info')['provider-parent-id'], '00006818');
    } else {
      assert.ok(String(record).startsWith('<lido:lidoWrap'));
      assert.equal(item.viewers, '', 'an empty element is ""');
    }
  });
}

test('4XUD: repeated classes are merged in document order, whitespace text is dropped', () => {
  const pkg = cortexToJson(parseXml(readFixture('4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml')));
  const rdf = obj(obj(pkg.edm, 'edm').RDF, 'RDF');
  assert.deepEqual(Object.keys(rdf), ['Aggregation', 'WebResource', 'Concept', 'Agent', 'ProvidedCHO', 'Event', 'Place', 'TimeSpan']);
  const concepts = rdf.Concept as Obj[];
  assert.deepEqual(
    concepts.map((c) => c['@about']),
    [
      'http://ddb.vocnet.org/medientyp/mt002',
      'http://ddb.vocnet.org/sparte/sparte006',
      'CUHGJVDB3EL3R67Z43O2OYJMOOERZELQ',
      '773AJ3QDG7HCRSPPQSKXBB7NJUVECXLU',
      'http://d-nb.info/gnd/4113357-2',
    ],
  );
  const cho = obj(rdf.ProvidedCHO, 'ProvidedCHO');
  assert.equal(Object.hasOwn(cho, '$'), false);
  // dc:subject (literals) and dcterms:subject (references) share the local name.
  assert.deepEqual(cho.subject, [
    'Druckgraphik',
    'Goethe, Cornelia',
    { '@resource': 'http://d-nb.info/gnd/4113357-2' },
    { '@resource': 'http://d-nb.info/gnd/11871791X' },
  ]);
  const facets = obj(pkg['indexing-profile'], 'indexing-profile').facet as Obj[];
  assert.deepEqual(facets[0], { '@name': 'time_fct', value: ['time_61900', 'time_61947', 'time_61975'] });
  assert.deepEqual(facets[1], { '@name': 'place_fct_normdata', value: 'http://d-nb.info/gnd/4035206-7' });
});

test('mapping rules: nil, empty, text beside attributes or elements, key order', () => {
  const xml = `<c xmlns="urn:c" xmlns:p="urn:p" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" p:id="1" n="2">
    <a>  </a><b/><v xsi:nil="true"/><w xsi:nil="false">x</w>
    <m>one<i>1</i>two</m><p:a>second</p:a>
    <t k="v">text</t>
  </c>`;
  const json = cortexToJson(parseXml(xml));
  assert.deepEqual(json, {
    '@id': '1',
    '@n': '2',
    a: ['  ', 'second'],
    b: '',
    v: null,
    w: 'x',
    m: { i: '1', $: 'onetwo' },
    t: { '@k': 'v', $: 'text' },
  });
  assert.deepEqual(Object.keys(json), ['@id', '@n', 'a', 'b', 'v', 'w', 'm', 't']);
});
