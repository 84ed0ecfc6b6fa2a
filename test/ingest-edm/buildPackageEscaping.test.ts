// Hostile values in every part of a package built from EDM: markup characters, `]]>`,
// quotes, CR/LF/TAB, namespaces the cortex document also uses under other prefixes. The
// package must be well-formed, keep every value exactly (docs/decisions.md "Item package":
// the JSON form is derived from the XML), and load unchanged (readItemRecords).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { buildPackage } from '../../src/ingest/edm/buildPackage.js';
import { readProvidersFile } from '../../src/ingest/edm/providers.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';

type Obj = Record<string, unknown>;

/** The hostile text as it reads after parsing, and as it is written in the source XML. */
const HOSTILE = 'a<b & c]]> "d" \'e\'\r\n\tz';
const HOSTILE_XML = 'a&lt;b &amp; c]]&gt; "d" \'e\'&#13;&#10;&#9;z';
const HOSTILE_ATTR = "a&lt;b &amp; c]]&gt; &quot;d&quot; 'e'&#13;&#10;&#9;z";
const URL_XML = 'http://example.org/img?x=1&amp;y=&quot;2&quot;&amp;z=&lt;3&gt;.png';

const SOURCE = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment the source may carry -->
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:ore="http://www.openarchives.org/ore/terms/"
  xmlns:skos="http://www.w3.org/2004/02/skos/core#" xmlns:ebucore="http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#"
  xmlns:ns4="http://example.org/not-the-item-namespace#" xmlns:cx="http://www.deutsche-digitale-bibliothek.de/cortex">
  <edm:ProvidedCHO rdf:about="http://example.org/cho/&quot;1&quot;&amp;&lt;2&gt;">
    <dc:title xml:lang="de">${HOSTILE_XML}</dc:title>
    <dc:description>${HOSTILE_XML}</dc:description>
    <dc:subject>${HOSTILE_XML}</dc:subject>
    <dc:creator>${HOSTILE_XML}</dc:creator>
    <dc:type>${HOSTILE_XML}</dc:type>
    <dc:date>1901</dc:date>
    <dc:rights><![CDATA[<b>]]&gt; & co]]></dc:rights>
    <edm:type>IMAGE</edm:type>
    <ns4:thing ns4:attr="${HOSTILE_ATTR}">clashing prefix</ns4:thing>
    <cx:item>an element in the cortex namespace inside the record</cx:item>
    <plain xmlns="">no namespace</plain>
  </edm:ProvidedCHO>
  <edm:WebResource rdf:about="${URL_XML}">
    <dc:title>${HOSTILE_XML}</dc:title>
    <dc:rights>${HOSTILE_XML}</dc:rights>
    <ebucore:hasMimeType>image/png</ebucore:hasMimeType>
    <edm:rights rdf:resource="urn:rights:&quot;x&quot;&amp;&lt;y&gt;"/>
  </edm:WebResource>
  <edm:Place rdf:about="http://example.org/place?a=1&amp;b=2"><skos:prefLabel>${HOSTILE_XML}</skos:prefLabel></edm:Place>
  <ore:Aggregation rdf:about="http://example.org/agg">
    <edm:aggregatedCHO rdf:resource="http://example.org/cho/&quot;1&quot;&amp;&lt;2&gt;"/>
    <edm:dataProvider>${HOSTILE_XML}</edm:dataProvider>
    <edm:isShownBy rdf:resource="${URL_XML}"/>
    <edm:isShownAt rdf:resource="http://example.org/page?a=1&amp;b=2"/>
  </ore:Aggregation>
</rdf:RDF>`;

const CHO = 'http://example.org/cho/"1"&<2>';

/** An element tree without prefixes: what the document means, whatever prefixes it uses. */
function meaning(el: XmlElement): unknown {
  return {
    ns: el.namespace,
    local: el.local,
    attrs: el.attributes.map((a) => [a.namespace, a.local, a.value]),
    children: el.children.map((c) => (typeof c === 'string' ? c : meaning(c))),
  };
}

function build() {
  const providers = readProvidersFile(
    JSON.stringify({ providers: [{ name: HOSTILE, uri: 'https://example.org/?a=1&b="2"', state: '<Land & "Staat">' }] }),
  );
  const { itemId, xml } = buildPackage(
    { choUri: CHO, rdf: parseXml(SOURCE), sourceXml: SOURCE },
    { ingestDate: new Date('2024-01-02T03:04:05Z'), ingestId: '<&"]]>\'', providers },
  );
  return { itemId, xml, pkg: cortexToJson(parseXml(xml)) };
}

test('hostile values survive every part exactly', () => {
  const { itemId, xml, pkg } = build();
  assert.match(
    xml,
    /^<\?xml version="1\.0" encoding="UTF-8" standalone="yes"\?><cortex xmlns="http:\/\/www\.deutsche-digitale-bibliothek\.de\/cortex"/,
  );
  assert.ok(!xml.includes('\r'), 'a CR is written as a character reference, so it is not read back as LF');
  assert.equal((pkg.properties as Obj)['ingest-id'], '<&"]]>\'');

  const preview = pkg.preview as Obj;
  assert.equal(preview.title, HOSTILE);
  assert.equal(preview.subtitle, HOSTILE); // the dc:type literal
  assert.deepEqual(preview.thumbnail, { '@href': `/binary/${itemId}/list/1.png` }); // ebucore:hasMimeType image/png

  const item = (pkg.view as Obj).item as Obj;
  assert.equal(item.title, HOSTILE);
  assert.equal(item.label, HOSTILE);
  assert.equal(item.identifier, CHO); // no dc:identifier: the CHO URI
  assert.equal(item.rights, '<b>]]&gt; & co'); // CDATA in the source: its text, verbatim
  assert.equal(item.origin, 'http://example.org/page?a=1&b=2');
  assert.deepEqual(item.license, { '@resource': 'urn:rights:"x"&<y>', '@img': '', '@url': 'urn:rights:"x"&<y>', $: 'urn:rights:"x"&<y>' });
  assert.deepEqual(item.institution, { url: 'https://example.org/?a=1&b="2"', id: '', name: HOSTILE, logo: '' });
  const display = ((item.fields as Obj[])[0] as Obj).field as Obj[];
  assert.deepEqual(
    display.filter((f) => f['@id'] !== 'dc_date' && f['@id'] !== 'dc_rights').map((f) => f.value),
    [HOSTILE, HOSTILE, HOSTILE, HOSTILE],
  );

  const facets = new Map(((pkg['indexing-profile'] as Obj).facet as Obj[]).map((f) => [f['@name'], f.value]));
  assert.equal(facets.get('keywords_fct'), HOSTILE); // literal dc:subject
  assert.deepEqual(facets.get('affiliate_fct_role'), [HOSTILE, `${HOSTILE}_1_affiliate_fct_involved`]);
  assert.equal(facets.get('place_fct'), HOSTILE);
  assert.equal(facets.get('place_fct_normdata'), 'http://example.org/place?a=1&b=2');
  assert.equal(facets.get('provider_fct'), HOSTILE);

  const providerInfo = pkg['provider-info'] as Obj;
  assert.equal(providerInfo['provider-name'], HOSTILE);
  assert.equal(providerInfo['provider-state'], '<Land & "Staat">');
  assert.equal(providerInfo['provider-item-id'], CHO);

  assert.deepEqual((pkg.binaries as Obj).binary, {
    '@category': 'list',
    '@primary': 'true',
    '@position': '1',
    '@path': `/binary/${itemId}/list/1.png`,
    '@mimetype': 'image/png',
    '@name3': HOSTILE,
    '@name': HOSTILE,
  });

  // metadata-record: the source text without its XML declaration, character for character.
  assert.equal(pkg['metadata-record'], SOURCE.replace(/^<\?xml[^?]*\?>\s*/, ''));
});

test('the edm part means exactly what the record says, whatever prefixes clash', () => {
  const { xml } = build();
  const edm = parseXml(xml).children.find((c): c is XmlElement => typeof c !== 'string' && c.local === 'edm');
  const rdf = edm?.children.find((c): c is XmlElement => typeof c !== 'string');
  assert.ok(rdf);
  assert.deepEqual(meaning(rdf), meaning(parseXml(SOURCE)));
  // The record's ns4 is not the cortex item namespace, and its element in no namespace stays so.
  assert.match(xml, /<ns11:thing xmlns:ns11="http:\/\/example\.org\/not-the-item-namespace#" ns11:attr=/);
  assert.match(xml, /<plain xmlns="">no namespace<\/plain>/);
});

test('the package loads unchanged, with the hostile title as label', () => {
  const { itemId, xml } = build();
  const [read] = readItemRecords(xml);
  assert.equal(read?.kind, 'item', read?.kind === 'error' ? read.reason : '');
  if (read?.kind !== 'item') return;
  assert.deepEqual([read.item.id, read.item.label, read.item.choUri, read.item.xml], [itemId, HOSTILE, CHO, xml]);
});
