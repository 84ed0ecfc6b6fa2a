// Tests of src/formats/jsonToCortex.ts: JSON -> cortex XML -> JSON round trips, namespaces,
// escaping.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonToCortex } from '../../src/formats/jsonToCortex.js';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parsePackageJson } from '../../src/formats/packageJson.js';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { NS } from '../../src/formats/namespaces.js';
import { PACKAGE_JSON_FILES, readFixture } from './fixtures.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The documented, unavoidable differences of the XML form (jsonToCortex.ts header), and
 * nothing else: numbers and booleans become strings; a one-element array becomes its
 * value; an empty array disappears; an object left with only `$` becomes that string; an
 * object left with no keys becomes "".
 */
function expectedAfterRoundTrip(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(expectedAfterRoundTrip);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, raw] of Object.entries(v)) {
    const value = expectedAfterRoundTrip(raw);
    if (Array.isArray(value) && value.length === 0) continue;
    out[k] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  const keys = Object.keys(out);
  if (keys.length === 0) return '';
  if (keys.length === 1 && keys[0] === '$') return out.$;
  return out;
}

const roundTrip = (pkg: Obj): Obj => cortexToJson(parseXml(jsonToCortex(pkg)));

for (const file of PACKAGE_JSON_FILES) {
  test(`round trip JSON -> XML -> JSON of ${file}`, () => {
    const pkg = parsePackageJson(readFixture(file));
    assert.ok(isObj(pkg));
    assert.deepEqual(roundTrip(pkg), expectedAfterRoundTrip(pkg));
  });
}

test('goethe.json needs none of the documented differences', () => {
  const pkg = parsePackageJson(readFixture('goethe.json'));
  assert.ok(isObj(pkg));
  assert.deepEqual(expectedAfterRoundTrip(pkg), pkg);
  assert.deepEqual(roundTrip(pkg), pkg);
});

test('the normalisation is needed for the newer packages, and only where documented', () => {
  const pkg = parsePackageJson(readFixture('bare_id.json'));
  assert.ok(isObj(pkg));
  const back = roundTrip(pkg);
  assert.notDeepEqual(back, pkg);
  const binary = (pkg.binaries as Obj).binary as Obj[];
  assert.equal(binary.length, 1);
  assert.equal(binary[0]?.position, 1);
  const backBinary = (back.binaries as Obj).binary as Obj;
  assert.equal(backBinary.position, '1');
  assert.equal(backBinary.primary, 'true');
  assert.deepEqual((pkg.view as Obj & { item: Obj }).item.viewers, { viewer: [] });
  assert.equal((back.view as Obj & { item: Obj }).item.viewers, '');
});

function find(el: XmlElement, namespace: string, local: string): XmlElement | undefined {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.namespace === namespace && c.local === local) return c;
  }
  return undefined;
}

function must(el: XmlElement | undefined, namespace: string, local: string): XmlElement {
  assert.ok(el);
  const found = find(el, namespace, local);
  assert.ok(found, `{${namespace}}${local} inside ${el.name}`);
  return found;
}

test('the XML of goethe.json has its elements in the right namespaces', () => {
  const xml = jsonToCortex(parsePackageJson(readFixture('goethe.json')) as Obj);
  assert.ok(
    xml.startsWith(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cortex xmlns="http://www.deutsche-digitale-bibliothek.de/cortex"',
    ),
  );
  const root = parseXml(xml);
  assert.deepEqual([root.local, root.namespace], ['cortex', NS.cortex]);
  const parts = root.children.map((c) => (typeof c === 'string' ? c : `${c.namespace} ${c.local}`));
  assert.deepEqual(
    parts,
    ['properties', 'edm', 'indexing-profile', 'preview', 'view', 'metadata-record', 'provider-info', 'binaries'].map(
      (p) => `${NS.cortex} ${p}`,
    ),
  );

  const rdf = must(must(root, NS.cortex, 'edm'), NS.rdf, 'RDF');
  const aggregation = must(rdf, NS.ore, 'Aggregation');
  assert.deepEqual(
    aggregation.attributes.map((a) => [a.namespace, a.local]),
    [[NS.rdf, 'about']],
  );
  must(aggregation, NS.edm, 'aggregatedCHO');
  must(aggregation, NS.dcterms, 'rights');
  const cho = must(rdf, NS.edm, 'ProvidedCHO');
  must(cho, NS.dc, 'title');
  must(cho, NS.dc, 'type');
  must(cho, NS.dc, 'subject');
  must(cho, NS.dcterms, 'subject');
  must(cho, NS.edm, 'hasMet');
  must(rdf, NS.skos, 'Concept');
  must(rdf, NS.edm, 'TimeSpan');
  const agent = must(rdf, NS.edm, 'Agent');
  must(agent, NS.skos, 'prefLabel');
  const agentType = must(agent, NS.rdf, 'type');
  assert.deepEqual(
    agentType.attributes.map((a) => [a.namespace, a.local]),
    [[NS.rdf, 'resource']],
  );
  must(agent, NS.dcterms, 'isPartOf');
  must(must(rdf, NS.edm, 'Event'), NS.crm, 'P11_had_participant');
  must(must(rdf, NS.edm, 'WebResource'), NS.dc, 'type');

  const item = must(must(root, NS.cortex, 'view'), NS.item, 'item');
  const viewers = must(item, NS.item, 'viewers');
  assert.deepEqual(
    viewers.attributes.map((a) => [a.namespace, a.local, a.value]),
    [[NS.xsi, 'nil', 'true']],
  );
  const license = must(item, NS.item, 'license');
  assert.deepEqual(
    license.attributes.map((a) => [a.namespace, a.local]),
    [
      [NS.rdf, 'resource'],
      ['', 'img'],
      ['', 'url'],
    ],
  );
  const preview = must(root, NS.cortex, 'preview');
  assert.deepEqual(
    preview.attributes.map((a) => [a.namespace, a.local]),
    [
      ['', 'type'],
      ['', 'media'],
    ],
  );
});

test('values with markup characters round-trip; forbidden characters become U+FFFD', () => {
  const tricky = 'a < b && c > "d" \'e\' ]]> <![CDATA[x]]> &amp; &#65; \t tab\r\nCRLF \u{1F600} \u00A0';
  const pkg = {
    properties: { 'item-id': tricky, note: ' leading and trailing ' },
    edm: { RDF: { ProvidedCHO: { '@about': tricky, title: { '@lang': 'de', $: tricky } } } },
    view: { item: { license: { '@url': tricky, $: tricky } } },
    'metadata-record': `<record a="1">${tricky}</record>`,
  };
  assert.deepEqual(roundTrip(pkg), pkg);
  const xml = jsonToCortex(pkg);
  assert.ok(xml.includes(' xml:lang="de"'));
  assert.ok(!xml.includes(']]>'), 'no literal ]]> anywhere');

  const withControl = { properties: { note: 'bell\u0007 nul\u0000 ok', '@x': 'esc\u001B' } };
  assert.deepEqual(roundTrip(withControl), { properties: { '@x': 'esc\uFFFD', note: 'bell\uFFFD nul\uFFFD ok' } });
});

test('null, empty and mixed values follow the mapping', () => {
  const pkg = { a: null, b: '', c: { '@k': null, $: null, d: [] }, e: [null, 'x'], f: { '@k': 'v' }, g: { h: '1', $: 'text' } };
  assert.deepEqual(roundTrip(pkg), { a: null, b: '', c: '', e: [null, 'x'], f: { '@k': 'v' }, g: { h: '1', $: 'text' } });
});

test('keys that cannot be XML names are refused', () => {
  assert.throws(() => jsonToCortex({ 'not a name': 'x' }), TypeError);
  assert.throws(() => jsonToCortex({ a: { '@xmlns': 'urn:x' } }), TypeError);
  assert.throws(() => jsonToCortex({ a: { '@k': { nested: true } } }), TypeError);
  assert.throws(() => jsonToCortex({ a: { $: ['x'] } }), TypeError);
});
