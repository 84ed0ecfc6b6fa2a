// Tests of src/formats/xmlEscape.ts: exact escaping, checked by parsing the result back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeXmlAttr, escapeXmlText, isXmlNcName, replaceInvalidXmlChars, XML_REPLACEMENT_CHAR } from '../../src/formats/xmlEscape.js';
import { parseXml } from '../../src/formats/xmlTree.js';

test('escapeXmlText escapes & < > and CR, leaves quotes', () => {
  assert.equal(escapeXmlText('a<b>&c "d" \'e\' ]]>\r\n'), 'a&lt;b&gt;&amp;c "d" \'e\' ]]&gt;&#13;\n');
});

test('escapeXmlAttr also escapes double quotes and TAB/LF/CR', () => {
  assert.equal(escapeXmlAttr('a<b>&"c"\t\n\r'), 'a&lt;b&gt;&amp;&quot;c&quot;&#9;&#10;&#13;');
});

test('characters XML 1.0 cannot carry are replaced by U+FFFD, others kept', () => {
  const input = 'x\u0000\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF\uD800y\uDC00z\u{1F600}\u0085\u007F';
  const expected = `x${'\uFFFD'.repeat(9)}y\uFFFDz\u{1F600}\u0085\u007F`;
  assert.equal(XML_REPLACEMENT_CHAR, '\uFFFD');
  assert.equal(replaceInvalidXmlChars(input), expected);
  assert.equal(escapeXmlText(input), expected);
  assert.equal(escapeXmlAttr(input), expected);
});

test('escaped text and attribute values parse back to the same string', () => {
  const s = ' <a href="x?y=1&amp;z=2">]]></a>\t\r\n  \'q\' &#38; \u{1F600} ';
  const root = parseXml(`<r a="${escapeXmlAttr(s)}">${escapeXmlText(s)}</r>`);
  assert.equal(root.attributes[0]?.value, s);
  assert.deepEqual(root.children, [s]);
});

test('isXmlNcName accepts element names of the packages and rejects others', () => {
  for (const name of ['cortex', 'item-id', 'P11_had_participant', 'name2', 'wgs84_pos', 'Straße']) {
    assert.equal(isXmlNcName(name), true, name);
  }
  for (const name of ['', '1a', '-a', 'a b', 'ns:a', '$', '@about', 'a<']) {
    assert.equal(isXmlNcName(name), false, name);
  }
});
