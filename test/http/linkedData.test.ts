/**
 * Linked data by content negotiation (docs/linked-data.md): an item's EDM graph in JSON-LD,
 * Turtle, N-Triples and RDF/XML at /items/{id} and /items/{id}/edm, read back with real RDF
 * processors (test/helpers/rdf.ts) and compared with the stored RDF/XML as Raptor reads it: the
 * same triples, blank nodes matched by structure. Persons at /entities/{gnd}.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';
import { hasBlankNodes, rapperTriples, sameGraph, triplesOf } from '../helpers/rdf.js';
import { tempDir } from '../helpers/tempDir.js';

const CORTEX = 'http://www.deutsche-digitale-bibliothek.de/cortex';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const ITEM = 'http://www.deutsche-digitale-bibliothek.de/item';
const RDF_TYPES = ['application/ld+json', 'text/turtle', 'application/n-triples', 'application/rdf+xml'] as const;

/**
 * A package whose EDM has what makes graph comparison hard: two blank nodes alike in everything
 * but identity, a blank node named twice (rdf:nodeID), rdf:parseType Resource and Collection, an
 * XML literal, a typed literal, language tags and a relative IRI.
 */
const BLANKS_PACKAGE =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  `<cortex xmlns="${CORTEX}" xmlns:ns3="${RDF}">` +
  '<properties><item-id>BLANKITEM</item-id><ingest-id>1</ingest-id><ingest-date>26-11-21 12:00:00</ingest-date><cortex-type>Kultur</cortex-type></properties>' +
  '<edm><ns3:RDF xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:skos="http://www.w3.org/2004/02/skos/core#">' +
  `<edm:ProvidedCHO ns3:about="${ITEM}/BLANKITEM">` +
  '<dc:title xml:lang="de">Leere &amp; Knoten</dc:title><dc:title xml:lang="en">Blank &amp; nodes</dc:title>' +
  '<dc:creator><edm:Agent><skos:prefLabel>Anonym</skos:prefLabel></edm:Agent></dc:creator>' +
  '<dc:contributor><edm:Agent><skos:prefLabel>Anonym</skos:prefLabel></edm:Agent></dc:contributor>' +
  '<dc:contributor><edm:Agent><skos:prefLabel>Anonym</skos:prefLabel></edm:Agent></dc:contributor>' +
  '<dcterms:spatial ns3:parseType="Resource"><skos:prefLabel xml:lang="en">Somewhere</skos:prefLabel></dcterms:spatial>' +
  '<dcterms:temporal ns3:nodeID="t1"/><dcterms:created ns3:nodeID="t1"/>' +
  '<dc:date ns3:datatype="http://www.w3.org/2001/XMLSchema#gYear">1900</dc:date>' +
  '<dc:description ns3:parseType="Literal"><b xmlns="http://www.w3.org/1999/xhtml">fett</b> und mager</dc:description>' +
  '<dcterms:hasPart ns3:parseType="Collection"><ns3:Description ns3:about="#part1"/><ns3:Description ns3:about="#part2"/></dcterms:hasPart>' +
  '<edm:type>TEXT</edm:type>' +
  '</edm:ProvidedCHO>' +
  '<ns3:Description ns3:nodeID="t1"><skos:prefLabel>1900er</skos:prefLabel></ns3:Description>' +
  '</ns3:RDF></edm>' +
  '</cortex>';

/** Real records: the cortex packages (two of them with EDM that is not RDF/XML), EDM with blank nodes and relative IRIs, a Europeana record. */
function fixtureDir(): string {
  const dir = tempDir('ld');
  for (const file of ['mimo/Item_5791825.xml', 'mimo/09102_Ag_EU_MIMO_EDM_record103.xml', 'misc/europeana-valid-record.xml']) {
    copyFileSync(join(FIXTURES, 'items/edm', file), join(dir, file.replace('/', '-')));
  }
  writeFileSync(join(dir, 'BLANKITEM.xml'), BLANKS_PACKAGE);
  return dir;
}

function get(t: TestApp, url: string, accept: string | undefined, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { authorization: t.json.authorization!, ...extra };
  if (accept !== undefined) headers.accept = accept;
  return t.app.inject({ url, headers });
}

async function allIds(t: TestApp): Promise<string[]> {
  return t.store.listItemIds({ limit: 1000 });
}

const baseOf = (id: string) => `${ITEM}/${id}`;

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (run: (t: TestApp) => Promise<void>) => {
    const t = await startTestApp(backend, { load: [CORTEX_DIR, fixtureDir()], loadEntities: [join(FIXTURES, 'persons/entityfacts')] });
    try {
      await run(t);
    } finally {
      await t.close();
    }
  };

  test(`${b} every item's EDM in every RDF syntax, at /items/{id}, /items/{id}/edm and under /2, is the graph of the stored RDF/XML`, () =>
    withApp(async (t) => {
      const ids = await allIds(t);
      assert.ok(ids.length >= 9, `the fixtures are loaded (${ids.length})`);
      let compared = 0;
      let withBlankNodes = 0;
      let notRdf = 0;
      for (const id of ids) {
        const stored = await get(t, `/items/${id}/edm`, 'application/rdf+xml');
        assert.equal(stored.statusCode, 200, id);
        const reference = rapperTriples(stored.body, baseOf(id));
        if (reference === undefined) {
          // Not RDF/XML (a package made from the JSON form): refused in every other syntax, served as stored in RDF/XML.
          notRdf++;
          for (const path of [`/items/${id}`, `/items/${id}/edm`]) {
            const asRdfXml = await get(t, path, 'application/rdf+xml');
            assert.equal(asRdfXml.body, stored.body, `${path} as RDF/XML`);
            for (const type of RDF_TYPES.slice(0, 3)) {
              const res = await get(t, path, type);
              assert.equal(res.statusCode, 406, `${path} ${type}`);
              assert.match(
                res.body,
                new RegExp(
                  `^\\{"status":406,"name":"NotAcceptableException","message":"The EDM of item '${id}' is not RDF/XML that can be read as triples \\(the property element edm:aggregatedCHO holds 2 node elements; it may hold one\\), so it cannot be given as ${type.replace('+', '\\+')}\\. Ask for application/rdf\\+xml: GET /items/${id}/edm serves it as stored\\."\\}$`,
                ),
              );
            }
          }
          continue;
        }
        assert.ok(reference.length > 0, id);
        if (hasBlankNodes(reference)) withBlankNodes++;
        for (const path of [`/items/${id}`, `/items/${id}/edm`, `/2/items/${id}`, `/2/items/${id}/edm`]) {
          for (const type of RDF_TYPES) {
            const res = await get(t, path, type);
            assert.equal(res.statusCode, 200, `${path} ${type}`);
            assert.equal(res.headers['content-type'], `${type}; charset=utf-8`, `${path} ${type}`);
            assert.equal(res.headers.vary, 'Accept, Accept-Encoding');
            const triples = await triplesOf(type, res.body, baseOf(id));
            assert.equal(triples.length, reference.length, `${path} ${type}: as many triples`);
            assert.ok(sameGraph(triples, reference), `${path} ${type}: the graph of the stored RDF/XML`);
            compared++;
          }
        }
        // RDF/XML is the stored document itself, byte for byte, on both paths.
        assert.equal((await get(t, `/items/${id}`, 'application/rdf+xml')).body, stored.body, id);
      }
      assert.equal(notRdf, 2, 'the two JSON-made cortex packages whose EDM is not RDF/XML');
      assert.ok(withBlankNodes >= 2, `items with blank nodes, a real record's among them: ${withBlankNodes}`);
      assert.ok(compared >= 7 * 16, `${compared} answers compared`);
    }));

  test(`${b} the blank-node package: every syntax keeps three agents apart, the shared node, the collection and the XML literal`, () =>
    withApp(async (t) => {
      const reference = rapperTriples((await get(t, '/items/BLANKITEM/edm', 'application/rdf+xml')).body, baseOf('BLANKITEM'))!;
      assert.ok(reference !== undefined);
      // 2 titles, 3 agents (3 links, 3 types, 3 labels), spatial (1 + 1), 2 links to t1 and its label, date,
      // description, hasPart and its list of 2 (4 list triples + 1 link), edm:type, the rdf:type of the CHO.
      const agents = reference.filter(
        (q) => q.object.termType === 'NamedNode' && q.object.value === 'http://www.europeana.eu/schemas/edm/Agent',
      );
      assert.equal(agents.length, 3);
      assert.equal(new Set(agents.map((q) => q.subject.value)).size, 3, 'three blank nodes for three agents alike');
      for (const type of RDF_TYPES) {
        const res = await get(t, '/items/BLANKITEM', type);
        const triples = await triplesOf(type, res.body, baseOf('BLANKITEM'));
        assert.ok(sameGraph(triples, reference), type);
        // One agent fewer is not the same graph: the comparison sees blank nodes.
        const lessOne = triples.filter(
          (q) => !(q.subject.termType === 'BlankNode' && q === triples.find((x) => x.subject.equals(q.subject))),
        );
        assert.ok(!sameGraph(lessOne, reference), `${type}: a changed graph is told apart`);
      }
      const turtle = (await get(t, '/items/BLANKITEM/edm', 'text/turtle')).body;
      assert.match(turtle, /^@prefix rdf: <http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#>\./);
      assert.match(
        turtle,
        /<http:\/\/www\.deutsche-digitale-bibliothek\.de\/item\/BLANKITEM#part1>/,
        'the relative IRI resolved against the item',
      );
      // The same document gives the same text every time (stable blank node labels: one ETag, one body).
      assert.equal((await get(t, '/items/BLANKITEM/edm', 'text/turtle', { 'cache-control': 'no-cache' })).body, turtle);
    }));

  test(`${b} negotiation: q-values honoured, JSON and XML as before, 406 lists every offer`, () =>
    withApp(async (t) => {
      const id = 'BLANKITEM';
      const pkgJson = (await get(t, `/items/${id}/aip`, 'application/json')).body;
      const pkgXml = (await get(t, `/items/${id}/aip`, 'application/xml')).body;
      const turtle = (await get(t, `/items/${id}`, 'text/turtle')).body;
      const rdfXml = (await get(t, `/items/${id}/edm`, 'application/rdf+xml')).body;
      const edmJson = (await get(t, `/items/${id}/edm`, 'application/json')).body;
      const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const cases: Array<[string, string | undefined, string, string]> = [
        // path, Accept, Content-Type, body
        [`/items/${id}`, '*/*', 'application/json; charset=utf-8', pkgJson],
        [`/items/${id}`, 'application/*', 'application/json; charset=utf-8', pkgJson],
        [`/items/${id}`, browser, 'application/xml; charset=utf-8', pkgXml],
        [`/items/${id}`, 'text/*', 'text/xml; charset=utf-8', pkgXml],
        [`/items/${id}`, 'application/json;q=0.5, text/turtle', 'text/turtle; charset=utf-8', turtle],
        [`/items/${id}`, 'text/turtle;q=0.5, application/json', 'application/json; charset=utf-8', pkgJson],
        [`/items/${id}`, 'text/turtle;q=0.9, application/rdf+xml', 'application/rdf+xml; charset=utf-8', rdfXml],
        [`/items/${id}`, 'application/ld+json;q=0, text/turtle;q=0.1', 'text/turtle; charset=utf-8', turtle],
        [`/items/${id}/edm`, '*/*', 'application/rdf+xml; charset=utf-8', rdfXml],
        [`/items/${id}/edm`, 'application/json', 'application/json; charset=utf-8', edmJson],
        [`/items/${id}/edm`, 'application/rdf+xml;q=0.2, text/turtle;q=0.3', 'text/turtle; charset=utf-8', turtle],
        [`/items/${id}/edm`, 'text/turtle;q=0.2, application/rdf+xml;q=0.3', 'application/rdf+xml; charset=utf-8', rdfXml],
      ];
      for (const [path, accept, type, body] of cases) {
        const res = await get(t, path, accept);
        assert.equal(res.statusCode, 200, `${path} ${accept}`);
        assert.equal(res.headers['content-type'], type, `${path} ${accept}`);
        assert.equal(res.body, body, `${path} ${accept}`);
      }
      const refused = await get(t, `/items/${id}`, 'text/html, image/png');
      assert.equal(refused.statusCode, 406);
      assert.equal(
        refused.body,
        '{"status":406,"name":"NotAcceptableException","message":"The requested type is not acceptable. Send an Accept header that allows ' +
          'application/json, application/xml, text/xml, application/ld+json, text/turtle, application/n-triples or application/rdf+xml."}',
      );
      const refusedEdm = await get(t, `/items/${id}/edm`, 'text/html');
      assert.equal(refusedEdm.statusCode, 406);
      assert.equal(
        refusedEdm.body,
        '{"status":406,"name":"NotAcceptableException","message":"The requested type is not acceptable. Send an Accept header that allows ' +
          'application/rdf+xml, application/json, application/xml, text/xml, application/ld+json, text/turtle or application/n-triples."}',
      );
      const none = await get(t, `/items/${id}`, undefined);
      assert.equal(none.statusCode, 406, 'http.requireAccept (the default) and no Accept');
      assert.equal(
        JSON.parse(none.body).message,
        'The requested type is not acceptable. Send an Accept header that allows ' +
          'application/json, application/xml, text/xml, application/ld+json, text/turtle, application/n-triples or application/rdf+xml (none was sent).',
      );
      // /aip stays the package's alone.
      assert.equal((await get(t, `/items/${id}/aip`, 'text/turtle')).statusCode, 406);
    }));

  test(`${b} validators, compression and errors of the RDF answers`, () =>
    withApp(async (t) => {
      const first = await get(t, '/items/BLANKITEM', 'text/turtle');
      const etag = first.headers.etag as string;
      assert.match(etag, /^"[^"]+-edm-ttl"$/);
      assert.notEqual((await get(t, '/items/BLANKITEM', 'application/n-triples')).headers.etag, etag, 'each syntax its own ETag');
      assert.equal((await get(t, '/items/BLANKITEM/edm', 'text/turtle')).headers.etag, etag, 'one graph, one ETag on both paths');
      const again = await get(t, '/items/BLANKITEM', 'text/turtle', { 'if-none-match': etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      const packed = await get(t, '/items/BLANKITEM', 'application/ld+json', { 'accept-encoding': 'br' });
      assert.equal(packed.headers['content-encoding'], 'br');
      const { brotliDecompressSync } = await import('node:zlib');
      assert.equal(
        brotliDecompressSync(packed.rawPayload).toString('utf8'),
        (await get(t, '/items/BLANKITEM', 'application/ld+json')).body,
      );

      const missing = await get(t, '/items/NOSUCHITEM', 'text/turtle');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.body, '{"status":404,"name":"ItemNotFoundException","message":"Item \'NOSUCHITEM\' not found."}');
      const bad = await get(t, '/items/..bad', 'text/turtle');
      assert.equal(bad.statusCode, 400);
      assert.equal(JSON.parse(bad.body).name, 'InvalidItemIdException');
      const anonymous = await t.app.inject({ url: '/items/BLANKITEM', headers: { accept: 'text/turtle' } });
      assert.equal(anonymous.statusCode, 401, 'behind a key, as the package is');
    }));

  test(`${b} a person as JSON-LD, Turtle and N-Triples in GND and schema.org terms`, () =>
    withApp(async (t) => {
      const turtle = await get(t, '/entities/124963463', 'text/turtle');
      assert.equal(turtle.statusCode, 200);
      assert.equal(turtle.headers['content-type'], 'text/turtle; charset=utf-8');
      assert.equal(turtle.body, ZADEK_TURTLE);
      const reference = await triplesOf('text/turtle', turtle.body, 'http://d-nb.info/gnd/');
      for (const [accept, type] of [
        ['*/*', 'application/ld+json'],
        ['application/ld+json', 'application/ld+json'],
        ['application/json', 'application/json'],
        ['application/n-triples', 'application/n-triples'],
        ['application/n-triples;q=0.5, text/turtle;q=0.4', 'application/n-triples'],
      ] as const) {
        const res = await get(t, '/2/entities/124963463', accept);
        assert.equal(res.statusCode, 200, accept);
        assert.equal(res.headers['content-type'], `${type}; charset=utf-8`, accept);
        assert.ok(sameGraph(await triplesOf(type, res.body, 'http://d-nb.info/gnd/'), reference), `${accept}: the same graph`);
      }
      const ld = (await get(t, '/entities/124963463', 'application/ld+json')).json<Record<string, unknown>>();
      assert.deepEqual(Object.keys(ld['@context'] as object), ['rdf', 'rdfs', 'xsd', 'owl', 'gndo', 'schema']);
      const etag = turtle.headers.etag as string;
      assert.equal((await get(t, '/entities/124963463', 'text/turtle', { 'if-none-match': etag })).statusCode, 304);

      for (const gnd of ['999999999', 'abc', '1'.repeat(30)]) {
        const res = await get(t, `/entities/${gnd}`, 'text/turtle');
        assert.equal(res.statusCode, 404, gnd);
        assert.equal(
          res.body,
          `{"status":404,"name":"PersonNotFoundException","message":"There is no person '${gnd}'. /entities/{gnd} takes the GND number of a stored person (e.g. 118540238); GET /entities?query=… searches the persons."}`,
        );
      }
      const refused = await get(t, '/entities/124963463', 'application/rdf+xml');
      assert.equal(refused.statusCode, 406);
      assert.equal(
        JSON.parse(refused.body).message,
        'The requested type is not acceptable. Send an Accept header that allows application/ld+json, application/json, text/turtle or application/n-triples.',
      );
      // The entity search's own paths are still theirs.
      assert.equal((await get(t, '/entities/sortcriteria', 'application/json')).statusCode, 200);
    }));

  test(`${b} the fast path leaves an Accept that ranks an RDF syntax first to the route`, async () => {
    const t = await startTestApp(backend, { load: [fixtureDir()] });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as { port: number }).port;
      const viaSocket = (path: string, headers: OutgoingHttpHeaders) =>
        new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path, headers: { ...headers, host: 'localhost' }, agent: false }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: Buffer.concat(chunks).toString() }),
            );
          });
          req.on('error', reject);
          req.end();
        });
      for (const accept of ['text/turtle, application/json;q=0.9', 'application/n-triples', 'application/rdf+xml;q=1, */*;q=0.1']) {
        for (const path of ['/items/BLANKITEM', '/2/items/BLANKITEM']) {
          const socket = await viaSocket(path, { accept, authorization: t.json.authorization! });
          const injected = await get(t, path, accept);
          assert.equal(socket.status, 200, accept);
          assert.equal(socket.type, injected.headers['content-type'], accept);
          assert.equal(socket.body, injected.body, accept);
          assert.notEqual(socket.type, 'application/json; charset=utf-8', accept);
        }
      }
    } finally {
      await t.close();
    }
  });
}

/** fixtures/persons/entityfacts: Ignaz Zadek, with a variant name, years of birth and death and an occupation. */
const ZADEK_TURTLE = `@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>.
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
@prefix xsd: <http://www.w3.org/2001/XMLSchema#>.
@prefix owl: <http://www.w3.org/2002/07/owl#>.
@prefix gndo: <https://d-nb.info/standards/elementset/gnd#>.
@prefix schema: <http://schema.org/>.

<http://d-nb.info/gnd/124963463> a gndo:DifferentiatedPerson, schema:Person;
    gndo:gndIdentifier "124963463";
    owl:sameAs <https://d-nb.info/gnd/124963463>;
    schema:sameAs <https://d-nb.info/gnd/124963463>;
    gndo:preferredNameForThePerson "Ignaz Zadek";
    schema:name "Ignaz Zadek";
    gndo:variantNameForThePerson "I. Zadek";
    schema:alternateName "I. Zadek";
    gndo:dateOfBirth "1858"^^xsd:gYear;
    schema:birthDate "1858"^^xsd:gYear;
    gndo:dateOfDeath "1931"^^xsd:gYear;
    schema:deathDate "1931"^^xsd:gYear;
    gndo:professionOrOccupation _:professionOrOccupation0;
    schema:hasOccupation _:professionOrOccupation0.
_:professionOrOccupation0 a schema:Occupation;
    rdfs:label "Arzt";
    schema:name "Arzt".
`;
