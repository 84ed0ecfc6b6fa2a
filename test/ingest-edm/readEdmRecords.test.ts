// The EDM reader on real records (docs/edm-mapping.md): one record per file, many in one
// rdf:RDF, many rdf:RDF in one file, both forms of EDM, streamed in small chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseXml } from '../../src/formats/xmlTree.js';
import { readEdmRecords } from '../../src/ingest/edm/readEdmRecords.js';
import type { EdmReadResult } from '../../src/ingest/edm/types.js';
import {
  choOf,
  classLines,
  CORTEX_CHAPTER,
  descriptionTexts,
  elementsOf,
  errorsOf,
  filesIn,
  HOPE_DIR,
  HOPE_ISSUE,
  HOPE_ROOT,
  HOPE_YEAR,
  MIMO_DIR,
  MISC_RECORD,
  propertyLine,
  RDF_NS,
  rdfStartTag,
  rdfText,
  readAll,
  readText,
  recordsOf,
  withoutWhitespaceChildren,
} from './helpers.js';

test('a HOPE issue: the provider proxy is folded onto the CHO in document order, proxies dropped', async () => {
  const results = await readAll(readText(HOPE_ISSUE));
  assert.equal(results.length, 1);
  const [result] = results;
  assert.equal(result?.kind, 'record');
  if (result?.kind !== 'record') return;
  assert.equal(result.position, 'record 1, line 2, column 660');
  assert.equal(result.oai, undefined);
  const { record } = result;
  assert.equal(record.choUri, 'http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662');
  assert.deepEqual(elementsOf(choOf(record)).map(propertyLine), [
    'dc:identifier http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662',
    'dc:identifier PV-MTSF 258',
    'dc:language fra',
    'dc:relation http://www.peoplesheritage.eu',
    'dc:subject Syndicalism/Trade Unions',
    'dc:subject Socialist and social democrat parties/Socialist International',
    'dc:subject Workers movements/Workers councils/Workers International organizations',
    'dc:title Combat (1974)13',
    'dc:type item',
    'dcterms:isPartOf rdf:resource=http://hdl.handle.net/10796/4BF04AA4-0D1B-4A8F-B4F3-A32EE1B05D064',
    'dcterms:issued 1974',
    'dcterms:provenance',
    'edm:type TEXT',
  ]);
  assert.deepEqual(classLines(record), [
    'edm:ProvidedCHO http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662',
    'edm:WebResource http://hdl.handle.net/10796/79B8632E-8057-4D11-A87C-98B8A20D6FF6?locatt=view:level2',
    'ore:Aggregation 10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662',
    'edm:EuropeanaAggregation http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662',
  ]);
  // The source text is the rdf:RDF element exactly as written.
  assert.equal(record.sourceXml, rdfText(HOPE_ISSUE));
  // Every element other than the CHO is the one parseXml gives for the file.
  const parsed = parseXml(readText(HOPE_ISSUE));
  assert.deepEqual(
    elementsOf(record.rdf).slice(1),
    elementsOf(parsed).filter((e) => e.local !== 'Proxy' && e.local !== 'ProvidedCHO'),
  );
  assert.deepEqual({ ...record.rdf, children: [] }, { ...parsed, children: [] });
});

test('HOPE: isPartOf of an issue, its year and the root', async () => {
  const isPartOf = async (path: string): Promise<string[]> => {
    const [record] = recordsOf(await readAll(readText(path)));
    return elementsOf(choOf(record!))
      .filter((p) => p.local === 'isPartOf')
      .map(propertyLine);
  };
  assert.deepEqual(await isPartOf(HOPE_ISSUE), [
    'dcterms:isPartOf rdf:resource=http://hdl.handle.net/10796/4BF04AA4-0D1B-4A8F-B4F3-A32EE1B05D064',
  ]);
  assert.deepEqual(await isPartOf(HOPE_YEAR), [
    'dcterms:isPartOf rdf:resource=http://hdl.handle.net/10796/76FC2677-F914-46F1-9A1B-D19450FE141E',
  ]);
  assert.deepEqual(await isPartOf(HOPE_ROOT), []);
});

test('all 786 HOPE files, each read as a file stream: one record each, no error, no proxy left', async () => {
  const files = filesIn(HOPE_DIR);
  assert.equal(files.length, 786);
  const uris = new Set<string>();
  for (const file of files) {
    const results: EdmReadResult[] = [];
    for await (const r of readEdmRecords(createReadStream(file, { highWaterMark: 1024 }))) results.push(r);
    assert.deepEqual(
      results.map((r) => r.kind),
      ['record'],
      file,
    );
    const [record] = recordsOf(results);
    uris.add(record!.choUri);
    assert.equal(
      elementsOf(record!.rdf).some((e) => e.local === 'Proxy'),
      false,
      file,
    );
    assert.equal(
      elementsOf(choOf(record!)).some((p) => p.local === 'title'),
      true,
      file,
    );
  }
  assert.equal(uris.size, 786);
});

test('786 HOPE records in one file, as many rdf:RDF under a wrapper and as one rdf:RDF: the same records', async () => {
  const files = filesIn(HOPE_DIR);
  const rdfs = files.map(rdfText);
  const alone = await Promise.all(files.map(async (f) => recordsOf(await readAll(readText(f)))[0]!));

  const wrapped = await readAll(`<?xml version="1.0" encoding="UTF-8"?>\n<records>\n${rdfs.join('\n')}\n</records>\n`);
  assert.equal(wrapped.length, 786);
  assert.deepEqual(errorsOf(wrapped), []);
  assert.deepEqual(recordsOf(wrapped), alone);
  assert.equal(wrapped[785]?.position, 'record 786, line 788, column 660');

  // One rdf:RDF: proxies without ore:proxyFor and EuropeanaAggregations naming the
  // aggregation still find their CHO, and isPartOf links do not pull other records in.
  const one = `<?xml version="1.0" encoding="UTF-8"?>\n${rdfStartTag(rdfs[0]!)}\n${rdfs.flatMap(descriptionTexts).join('\n')}\n</rdf:RDF>\n`;
  const merged = await readAll(one);
  assert.equal(merged.length, 786);
  assert.deepEqual(errorsOf(merged), []);
  const records = recordsOf(merged);
  assert.deepEqual(
    records.map((r) => r.rdf),
    alone.map((r) => r.rdf),
  );
  // A record's source in a shared rdf:RDF: its own descriptions (proxy included) in the start tag.
  assert.equal(records[0]?.sourceXml, `${rdfStartTag(rdfs[0]!)}\n${descriptionTexts(rdfs[0]!).join('\n')}\n</rdf:RDF>`);
});

test('MIMO: every record in the DDB form equals the file parsed whole, proxies folded', async () => {
  const files = filesIn(MIMO_DIR);
  assert.equal(files.length, 589);
  let folded = 0;
  for (const file of files) {
    const results = await readAll(readText(file));
    assert.deepEqual(
      results.map((r) => r.kind),
      ['record'],
      file,
    );
    const [record] = recordsOf(results);
    const parsed = withoutWhitespaceChildren(parseXml(readText(file)));
    const proxies = elementsOf(parsed).filter((e) => e.local === 'Proxy');
    const cho = elementsOf(parsed).find((e) => e.local === 'ProvidedCHO')!;
    assert.equal(record!.choUri, cho.attributes.find((a) => a.namespace === RDF_NS && a.local === 'about')?.value, file);
    const expectedCho = proxies.length === 0 ? cho : { ...cho, children: proxies.flatMap(elementsOf) };
    if (proxies.length > 0) folded += 1;
    assert.deepEqual(
      record!.rdf,
      { ...parsed, children: parsed.children.filter((c) => !proxies.includes(c as never)).map((c) => (c === cho ? expectedCho : c)) },
      file,
    );
  }
  // 195 files use ore:Proxy and 189 the non-standard edm:Proxy; every one has an empty CHO.
  assert.equal(folded, 384);
});

test('a record with unreferenced web resources keeps them when it is alone in its rdf:RDF', async () => {
  const [record] = recordsOf(await readAll(readText(MISC_RECORD)));
  assert.deepEqual(classLines(record!), [
    'edm:WebResource http://www.dlib.si/stream/URN:NBN:SI:doc-35SZSOCF/fe3c97d7-f950-4632-87cf-64844b040e71/PDF',
    'edm:WebResource http://www.dlib.si/stream/URN:NBN:SI:doc-35SZSOCF/8fa28f63-2af4-4189-9071-95026de84187/TEXT',
    'edm:ProvidedCHO URN:NBN:SI:doc-35SZSOCF',
    'ore:Aggregation http://www.dlib.si/?URN=URN:NBN:SI:doc-35SZSOCF',
  ]);
  // Nothing to fold: the CHO is unchanged, its indentation included.
  assert.deepEqual(choOf(record!), elementsOf(parseXml(readText(MISC_RECORD)))[2]);
});

test('three MIMO records mixed in one rdf:RDF: grouped by reference, shared entities in each, unreferenced dropped', async () => {
  const names = ['Item_5791749.xml', 'Item_5791750.xml', 'Item_5791751.xml'];
  const rdfs = names.map((n) => rdfText(MIMO_DIR + n));
  const alone = await Promise.all(rdfs.map(async (r) => recordsOf(await readAll(r))[0]!));
  // Class by class (all CHOs, then all web resources, ...), so that records interleave;
  // 5791750 and 5791751 share two concepts, written once; one concept nobody references.
  const descriptions = rdfs.flatMap(descriptionTexts);
  const unique = descriptions.filter((d, i) => descriptions.indexOf(d) === i);
  assert.equal(descriptions.length - unique.length, 2);
  const rank = (d: string): number =>
    [
      '<edm:ProvidedCHO',
      '<edm:WebResource',
      '<edm:Place',
      '<edm:Agent',
      '<skos:Concept',
      '<ore:Aggregation',
      '<ore:Proxy',
      '<edm:EuropeanaAggregation',
    ].findIndex((p) => d.startsWith(p));
  const mixed = [...unique].sort((a, b) => rank(a) - rank(b));
  mixed.splice(
    mixed.findIndex((d) => d.startsWith('<ore:Aggregation')),
    0,
    '<skos:Concept rdf:about="http://example.org/unused"><skos:prefLabel>Unused</skos:prefLabel></skos:Concept>',
  );
  const text = `${rdfStartTag(rdfs[0]!)}\n${mixed.join('\n')}\n</rdf:RDF>`;

  const results = await readAll(text);
  assert.deepEqual(
    results.map((r) => r.position),
    ['record 1, line 2, column 1', 'record 2, line 3, column 1', 'record 3, line 4, column 1'],
  );
  const records = recordsOf(results);
  assert.deepEqual(
    records.map((r) => r.choUri),
    ['#GNM:7116411', '#GNM:711731', '#GNM:711876'],
  );
  // In the order of the mixed file. Each file also holds web resources that nothing
  // references (three in 5791750, two in 5791751): alone they stay with their record,
  // shared they belong to no record and are dropped, as is the unused concept.
  assert.deepEqual(records.map(classLines), [
    [
      'edm:ProvidedCHO #GNM:7116411',
      'edm:WebResource http://www.mimo-db.eu/media/GNM/IMAGE/MI952_1278054389450_2.jpg',
      'edm:Place http://www.geonames.org/2844588',
      'skos:Concept http://www.mimo-db.eu/InstrumentsKeywords/4419',
      'skos:Concept http://www.mimo-db.eu/HornbostelAndSachs/334',
      'ore:Aggregation http://www.mimo-db.eu/GNM/7116411',
      'edm:EuropeanaAggregation #GNM:7116411',
    ],
    [
      'edm:ProvidedCHO #GNM:711731',
      'edm:WebResource http://www.mimo-db.eu/media/GNM/IMAGE/MINe173_1273135931221_2.jpg',
      'edm:Place http://www.geonames.org/2952984',
      'edm:Agent http://www.mimo-db.eu/InstrumentMaker/Person/3151',
      'skos:Concept http://www.mimo-db.eu/InstrumentsKeywords/2308',
      'skos:Concept http://www.mimo-db.eu/HornbostelAndSachs/6458',
      'ore:Aggregation http://www.mimo-db.eu/GNM/711731',
      'edm:EuropeanaAggregation #GNM:711731',
    ],
    [
      'edm:ProvidedCHO #GNM:711876',
      'edm:WebResource http://www.mimo-db.eu/media/GNM/IMAGE/MIR1161_1278664334157_2.jpg',
      'edm:WebResource http://www.mimo-db.eu/media/GNM/IMAGE/MIR1161_1278664381923_2.jpg',
      'edm:Place http://www.geonames.org/2935022',
      'edm:Agent http://www.mimo-db.eu/InstrumentMaker/Person/3487',
      'skos:Concept http://www.mimo-db.eu/InstrumentsKeywords/2308',
      'skos:Concept http://www.mimo-db.eu/HornbostelAndSachs/6458',
      'ore:Aggregation http://www.mimo-db.eu/GNM/711876',
      'edm:EuropeanaAggregation #GNM:711876',
    ],
  ]);
  // Every element kept is the one of the record read alone; the CHO is folded the same way.
  for (const [i, record] of records.entries()) {
    const fromAlone = new Map(elementsOf(alone[i]!.rdf).map((e) => [e.name + JSON.stringify(e.attributes), e]));
    for (const element of elementsOf(record.rdf))
      assert.deepEqual(element, fromAlone.get(element.name + JSON.stringify(element.attributes)), names[i]);
  }
  // The source of a record in a shared rdf:RDF: its own descriptions in the rdf:RDF start tag.
  const own = descriptionTexts(rdfs[0]!);
  assert.equal(own.length, 8);
  assert.equal(records[0]!.sourceXml, `${rdfStartTag(rdfs[0]!)}\n${mixed.filter((d) => own.includes(d)).join('\n')}\n</rdf:RDF>`);
});

test('the DDB form inside a cortex package: kept as it is, prefixes declared outside it carried into the source', async () => {
  const cortex = readText(CORTEX_CHAPTER);
  const edm = cortex.slice(cortex.indexOf('<edm>'), cortex.indexOf('</edm>') + '</edm>'.length);
  const expected = elementsOf(elementsOf(parseXml(cortex)).find((e) => e.local === 'edm')!)[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'edm-'));
  try {
    // As a file of its own: the rdf:RDF with the ns3 prefix declared on it.
    const rdf = edm.slice('<edm>'.length, -'</edm>'.length).replace('<ns3:RDF>', `<ns3:RDF xmlns:ns3="${RDF_NS}">`);
    writeFileSync(join(dir, 'chapter.xml'), rdf);
    const results: EdmReadResult[] = [];
    for await (const r of readEdmRecords(createReadStream(join(dir, 'chapter.xml'), { highWaterMark: 64 }))) results.push(r);
    assert.deepEqual(
      results.map((r) => r.kind),
      ['record'],
    );
    const [record] = recordsOf(results);
    assert.equal(record!.choUri, 'http://www.deutsche-digitale-bibliothek.de/item/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR');
    assert.deepEqual(record!.rdf, withoutWhitespaceChildren(expected));
    assert.deepEqual(elementsOf(choOf(record!)).map(propertyLine), [
      'edm:currentLocation ns3:resource=http://d-nb.info/gnd/8214-4',
      'edm:hasType ns3:resource=FVFUKHGQLHOQCXMVV3NH2TNO7ZKKOKV3',
      'edm:type TEXT',
      'dc:type Chapter',
      'dc:title XI. * * *',
      'ddb:hierarchyType htype_018',
      'ddb:aggregationEntity false',
      'ddb:hierarchyPosition DMDLOG_0013',
      'edm:isNextInSequence ns3:resource=http://www.deutsche-digitale-bibliothek.de/item/T74TWLJZVVO64STWRVCNKH5YLWX6KGJK',
      'dcterms:isPartOf ns3:resource=http://www.deutsche-digitale-bibliothek.de/item/X25Y2NE7RRBGD2YT36TYQTUNSDGJVBFR',
    ]);
    assert.equal(record!.sourceXml, rdf);

    // Inside its `edm` element with the cortex declarations: the source gets them.
    const declarations = cortex.slice(cortex.indexOf(' xmlns='), cortex.indexOf('><properties>'));
    const [inner] = recordsOf(await readAll(`<edm${declarations}>${edm.slice('<edm>'.length)}`));
    assert.deepEqual(inner!.rdf, record!.rdf);
    assert.equal(inner!.sourceXml.slice(0, inner!.sourceXml.indexOf('>') + 1), `<ns3:RDF${declarations}>`);
    assert.deepEqual(withoutWhitespaceChildren(parseXml(inner!.sourceXml)), record!.rdf);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Europeana proxy adds only properties the provider did not give; duplicates are not repeated', async () => {
  const text = `<rdf:RDF xmlns:rdf="${RDF_NS}" xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:ore="http://www.openarchives.org/ore/terms/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">
  <edm:ProvidedCHO rdf:about="/item/1"><dc:title>Own title</dc:title></edm:ProvidedCHO>
  <ore:Proxy rdf:about="/proxy/europeana/1">
    <dc:date>1900</dc:date><edm:year>1900</edm:year><dc:subject rdf:resource="http://example.org/concept/x"/>
    <ore:proxyFor rdf:resource="/item/1"/><ore:proxyIn rdf:resource="/aggregation/europeana/1"/><edm:europeanaProxy>true</edm:europeanaProxy>
  </ore:Proxy>
  <ore:Proxy rdf:about="/proxy/provider/1">
    <dc:title>Own title</dc:title><dc:subject>Ships</dc:subject><dcterms:isPartOf rdf:resource="/item/0"/>
    <ore:proxyFor rdf:resource="/item/1"/><ore:proxyIn rdf:resource="/aggregation/provider/1"/><edm:europeanaProxy>false</edm:europeanaProxy>
    <ore:lineage rdf:resource="/proxy/aggregator/1"/><edm:isNextInSequence rdf:resource="/item/0a"/>
  </ore:Proxy>
  <ore:Aggregation rdf:about="/aggregation/provider/1"><edm:aggregatedCHO rdf:resource="/item/1"/></ore:Aggregation>
</rdf:RDF>`;
  const [record] = recordsOf(await readAll(text));
  assert.deepEqual(elementsOf(choOf(record!)).map(propertyLine), [
    'dc:title Own title',
    'dc:subject Ships',
    'dcterms:isPartOf rdf:resource=/item/0',
    'edm:isNextInSequence rdf:resource=/item/0a',
    'dc:date 1900',
    'edm:year 1900',
  ]);
  assert.deepEqual(classLines(record!), ['edm:ProvidedCHO /item/1', 'ore:Aggregation /aggregation/provider/1']);
});

test('input in 7-byte chunks gives the same results as one chunk', async () => {
  const files = [HOPE_ISSUE, `${MIMO_DIR}Item_10000.xml`, `${MIMO_DIR}09102_Ag_EU_MIMO_EDM_record0.xml`, MISC_RECORD];
  // Tags right after tags (a chunk may end between them), CR LF, comments, a broken end.
  const text = `<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- several --><all>${files.map(rdfText).join('<!-- next -->\r\n')}\r\n<broken></all>`;
  const whole = await readAll(text);
  assert.deepEqual(
    whole.map((r) => r.kind),
    ['record', 'record', 'record', 'record', 'error'],
  );
  assert.deepEqual(await readAll(text, { chunkSize: 7 }), whole);
  assert.deepEqual(await readAll(text, { chunkSize: 1 }), whole);
});

test('a document without EDM is reported, not ignored', async () => {
  assert.deepEqual(errorsOf(await readAll('<records/>')), [
    {
      position: 'line 1, column 1',
      reason:
        'no EDM found: the document has no rdf:RDF element (namespace http://www.w3.org/1999/02/22-rdf-syntax-ns#) and is not an OAI-PMH response (its root element is <records> in no namespace). Give EDM RDF/XML records, one or many per file, or OAI-PMH responses carrying them.',
    },
  ]);
});
