// The EDM reader on OAI-PMH 2.0 responses: records with their headers (section 2.5),
// deleted records (2.5.1), error responses (3.6), GetRecord (4.1) and ListRecords (4.5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseXml } from '../../src/formats/xmlTree.js';
import { HOPE_ISSUE, HOPE_YEAR, MIMO_DIR, OAI_NS, rdfText, readAll, recordsOf } from './helpers.js';

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="${OAI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${OAI_NS} http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
<responseDate>2024-05-01T10:00:00Z</responseDate>`;

const LIST_RECORDS = `${HEAD}
<request verb="ListRecords" metadataPrefix="edm">http://example.org/oai</request>
<ListRecords>
<record><header><identifier>oai:hope:35834473</identifier><datestamp>2014-03-01</datestamp><setSpec>hope</setSpec><setSpec>hope:combat</setSpec></header>
<metadata>${rdfText(HOPE_ISSUE)}</metadata></record>
<record><header status="deleted"><identifier>oai:hope:gone</identifier><datestamp>2014-03-02</datestamp><setSpec>hope</setSpec></header></record>
<record><header><identifier>oai:hope:35837931</identifier><datestamp>2014-03-03</datestamp></header>
<metadata>${rdfText(HOPE_YEAR)}</metadata></record>
<resumptionToken completeListSize="5" cursor="0">page2</resumptionToken>
</ListRecords>
</OAI-PMH>
`;

test('ListRecords: each record carries its header, a deleted one gives a deleted result', async () => {
  const results = await readAll(LIST_RECORDS);
  assert.deepEqual(
    results.map((r) => ({ ...r, ...(r.kind === 'record' ? { record: r.record.choUri } : {}) })),
    [
      {
        kind: 'record',
        record: 'http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662',
        position: 'record 1 (OAI identifier oai:hope:35834473), line 7, column 670',
        oai: { identifier: 'oai:hope:35834473', datestamp: '2014-03-01', deleted: false, sets: ['hope', 'hope:combat'] },
      },
      {
        kind: 'deleted',
        position: 'record 2 (OAI identifier oai:hope:gone), line 8, column 1',
        oai: { identifier: 'oai:hope:gone', datestamp: '2014-03-02', deleted: true, sets: ['hope'] },
      },
      {
        kind: 'record',
        record: 'http://hdl.handle.net/10796/4BF04AA4-0D1B-4A8F-B4F3-A32EE1B05D064',
        position: 'record 3 (OAI identifier oai:hope:35837931), line 10, column 670',
        oai: { identifier: 'oai:hope:35837931', datestamp: '2014-03-03', deleted: false, sets: [] },
      },
    ],
  );
  // The records are those of the files read alone; the source gets the response's
  // declarations, so that it stands alone with the same meaning.
  const alone = [...recordsOf(await readAll(rdfText(HOPE_ISSUE))), ...recordsOf(await readAll(rdfText(HOPE_YEAR)))];
  const records = recordsOf(results);
  assert.deepEqual(
    records.map((r) => r.rdf),
    alone.map((r) => r.rdf),
  );
  const startTag = rdfText(HOPE_ISSUE).slice(0, rdfText(HOPE_ISSUE).indexOf('>'));
  assert.equal(
    records[0]!.sourceXml,
    `${startTag} xmlns="${OAI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"${rdfText(HOPE_ISSUE).slice(startTag.length)}`,
  );
  assert.deepEqual(parseXml(records[0]!.sourceXml), parseXml(rdfText(HOPE_ISSUE)));
  assert.deepEqual(await readAll(LIST_RECORDS, { chunkSize: 7 }), results);
});

test('GetRecord: one record with its header', async () => {
  const page = `${HEAD}
<request verb="GetRecord" identifier="oai:mimo:10000" metadataPrefix="edm">http://example.org/oai</request>
<GetRecord><record><header><identifier>oai:mimo:10000</identifier><datestamp>2012-01-01T00:00:00Z</datestamp></header><metadata>
${rdfText(`${MIMO_DIR}Item_10000.xml`)}
</metadata></record></GetRecord>
</OAI-PMH>`;
  const results = await readAll(page);
  assert.deepEqual(
    results.map((r) => [r.kind, r.position, 'oai' in r ? r.oai : undefined]),
    [
      [
        'record',
        'record 1 (OAI identifier oai:mimo:10000), line 6, column 658',
        { identifier: 'oai:mimo:10000', datestamp: '2012-01-01T00:00:00Z', deleted: false, sets: [] },
      ],
    ],
  );
  assert.deepEqual(
    recordsOf(results).map((r) => r.rdf),
    recordsOf(await readAll(rdfText(`${MIMO_DIR}Item_10000.xml`))).map((r) => r.rdf),
  );
});

test('an OAI-PMH error response gives one error with its code and message', async () => {
  const response = (error: string): string => `${HEAD}
  <request verb="ListRecords" metadataPrefix="edm" from="2030-01-01">http://example.org/oai</request>
  ${error}
</OAI-PMH>`;
  assert.deepEqual(await readAll(response('<error code="noRecordsMatch">No records match the request.</error>')), [
    { kind: 'error', reason: 'OAI-PMH error noRecordsMatch: No records match the request.', position: 'line 5, column 3' },
  ]);
  // Without a message, the meaning of the code from section 3.6.
  assert.deepEqual(await readAll(response('<error code="badArgument"/>')), [
    {
      kind: 'error',
      reason: 'OAI-PMH error badArgument: the request has an illegal or missing argument, or an argument repeated',
      position: 'line 5, column 3',
    },
  ]);
  // Several errors: one result each.
  assert.deepEqual(
    (await readAll(response('<error code="badVerb">Illegal verb</error>\n  <error code="badArgument">Bad from</error>'))).map(
      (r) => r.kind === 'error' && `${r.position}: ${r.reason}`,
    ),
    ['line 5, column 3: OAI-PMH error badVerb: Illegal verb', 'line 6, column 3: OAI-PMH error badArgument: Bad from'],
  );
});

test('an OAI-PMH record without EDM metadata is reported, the rest is read', async () => {
  const page = `${HEAD}
<ListRecords>
<record><header><identifier>oai:x:dc</identifier><datestamp>2020-01-01</datestamp></header><metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Not EDM</dc:title></oai_dc:dc></metadata></record>
<record><header><identifier>oai:hope:35834473</identifier><datestamp>2014-03-01</datestamp></header><metadata>${rdfText(HOPE_ISSUE)}</metadata></record>
</ListRecords>
</OAI-PMH>`;
  const results = await readAll(page);
  assert.deepEqual(
    results.map((r) => (r.kind === 'error' ? r : [r.kind, r.position])),
    [
      {
        kind: 'error',
        position: 'record 1 (OAI identifier oai:x:dc), line 5, column 1',
        reason:
          'this OAI-PMH record has no rdf:RDF in its metadata, so it is not EDM: harvest with the metadataPrefix under which the repository gives EDM (often "edm" or "rdf")',
        oai: { identifier: 'oai:x:dc', datestamp: '2020-01-01', deleted: false, sets: [] },
      },
      ['record', 'record 2 (OAI identifier oai:hope:35834473), line 6, column 770'],
    ],
  );
});

test('an empty ListRecords is no error', async () => {
  assert.deepEqual(await readAll(`${HEAD}<ListRecords/></OAI-PMH>`), []);
});
