// The EDM inside two real DDB packages (fixtures/items/cortex/*.xml), run through
// buildPackage: the package built must agree with the real one on the item id, the edm
// part, the hierarchy fields and the key facets.
// Expected values are read from the real package itself.
//
// What cannot be derived from the EDM alone, and is therefore not compared:
// - apd_keywords_fct (4XUD...: "Druckgraphik"): not in spec 2.4's facet list; it is the
//   LIDO classification term of the provider's original record, not an EDM statement.
// - the order of the role values in affiliate_fct_role(_normdata): 4XUD lists the subject
//   role before the involved ones, the newer bare_id.json the other way round; the values
//   are compared as sets.
// - view identifier / provider-item-id ("DE-MUS-046417/1710", "PPN667449868_DMDLOG_0013"):
//   the provider's own record id, which the EDM does not carry.
// - the subtitle of NF42... ("Erschienen in: <title of the book>"): the parent's title.
// - binaries of 4XUD...: the real ones come from the LIDO record's images; its EDM has
//   only the web page (edm:isShownAt).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { buildPackage } from '../../src/ingest/edm/buildPackage.js';
import { readProvidersFile } from '../../src/ingest/edm/providers.js';
import type { EdmRecord } from '../../src/ingest/edm/types.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import { CHAPTER_ID, CORTEX_DIR, OTHER_CORTEX_ID } from '../helpers/paths.js';

type Obj = Record<string, unknown>;
const INGEST = new Date('2014-06-19T13:42:21Z');

const child = (el: XmlElement, local: string): XmlElement => {
  const found = el.children.find((c): c is XmlElement => typeof c !== 'string' && c.local === local);
  assert.ok(found, `<${el.local}> has <${local}>`);
  return found;
};

/** The real package, and the EDM record inside it: its rdf:RDF and its metadata-record as the source text. */
function fromRealPackage(id: string): { realXml: string; real: Obj; record: EdmRecord } {
  const realXml = readFileSync(`${CORTEX_DIR}${id}.xml`, 'utf8');
  const root = parseXml(realXml);
  const rdf = child(child(root, 'edm'), 'RDF');
  const real = cortexToJson(root);
  return {
    realXml,
    real,
    record: { choUri: `http://www.deutsche-digitale-bibliothek.de/item/${id}`, rdf, sourceXml: real['metadata-record'] as string },
  };
}

function facets(pkg: Obj): Map<string, string[]> {
  const list = (pkg['indexing-profile'] as Obj).facet as Obj[];
  return new Map(list.map((f) => [f['@name'] as string, Array.isArray(f.value) ? (f.value as string[]) : [f.value as string]]));
}

const NOT_DERIVABLE = new Set(['apd_keywords_fct', 'last_update']);
const ROLE_FACETS = new Set(['affiliate_fct_role', 'affiliate_fct_role_normdata']);

for (const id of [CHAPTER_ID, OTHER_CORTEX_ID]) {
  test(`real package ${id}: item id, edm, hierarchy fields and facets agree`, () => {
    const { realXml, real, record } = fromRealPackage(id);
    const { itemId, xml } = buildPackage(record, { ingestDate: INGEST, ingestId: (real.properties as Obj)['ingest-id'] as string });
    const pkg = cortexToJson(parseXml(xml));

    assert.equal(itemId, id); // the CHO's rdf:about is the DDB item URI
    assert.deepEqual(pkg.edm, real.edm);
    assert.equal(pkg['metadata-record'], real['metadata-record']);

    const [ours] = readItemRecords(xml);
    const [theirs] = readItemRecords(realXml);
    assert.ok(ours?.kind === 'item' && theirs?.kind === 'item');
    const pick = (i: typeof ours.item) => ({
      id: i.id,
      label: i.label,
      choUri: i.choUri,
      parentRef: i.parentRef,
      hierarchyType: i.hierarchyType,
      position: i.position,
      aggregationEntity: i.aggregationEntity,
    });
    assert.deepEqual(pick(ours.item), pick(theirs.item));

    const mine = facets(pkg);
    const real_ = facets(real);
    assert.deepEqual(
      [...mine.keys()].filter((k) => !NOT_DERIVABLE.has(k)),
      [...real_.keys()].filter((k) => !NOT_DERIVABLE.has(k)),
    );
    for (const [name, values] of real_) {
      if (NOT_DERIVABLE.has(name)) continue;
      if (ROLE_FACETS.has(name)) assert.deepEqual([...(mine.get(name) ?? [])].sort(), [...values].sort(), name);
      else assert.deepEqual(mine.get(name), values, name);
    }
    assert.deepEqual(mine.get('last_update'), [(pkg.properties as Obj)['ingest-date']]);

    const view = (pkg.view as Obj).item as Obj;
    const realView = (real.view as Obj).item as Obj;
    for (const key of ['label', 'title', 'metadata-rights', 'origin', 'category', 'media', 'thumbnail', 'latitude', 'longitude']) {
      assert.equal(view[key], realView[key], `view.item.${key}`);
    }
    const license = view.license as Obj;
    const realLicense = realView.license as Obj;
    assert.equal(license['@resource'], realLicense['@resource']);
    // 4XUD's label has doubled spaces ("Namensnennung  – Nicht-kommerziell  – ..."); the words agree.
    assert.equal(license.$, String(realLicense.$).replace(/\s+/g, ' '));
    assert.equal((view.institution as Obj).name, (realView.institution as Obj).name);
    assert.equal((pkg['provider-info'] as Obj)['provider-name'], (real['provider-info'] as Obj)['provider-name']);
    const preview = pkg.preview as Obj;
    const realPreview = real.preview as Obj;
    assert.deepEqual(
      [preview['@type'], preview['@media'], preview.title],
      [realPreview['@type'], realPreview['@media'], realPreview.title],
    );
  });
}

test(`${CHAPTER_ID}: the chapter's hierarchy fields, binary and thumbnail as in the real package`, () => {
  const { real, record } = fromRealPackage(CHAPTER_ID);
  const { xml } = buildPackage(record, { ingestDate: INGEST });
  const [read] = readItemRecords(xml);
  assert.ok(read?.kind === 'item');
  // ddb:hierarchyType, ddb:hierarchyPosition, dcterms:isPartOf, dc:title of the ProvidedCHO
  assert.deepEqual(
    [read.item.hierarchyType, read.item.position, read.item.parentRef, read.item.label],
    ['htype_018', 'DMDLOG_0013', 'http://www.deutsche-digitale-bibliothek.de/item/X25Y2NE7RRBGD2YT36TYQTUNSDGJVBFR', 'XI. * * *'],
  );
  const pkg = cortexToJson(parseXml(xml));
  // edm:object .../00000074.jpg is the only digital object: list/1.jpg, as the real `list` binary.
  const realList = ((real.binaries as Obj).binary as Obj[]).find((b) => b['@category'] === 'list') as Obj;
  const ours = (pkg.binaries as Obj).binary as Obj;
  for (const key of ['@primary', '@position', '@path', '@mimetype', '@name']) assert.equal(ours[key], realList[key], key);
  assert.deepEqual((pkg.preview as Obj).thumbnail, (real.preview as Obj).thumbnail);
});

test(`${OTHER_CORTEX_ID}: with the provider's facts in a providers file, provider-info is the real one`, () => {
  const { real, record } = fromRealPackage(OTHER_CORTEX_ID);
  // The facts of the real provider-info and its parent (the parent shares name and website).
  const providers = readProvidersFile(
    JSON.stringify({
      providers: [
        {
          name: 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
          uri: 'http://www.goethehaus-frankfurt.de',
          domains: ['Museum'],
          ids: { 'provider-id': '99900860', 'provider-ddb-id': 'YNKIAG7DFC4HZOATBPG75IFEY5BUDYUS', 'provider-parent-id': '00012362' },
          latitude: '50.1113162',
          longitude: '8.6776821',
        },
        {
          name: 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
          uri: 'http://www.goethehaus-frankfurt.de',
          domains: ['Bibliothek'],
          ids: { 'provider-id': '00012362', 'provider-ddb-id': '6MZ5APQTMS5AH2UGHRWBKVAOZ7LSCCMS' },
          latitude: '50.1113162',
          longitude: '8.6776821',
        },
      ],
    }),
  );
  const pkg = cortexToJson(parseXml(buildPackage(record, { ingestDate: INGEST, providers }).xml));
  const expected = { ...(real['provider-info'] as Obj) };
  // The provider's own record id is not in the EDM: ours is the CHO URI.
  expected['provider-item-id'] = `http://www.deutsche-digitale-bibliothek.de/item/${OTHER_CORTEX_ID}`;
  assert.deepEqual(pkg['provider-info'], expected);
  const institution = ((pkg.view as Obj).item as Obj).institution as Obj;
  const realInstitution = ((real.view as Obj).item as Obj).institution as Obj;
  assert.deepEqual([institution.url, institution.id, institution.name], [realInstitution.url, realInstitution.id, realInstitution.name]);
});
