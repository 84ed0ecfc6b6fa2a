/**
 * writeXmlDocument: an element cut out of a document, written as a document
 * of its own, parses back to the same element (names, namespaces,
 * attributes, text), whatever its ancestors declared (the parts of a package are served on
 * their own: docs/decisions.md "Parts of a package").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseXml, type XmlElement } from '../../src/formats/xmlTree.js';
import { writeXmlDocument } from '../../src/formats/xmlWrite.js';
import { CHAPTER_ID, CORTEX_DIR, OTHER_CORTEX_ID } from '../helpers/paths.js';

/** What a namespace-aware reader sees of an element: prefixes as written do not count. */
function meaning(el: XmlElement): unknown {
  return {
    namespace: el.namespace,
    local: el.local,
    attributes: el.attributes.map((a) => [a.namespace, a.local, a.value]),
    children: el.children.map((c) => (typeof c === 'string' ? c : meaning(c))),
  };
}

function* descendants(el: XmlElement, depth: number): Generator<XmlElement> {
  if (depth === 0) return;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    yield c;
    yield* descendants(c, depth - 1);
  }
}

test('every element down to depth 3 of the real cortex files round-trips', () => {
  for (const id of [CHAPTER_ID, OTHER_CORTEX_ID]) {
    const root = parseXml(readFileSync(`${CORTEX_DIR}${id}.xml`, 'utf8'));
    let count = 0;
    for (const el of descendants(root, 3)) {
      assert.deepEqual(meaning(parseXml(writeXmlDocument(el))), meaning(el), `${id} ${el.name}`);
      count++;
    }
    assert.ok(count > 50, `${id}: ${count} elements`);
  }
});

test('namespaces of the ancestors are declared where first needed, under the prefix written', () => {
  const root = parseXml('<a xmlns="urn:d" xmlns:p="urn:p" xmlns:q="urn:q"><p:b q:x="1" y="&quot;&#10;"><c>t &amp; u</c><q:d/></p:b></a>');
  const b = root.children[0] as XmlElement;
  assert.equal(
    writeXmlDocument(b),
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:b xmlns:p="urn:p" xmlns:q="urn:q" q:x="1" y="&quot;&#10;"><c xmlns="urn:d">t &amp; u</c><q:d/></p:b>',
  );
});

test('a default namespace is undeclared for an element in none; an undeclared prefix is written without it', () => {
  const root = parseXml('<a xmlns="urn:d"><b xmlns=""><c/></b><u:e u:f="1" f="2"/></a>');
  assert.equal(
    writeXmlDocument(root),
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a xmlns="urn:d"><b xmlns=""><c/></b><e xmlns="" f="1"/></a>',
  );
  assert.deepEqual(meaning(parseXml(writeXmlDocument(root.children[0] as XmlElement))), meaning(root.children[0] as XmlElement));
});
