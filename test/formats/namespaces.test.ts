// Tests of src/formats/namespaces.ts: the name tables agree with the real cortex files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NS, RDF_CLASS_NAMESPACES, rdfElementNamespace, type RdfContext } from '../../src/formats/namespaces.js';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { CORTEX_XML_IDS, readFixture } from './fixtures.js';

const elements = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => typeof c !== 'string');

function findRdf(el: XmlElement): XmlElement | undefined {
  if (el.local === 'RDF' && el.namespace === NS.rdf) return el;
  for (const c of elements(el)) {
    const found = findRdf(c);
    if (found) return found;
  }
  return undefined;
}

for (const id of CORTEX_XML_IDS) {
  test(`every element below rdf:RDF of ${id} gets the namespace the file gives it`, () => {
    const rdf = findRdf(parseXml(readFixture(`${id}.xml`)));
    assert.ok(rdf);
    let checked = 0;
    const visit = (parent: XmlElement, className: string | undefined, classLevel: boolean): void => {
      const children = elements(parent);
      for (const el of children) {
        const same = children.filter((c) => c.local === el.local);
        const ctx: RdfContext = { className, value: cortexToJson(el), index: same.indexOf(el), count: same.length };
        assert.equal(rdfElementNamespace(el.local, ctx), el.namespace, `${el.name} in ${className ?? 'RDF'}`);
        checked += 1;
        const isClass = classLevel || Object.hasOwn(RDF_CLASS_NAMESPACES, el.local);
        visit(el, isClass ? el.local : className, false);
      }
    };
    visit(rdf, undefined, true);
    assert.ok(checked > 40, `checked ${checked} elements`);
  });
}

test('ambiguous names are decided by context', () => {
  const ctx = (className: string, value: unknown, index = 0, count = 1): RdfContext => ({ className, value, index, count });
  const ref = { '@resource': 'http://example.org/x' };
  assert.equal(rdfElementNamespace('type', ctx('ProvidedCHO', 'Druckgraphik')), NS.dc);
  assert.equal(rdfElementNamespace('type', ctx('ProvidedCHO', 'TEXT')), NS.edm);
  assert.equal(rdfElementNamespace('type', ctx('ProvidedCHO', { '@lang': 'de', $: 'IMAGE' })), NS.edm);
  assert.equal(rdfElementNamespace('type', ctx('Agent', ref)), NS.rdf);
  assert.equal(rdfElementNamespace('type', ctx('Agent', { resource: 'x', $: '' })), NS.rdf);
  assert.equal(rdfElementNamespace('type', ctx('WebResource', ref)), NS.dc);
  assert.equal(rdfElementNamespace('type', ctx('Place', 'Stadt')), NS.dc);
  assert.equal(rdfElementNamespace('rights', ctx('Aggregation', ref)), NS.dcterms);
  assert.equal(rdfElementNamespace('rights', ctx('Aggregation', ref, 0, 2)), NS.edm);
  assert.equal(rdfElementNamespace('rights', ctx('Aggregation', ref, 1, 2)), NS.dcterms);
  assert.equal(rdfElementNamespace('subject', ctx('ProvidedCHO', 'Goethe')), NS.dc);
  assert.equal(rdfElementNamespace('subject', ctx('ProvidedCHO', ref)), NS.dcterms);
  assert.equal(rdfElementNamespace('P14_carried_out_by', ctx('Event', ref)), NS.crm);
  assert.equal(rdfElementNamespace('edmRights', ctx('Aggregation', ref)), NS.ddb, 'unknown names: DDB edm namespace');
  assert.equal(rdfElementNamespace('Concept', ctx('ProvidedCHO', {})), NS.skos);
});
