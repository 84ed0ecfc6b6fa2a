/**
 * EDM files through `ingest items` into a real store and out of the real
 * server: the HOPE "Combat" hierarchy in
 * any order, and bad input reported with the rest of the run kept.
 * Expected ids are base32(SHA-1(CHO URI)), computed independently with
 * python3: base64.b32encode(hashlib.sha1(uri.encode()).digest()).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { startTestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { HOPE_DIR, HOPE_ISSUE, HOPE_ROOT, HOPE_YEAR, rdfText } from './helpers.js';
import { tempDir } from '../helpers/tempDir.js';

const ISSUE = 'TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H'; // http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662
const YEAR = 'G53HVTNXHGBYEWUH5MFAYL47CDIFQJU4'; // http://hdl.handle.net/10796/4BF04AA4-0D1B-4A8F-B4F3-A32EE1B05D064
const ROOT = 'WTJM2UE6ZMFKKSWS7TCDY6U2R4EQEHJG'; // http://hdl.handle.net/10796/76FC2677-F914-46F1-9A1B-D19450FE141E

const hopeFiles = () =>
  readdirSync(HOPE_DIR)
    .sort()
    .map((f) => join(HOPE_DIR, f));
const tmp = () => tempDir('edm');

/** A deterministic shuffle (mulberry32), so "any order" is a fixed, repeatable order. */
function shuffled<T>(list: T[], seed: number): T[] {
  const out = [...list];
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const node = (id: string, parent: string | null, label: string, leaf: boolean) => ({
  id,
  parent,
  label,
  type: '',
  position: '-1',
  leaf,
  aggregationEntity: false,
});
const EXPECTED = [
  node(ISSUE, YEAR, 'Combat (1974)13', true),
  node(YEAR, ROOT, 'Combat (1974)', false),
  node(ROOT, null, "Combat : hebdomadaire wallon d'action socialiste", false),
];

for (const backend of BACKENDS) {
  for (const [order, files] of [
    ['file-name order', hopeFiles()],
    ['reverse order (issues before their year and root)', hopeFiles().reverse()],
    ['shuffled order', shuffled(hopeFiles(), 42)],
  ] as const) {
    test(`[${backend.name}] HOPE "Combat" loaded in ${order}: parents of an issue is [issue, year, root], leaf right at all three levels`, async () => {
      const { store, dispose } = await backend.open();
      try {
        const summary = await ingestItems(store, files, { batchSize: 50 });
        assert.deepEqual([summary.records, summary.inserted, summary.problems, summary.cycles], [786, 786, [], []]);
        assert.deepEqual(await store.getAncestry(ISSUE), { nodes: EXPECTED, cycle: false });
        assert.deepEqual(await store.getAncestry(YEAR), { nodes: EXPECTED.slice(1), cycle: false });
        // The root has no parent: an empty hierarchy (docs/decisions.md "Hierarchy").
        assert.deepEqual(await store.getAncestry(ROOT), { nodes: [], cycle: false });
      } finally {
        await dispose();
      }
    });
  }

  test(`[${backend.name}] GET /items/{issue}/parents over HOPE: whole JSON and XML bodies`, async () => {
    const t = await startTestApp(backend, { load: [HOPE_ISSUE, HOPE_YEAR, HOPE_ROOT] });
    try {
      const json = await t.app.inject({ url: `/items/${ISSUE}/parents`, headers: t.json });
      assert.equal(json.statusCode, 200);
      assert.deepEqual(json.json(), { hierarchy: EXPECTED });
      const xml = await t.app.inject({ url: `/items/${ISSUE}/parents`, headers: t.xml });
      const n = (id: string, parent: string | null, label: string, leaf: boolean) =>
        `<ns2:hierarchy-node><id>${id}</id>${parent ? `<parent>${parent}</parent>` : ''}<label>${label}</label><type></type><position>-1</position><leaf>${leaf}</leaf><isAggregationEntity>false</isAggregationEntity></ns2:hierarchy-node>`;
      assert.equal(
        xml.body,
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
          '<hierarchy xmlns:ns2="http://www.deutsche-digitale-bibliothek.de/item">' +
          n(ISSUE, YEAR, 'Combat (1974)13', true) +
          n(YEAR, ROOT, 'Combat (1974)', false) +
          n(ROOT, null, "Combat : hebdomadaire wallon d'action socialiste", false) +
          '</hierarchy>',
      );
      // The package built from the EDM is served in both forms.
      const aip = await t.app.inject({ url: `/items/${ISSUE}/aip`, headers: t.json });
      assert.equal(aip.statusCode, 200);
      assert.equal(aip.json().properties['item-id'], ISSUE);
    } finally {
      await t.close();
    }
  });

  test(`[${backend.name}] re-loading the same EDM changes nothing, not even the ingest date`, async () => {
    const { store, dispose } = await backend.open();
    try {
      await ingestItems(store, [HOPE_ISSUE], {
        batchSize: 10,
        edm: { ingestDate: new Date('2026-01-01T00:00:00Z'), providersFingerprint: '' },
      });
      const before = (await store.getItemDocument(ISSUE, 'xml'))!;
      const again = await ingestItems(store, [HOPE_ISSUE], {
        batchSize: 10,
        edm: { ingestDate: new Date('2026-06-01T00:00:00Z'), providersFingerprint: '' },
      });
      assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, 1]);
      assert.deepEqual(await store.getItemDocument(ISSUE, 'xml'), before);
      // A different providers file rebuilds the package.
      const rebuilt = await ingestItems(store, [HOPE_ISSUE], {
        batchSize: 10,
        edm: { ingestDate: new Date('2026-06-01T00:00:00Z'), providersFingerprint: 'other' },
      });
      assert.deepEqual([rebuilt.inserted, rebuilt.updated, rebuilt.unchanged], [0, 1, 0]);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] bad EDM input: each problem reported with file and position, every good record kept`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const dir = tmp();
      const [issue, year, root] = [HOPE_ISSUE, HOPE_YEAR, HOPE_ROOT].map(rdfText) as [string, string, string];
      // Broken XML in the middle of a multi-record file: the record before it is kept.
      writeFileSync(join(dir, 'a-broken.xml'), `<records>\n${issue}\n${year.replace('</dc:title>', '')}\n${root}\n</records>\n`);
      // A record without a ProvidedCHO between two good ones.
      writeFileSync(join(dir, 'b-nocho.xml'), `<records>\n${year}\n${root.replace(/<edm:ProvidedCHO[^>]*\/>/, '')}\n</records>\n`);
      // Two CHOs with one URI in one file: the second is refused.
      writeFileSync(join(dir, 'c-twice.xml'), `<records>\n${root}\n${root}\n</records>\n`);
      const summary = await ingestItems(store, [dir], { batchSize: 10 });
      assert.equal(summary.records, 3, 'issue, year, root');
      assert.deepEqual(
        summary.problems.map((p) => [p.file.slice(dir.length + 1), p.position]),
        [
          ['a-broken.xml', 'record 2, line 3, column 2025'],
          ['b-nocho.xml', 'record 2, line 3, column 1'],
          ['c-twice.xml', 'record 2, line 3, column 660'],
        ],
      );
      assert.match(
        summary.problems[0]!.reason,
        /^XML is not well-formed \(unexpected end tag <\/ore:Proxy>.*records after this point in the file were not read/,
      );
      assert.match(summary.problems[1]!.reason, /^this rdf:RDF has no edm:ProvidedCHO/);
      assert.match(summary.problems[2]!.reason, /http:\/\/hdl\.handle\.net\/10796\/76FC2677-F914-46F1-9A1B-D19450FE141E/);
      assert.deepEqual(await Promise.all([ISSUE, YEAR, ROOT].map(async (id) => (await store.getItemDocument(id, 'json')) !== undefined)), [
        true,
        true,
        true,
      ]);
      assert.equal(await store.countItems(), 3);
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] an EDM file that stops being UTF-8: the records before are kept, the place is reported`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const dir = tmp();
      const [issue, root] = [HOPE_ISSUE, HOPE_ROOT].map(rdfText) as [string, string];
      // The second record written in Latin-1: its first non-ASCII character is not UTF-8.
      writeFileSync(
        join(dir, 'latin1.xml'),
        Buffer.concat([Buffer.from(`<records>\n${issue}\n`), Buffer.from(root, 'latin1'), Buffer.from('\n</records>\n')]),
      );
      const summary = await ingestItems(store, [dir], { batchSize: 10 });
      assert.equal(summary.records, 1);
      assert.equal(summary.problems.length, 1);
      assert.match(summary.problems[0]!.position, /^record 2, line 3, column \d+$/);
      assert.match(
        summary.problems[0]!.reason,
        /^the input is not UTF-8 \(invalid UTF-8 byte 0x[0-9a-f]{2} at byte offset \d+\): convert the file to UTF-8; records after this point/,
      );
      assert.ok(await store.getItemDocument(ISSUE, 'xml'));
    } finally {
      await dispose();
    }
  });

  test(`[${backend.name}] an isPartOf cycle between EDM records is reported after the load; parents stops where it repeats`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const dir = tmp();
      // The root made a child of the issue: issue -> year -> root -> issue.
      const issueUri = 'http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662';
      const root = rdfText(HOPE_ROOT).replace('</ore:Proxy>', `<dcterms:isPartOf rdf:resource="${issueUri}"/></ore:Proxy>`);
      writeFileSync(join(dir, 'root.xml'), root);
      const summary = await ingestItems(store, [HOPE_ISSUE, HOPE_YEAR, join(dir, 'root.xml')], { batchSize: 10 });
      assert.deepEqual(summary.problems, []);
      assert.equal(summary.cycles.length, 1);
      assert.deepEqual([...summary.cycles[0]!].sort(), [ISSUE, ISSUE, ROOT, YEAR].sort());
      const a = (await store.getAncestry(ISSUE))!;
      assert.equal(a.cycle, true);
      assert.deepEqual(
        a.nodes.map((x) => x.id),
        [ISSUE, YEAR, ROOT],
      );
    } finally {
      await dispose();
    }
  });
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] positions from edm:isNextInSequence in Europeana proxies, where ddb:hierarchyPosition is absent`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const dir = tmp();
      // Three issues of 1974 put in a sequence 13 -> 19 -> 52 through their proxies.
      const issue13 = 'http://hdl.handle.net/10796/0C787F5D-D4D6-40B0-B0A7-C196CD67891662';
      const file19 = join(HOPE_DIR, 'Item_35834476.xml');
      const file52 = join(HOPE_DIR, 'Item_35834477.xml');
      const uri19 = /ProvidedCHO rdf:about="([^"]+)"/.exec(rdfText(file19))![1]!;
      const after = (text: string, previous: string) =>
        text.replace('</ore:Proxy>', `<edm:isNextInSequence rdf:resource="${previous}"/></ore:Proxy>`);
      writeFileSync(join(dir, '52.xml'), after(rdfText(file52), uri19));
      writeFileSync(join(dir, '19.xml'), after(rdfText(file19), issue13));
      const summary = await ingestItems(store, [join(dir, '52.xml'), join(dir, '19.xml'), HOPE_ISSUE, HOPE_YEAR], { batchSize: 10 });
      assert.deepEqual(summary.problems, []);
      // Ids: base32(SHA-1) of the CHO URIs ...91662 (13), ...91661 (19), ...91660 (52), computed with python3.
      const position = async (id: string) => (await store.getAncestry(id))!.nodes[0]!.position;
      assert.deepEqual(await Promise.all([ISSUE, '5T6RTNLHED252CC4VKEV44J73IO4E5IZ', 'BZS5V4DBILGVYDIJR5U4LUQI2ZVSDXWO'].map(position)), [
        '1',
        '2',
        '3',
      ]);
      assert.equal((await store.getAncestry(ISSUE))!.nodes[1]!.position, '-1', 'the year is in no sequence');
    } finally {
      await dispose();
    }
  });
}
