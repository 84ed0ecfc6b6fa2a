/**
 * The OAI-PMH `edm` format's cut of the stored package text (src/formats/oai/edmPart.ts)
 * means what `/items/{id}/edm` serves (src/formats/packageParts.ts), for every package of
 * the fixtures as the store keeps them (cortex files, package JSON, packages built from EDM):
 * the same element tree, names and namespaces resolved, attributes, text. Odd shapes take
 * the parsing path and mean the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { EDM_CLOSE, edmRdfElement } from '../../src/formats/oai/edmPart.js';
import { FORMATS } from '../../src/http/oai/provider.js';
import { decodeBody, decodeBodyThrough, encodeBody } from '../../src/store/bodyCodec.js';
import { packagePart } from '../../src/formats/packageParts.js';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { SQLITE } from '../helpers/backends.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

/** The provider's `edm` format, given a package in its stored form (src/store/bodyCodec.ts). */
const edmOfStored = FORMATS.find((f) => f.prefix === 'edm')!.write;

type Tree = { name: string; attributes: string[]; children: Array<Tree | string> };

/** An element as its meaning: namespace and local names, attributes sorted; xmlns declarations are not attributes. */
function tree(el: XmlElement): Tree {
  return {
    name: `{${el.namespace}}${el.local}`,
    attributes: el.attributes.map((a) => `{${a.namespace}}${a.local}=${a.value}`).sort(),
    children: el.children.map((c) => (typeof c === 'string' ? c : tree(c))),
  };
}

function viaParser(xml: string): Tree | undefined {
  const part = packagePart(parseXml(xml), '', 'edm');
  return part.kind === 'part' ? tree(parseXml(part.xml)) : undefined;
}

test('every fixture package: the cut EDM is the EDM part', async () => {
  const opened = await SQLITE.open();
  try {
    const edmDirs = readdirSync(join(FIXTURES, 'items/edm')).map((d) => join(FIXTURES, 'items/edm', d));
    await ingestItems(opened.store, [CORTEX_DIR, ...edmDirs], { batchSize: 200 });
    const ids = await opened.store.listItemIds({ limit: 10_000 });
    assert.ok(ids.length > 800, `${ids.length} packages`);
    let fromStart = 0;
    for (const id of ids) {
      const bytes = (await opened.store.getItemDocument(id, 'xml'))!.body;
      const xml = bytes.toString('utf8');
      const cut = edmRdfElement(xml);
      assert.ok(cut !== undefined, `${id}: has EDM`);
      assert.deepEqual(tree(parseXml(cut)), viaParser(xml), `${id}: the same EDM`);
      // The stored bytes, as the provider hands them over: only the prefix up to </edm> decoded.
      assert.equal(edmRdfElement(bytes), cut, `${id}: the same cut from the bytes`);
      // The stored form, as the provider gets it: only the start of it decoded.
      const stored = encodeBody(bytes);
      const start = decodeBodyThrough(stored, EDM_CLOSE);
      if (start !== undefined) {
        fromStart++;
        assert.ok(start.equals(bytes.subarray(0, bytes.indexOf(EDM_CLOSE) + EDM_CLOSE.length)), `${id}: the start is the package's`);
      }
      assert.equal(edmOfStored(stored), cut, `${id}: the same cut from the stored form`);
    }
    // Those whose edm part ends past the first half of the stored form are decoded whole, a few.
    assert.ok(fromStart >= ids.length * 0.9, `${fromStart} of ${ids.length} cut from the first half of the stored form`);
  } finally {
    await opened.dispose();
  }
});

test('odd shapes: a comment, a prefixed RDF bound on <edm>, an element in the default namespace, no EDM at all', () => {
  const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
  const CORTEX = 'http://www.deutsche-digitale-bibliothek.de/cortex';
  const shapes = [
    `<?xml version="1.0"?><!-- made by hand --><cortex xmlns="${CORTEX}"><properties/><edm xmlns:r="${RDF}"><r:RDF><r:Description r:about="x"><title>T</title></r:Description></r:RDF></edm></cortex>`,
    `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><edm><r:RDF r:about="y"/></edm></cortex>`,
    `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><edm><r:RDF><!-- inside --><r:Description/></r:RDF></edm></cortex>`,
    `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><edm><r:RDF><r:Description a="&lt;edm&gt;"/></r:RDF></edm><view/></cortex>`,
    // Where a first </edm> is not the edm part's end, and text of several bytes a character.
    `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><!-- </edm> --><edm><r:RDF><r:Description a="Grüße"/></r:RDF></edm></cortex>`,
    `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><properties><![CDATA[</edm>]]></properties><edm><r:RDF r:about="ä"/></edm></cortex>`,
    `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><edm><r:RDF><r:Description a="ß"/></r:RDF></edm ><view><![CDATA[</edm>]]></view></cortex>`,
    `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><edm><r:RDF><r:Description a="€"/></r:RDF></edm><!-- after --></cortex>`,
  ];
  for (const xml of shapes) {
    const cut = edmRdfElement(xml);
    assert.ok(cut !== undefined, xml);
    assert.deepEqual(tree(parseXml(cut)), viaParser(xml), xml);
    const fromBytes = edmRdfElement(Buffer.from(xml, 'utf8'));
    assert.ok(fromBytes !== undefined, `bytes: ${xml}`);
    assert.deepEqual(tree(parseXml(fromBytes)), viaParser(xml), `bytes: ${xml}`);
    assert.equal(edmOfStored(encodeBody(xml)), fromBytes, `stored: ${xml}`);
  }
  assert.equal(edmOfStored(encodeBody(`<cortex xmlns="${CORTEX}"><properties/></cortex>`)), undefined);
  assert.equal(edmRdfElement(Buffer.from(`<cortex xmlns="${CORTEX}"><properties/></cortex>`)), undefined);
  assert.equal(edmRdfElement(`<cortex xmlns="${CORTEX}"><properties/></cortex>`), undefined);
  // An RDF prefix that is not RDF's namespace is no EDM part.
  assert.equal(edmRdfElement(`<cortex xmlns="${CORTEX}" xmlns:r="urn:other"><edm><r:RDF/></edm></cortex>`), undefined);
});

test('an edm part late in the package: decoded from the whole stored form', () => {
  const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
  const CORTEX = 'http://www.deutsche-digitale-bibliothek.de/cortex';
  // 40 KB that brotli cannot shrink before a small edm part: its end lies past the stored form's first half.
  const xml = `<cortex xmlns="${CORTEX}" xmlns:r="${RDF}"><properties>${randomBytes(30_000).toString('base64')}</properties><edm><r:RDF r:about="z"/></edm></cortex>`;
  const stored = encodeBody(xml);
  assert.equal(decodeBodyThrough(stored, EDM_CLOSE), undefined);
  assert.equal(decodeBody(stored).toString('utf8'), xml);
  assert.equal(edmOfStored(stored), edmRdfElement(xml));
  assert.ok(edmRdfElement(xml)?.includes('r:about="z"'));
});
