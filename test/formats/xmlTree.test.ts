// Tests of src/formats/xmlTree.ts: exact text, namespaces, and well-formedness errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseXml, XmlSyntaxError, type XmlElement } from '../../src/formats/xmlTree.js';
import { readFixture } from './fixtures.js';

function child(el: XmlElement, index: number): XmlElement {
  const c = el.children[index];
  assert.ok(c !== undefined && typeof c !== 'string', `child ${index} of ${el.name} is an element`);
  return c;
}

function syntaxError(xml: string): XmlSyntaxError {
  try {
    parseXml(xml);
  } catch (e) {
    assert.ok(e instanceof XmlSyntaxError, `expected XmlSyntaxError, got ${String(e)}`);
    return e;
  }
  assert.fail(`no error for ${JSON.stringify(xml)}`);
}

test('text keeps numbers and whitespace verbatim and decodes every reference', () => {
  const root = parseXml('<?xml version="1.0"?>\n<r> 007 &lt;&gt;&amp;&quot;&apos; &#65;&#x42;&#x1F600; </r>\n');
  assert.equal(root.name, 'r');
  assert.deepEqual(root.children, [' 007 <>&"\' AB\u{1F600} ']);
});

test('CDATA becomes undecoded text joined with its neighbours; comments and PIs are dropped', () => {
  const root = parseXml('<r>a&amp;<![CDATA[<b>&amp;</b>]]><!-- note --><?pi x?>c<e/>d</r>');
  assert.equal(root.children.length, 3);
  assert.equal(root.children[0], 'a&<b>&amp;</b>c');
  assert.equal(child(root, 1).name, 'e');
  assert.equal(root.children[2], 'd');
});

test('attributes: document order, decoded, whitespace-normalised, character references kept', () => {
  const root = parseXml('<r b="2 &amp; &#10;x" a="line\nbreak\ttab" c=\'"q"\'/>');
  assert.deepEqual(
    root.attributes.map((a) => [a.name, a.value]),
    [
      ['b', '2 & \nx'],
      ['a', 'line break tab'],
      ['c', '"q"'],
    ],
  );
  assert.deepEqual(root.children, []);
});

test('CR LF and lone CR are read as LF', () => {
  assert.deepEqual(parseXml('<r>a\r\nb\rc</r>').children, ['a\nb\nc']);
});

test('namespaces are resolved from the declarations in scope; xmlns attributes are not reported', () => {
  const root = parseXml(
    '<a xmlns="urn:d" xmlns:p="urn:p"><p:b p:x="1" y="2" xml:lang="de"><c xmlns="urn:e"/><p:d xmlns:p="urn:q"/></p:b><q:u/></a>',
  );
  assert.equal(root.namespace, 'urn:d');
  assert.deepEqual(root.attributes, []);
  const b = child(root, 0);
  assert.deepEqual([b.name, b.prefix, b.local, b.namespace], ['p:b', 'p', 'b', 'urn:p']);
  assert.deepEqual(b.attributes, [
    { name: 'p:x', local: 'x', prefix: 'p', namespace: 'urn:p', value: '1' },
    { name: 'y', local: 'y', prefix: '', namespace: '', value: '2' },
    { name: 'xml:lang', local: 'lang', prefix: 'xml', namespace: 'http://www.w3.org/XML/1998/namespace', value: 'de' },
  ]);
  assert.equal(child(b, 0).namespace, 'urn:e');
  assert.equal(child(b, 1).namespace, 'urn:q');
  assert.equal(child(root, 1).namespace, '', 'undeclared prefix resolves to ""');
});

test('names that are JavaScript object keys are ordinary names', () => {
  const root = parseXml('<constructor __proto__="1"><hasOwnProperty/><toString>x</toString></constructor>');
  assert.equal(root.name, 'constructor');
  assert.equal(root.attributes[0]?.name, '__proto__');
  assert.deepEqual(
    root.children.map((c) => (typeof c === 'string' ? c : c.name)),
    ['hasOwnProperty', 'toString'],
  );
});

test('the real cortex files parse, with RDF in the rdf namespace under its ns3 prefix', () => {
  const root = parseXml(readFixture('4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml'));
  assert.equal(root.namespace, 'http://www.deutsche-digitale-bibliothek.de/cortex');
  const edm = root.children.find((c): c is XmlElement => typeof c !== 'string' && c.local === 'edm');
  assert.ok(edm);
  const rdf = child(edm, 0);
  assert.deepEqual([rdf.name, rdf.namespace], ['ns3:RDF', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#']);
});

test('a truncated document is an XmlSyntaxError at its end', () => {
  const text = readFixture('4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml');
  const cut = text.slice(0, 5000);
  const e = syntaxError(cut);
  const lines = cut.split('\n');
  assert.equal(e.line, lines.length);
  assert.equal(e.column, (lines.at(-1) ?? '').length + 1);
  assert.match(e.message, /^line \d+, column \d+: Unexpected end of document/);
});

test('a wrong closing tag is reported with line and column', () => {
  const e = syntaxError('<a>\n  <b>x</c>\n</a>');
  assert.equal(e.line, 2);
  assert.equal(e.column, 7);
  assert.match(e.reason, /closing tag/);
  assert.equal(e.message, `line 2, column 7: ${e.reason}`);
});

test('well-formedness errors the validator alone would miss', () => {
  const cases: Array<[string, number, number, RegExp]> = [
    ['<a>&nbsp;</a>', 1, 4, /Undefined entity '&nbsp;'/],
    ['<a>\n x &#0; </a>', 2, 4, /character XML does not allow/],
    ['<a>a & b</a>', 1, 6, /must start a reference/],
    ['<a x="<"/>', 1, 7, /'<' is not allowed in an attribute value/],
    ['<a x="&bogus;"/>', 1, 7, /Undefined entity/],
    ['<a/><b/>', 1, 5, /Only one root element/],
    ['<a/>\ntext', 2, 1, /Text is not allowed outside the root element/],
    ['<a>x ]]> y</a>', 1, 6, /']]>' is not allowed in text/],
    ['<a>\u0001</a>', 1, 4, /U\+0001 is not allowed/],
    ['', 1, 1, /no root element|Start tag expected/],
    ['<a x="1" x="2"/>', 1, 10, /repeated/],
  ];
  for (const [xml, line, column, reason] of cases) {
    const e = syntaxError(xml);
    assert.deepEqual([e.line, e.column], [line, column], JSON.stringify(xml));
    assert.match(e.reason, reason, JSON.stringify(xml));
  }
});
