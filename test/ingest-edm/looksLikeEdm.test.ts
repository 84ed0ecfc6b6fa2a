// looksLikeEdm routes files in `ingest items` from their first bytes: EDM and OAI-PMH to
// the EDM reader, cortex packages (which also hold an rdf:RDF) elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { looksLikeEdm } from '../../src/ingest/edm/readEdmRecords.js';
import { CORTEX_CHAPTER, filesIn, HOPE_ISSUE, MIMO_DIR, MISC_RECORD, RDF_NS, readText } from './helpers.js';

test('real EDM files and a cortex package, from their first 4 kB', () => {
  for (const file of [HOPE_ISSUE, MISC_RECORD, ...filesIn(MIMO_DIR).slice(0, 20)]) {
    assert.equal(looksLikeEdm(readText(file).slice(0, 4096)), true, file);
  }
  assert.equal(looksLikeEdm(readText(CORTEX_CHAPTER).slice(0, 4096)), false);
});

test('the first element after the prolog decides', () => {
  const yes = [
    `<rdf:RDF xmlns:rdf="${RDF_NS}"/>`,
    `\uFEFF<?xml version="1.0"?>\n<!-- exported -->\n<?xml-stylesheet href="x.xsl"?>\n<!DOCTYPE rdf:RDF [<!ENTITY a "b">]>\n<rdf:RDF xmlns:rdf="${RDF_NS}">`,
    `<ns3:RDF xmlns:ns3="${RDF_NS}">`,
    `<RDF xmlns="${RDF_NS}">`,
    '<rdf:RDF', // the head ends inside the start tag: the usual prefix is enough
    '<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>',
    // A wrapper holding rdf:RDF elements.
    `<records xmlns:rdf="${RDF_NS}"><rdf:RDF>`,
    `<records>\n  <rdf:RDF xmlns:rdf="${RDF_NS}">`,
  ];
  for (const head of yes) assert.equal(looksLikeEdm(head), true, head);
  const no = [
    '',
    '{"properties": {}}',
    '<rdf:RDF xmlns:rdf="http://example.org/not-rdf">',
    `<cortex xmlns="http://www.deutsche-digitale-bibliothek.de/cortex" xmlns:ns3="${RDF_NS}"><edm><ns3:RDF>`,
    '<collection xmlns="http://www.loc.gov/MARC21/slim"><record>',
    '<!-- only a comment',
  ];
  for (const head of no) assert.equal(looksLikeEdm(head), false, head);
});
