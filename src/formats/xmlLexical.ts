// Lexical well-formedness checks and reference decoding for parseXml (xmlTree.ts).
//
// Why: fast-xml-parser's XMLValidator checks tag structure and attribute syntax but, as
// measured on 5.12, accepts several documents XML 1.0 calls not well-formed: more than one
// root element, text after the root, `<` inside attribute values, undefined entity
// references such as `&nbsp;`, and forbidden control characters. Its entity decoding also
// leaves numeric references (`&#x41;`) undecoded unless HTML entities are switched on,
// which would then decode `&nbsp;` too. So parseXml runs the parser with entity processing
// off and this file does both jobs exactly as XML 1.0 says:
//
// - the only named entities are the five predefined ones (`lt gt amp quot apos`); entities
//   declared in a DTD are not supported and are reported as undefined;
// - character references must name a character XML 1.0 allows (section 2.2 "Char");
// - attribute values are normalised (literal TAB/LF/CR become spaces) before references
//   are decoded (section 3.3.3), so `&#10;` survives as a line feed.
//
// One linear pass; every search uses indexOf or a sticky regular expression.

import { indexOfInvalidXmlChar } from './xmlEscape.js';

/** A problem found at a character offset of the (line-end normalised) document. */
export interface LexicalProblem {
  offset: number;
  reason: string;
}

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

// A reference starting at `&`: a name, a decimal or a hexadecimal character reference.
const REFERENCE = /&(?:#([0-9]+)|#x([0-9A-Fa-f]+)|([^\s&;<>"'#][^\s&;<>"']*));/y;

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Checks the reference at `s[at] === '&'`; returns a reason or null when it is fine. */
function checkReference(s: string, at: number): string | null {
  REFERENCE.lastIndex = at;
  const m = REFERENCE.exec(s);
  if (m === null) return "'&' must start a reference such as '&amp;'";
  if (m[3] !== undefined) {
    return Object.hasOwn(PREDEFINED, m[3]) ? null : `Undefined entity '&${m[3]};'`;
  }
  const cp = m[1] !== undefined ? Number.parseInt(m[1], 10) : Number.parseInt(m[2] ?? '', 16);
  return isXmlChar(cp) ? null : `Character reference '${m[0]}' names a character XML does not allow`;
}

/** Checks the references in `text`, a segment of `xml` starting at offset `start`. */
function checkReferences(text: string, start: number, xml: string): LexicalProblem | null {
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    const reason = checkReference(xml, start + at);
    if (reason !== null) return { offset: start + at, reason };
  }
  return null;
}

const NON_WHITESPACE = /[^ \t\n\r]/g;

/**
 * Finds the first lexical problem in `xml` (line ends already normalised to LF), or null.
 * Structure (tag nesting and names) is left to XMLValidator; this only tracks depth to
 * know where the root element starts and ends.
 */
export function findLexicalProblem(xml: string): LexicalProblem | null {
  const bad = indexOfInvalidXmlChar(xml);
  if (bad !== -1) {
    const code = xml.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0');
    return { offset: bad, reason: `Character U+${code} is not allowed in XML` };
  }
  const n = xml.length;
  let depth = 0;
  let rootSeen = false;
  let i = 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > i) {
      if (depth === 0) {
        NON_WHITESPACE.lastIndex = i;
        const m = NON_WHITESPACE.exec(xml);
        if (m !== null && m.index < textEnd) {
          return { offset: m.index, reason: 'Text is not allowed outside the root element' };
        }
      } else {
        // Search a copy of the segment only: searching `xml` could run far past it.
        const text = xml.slice(i, textEnd);
        const cdataEnd = text.indexOf(']]>');
        if (cdataEnd !== -1) {
          return { offset: i + cdataEnd, reason: "']]>' is not allowed in text" };
        }
        const problem = checkReferences(text, i, xml);
        if (problem !== null) return problem;
      }
    }
    if (lt === -1) break;
    const skipped = skipMarkup(xml, lt);
    if (typeof skipped !== 'number') return skipped;
    if (skipped !== -1) {
      i = skipped;
      continue;
    }
    if (xml.startsWith('</', lt)) {
      const close = xml.indexOf('>', lt);
      if (close === -1) return { offset: n, reason: 'Unexpected end of document inside an end tag' };
      depth -= 1;
      i = close + 1;
      continue;
    }
    const tag = scanStartTag(xml, lt);
    if (typeof tag !== 'number') return tag;
    const selfClosing = xml.charCodeAt(tag - 1) === 0x2f; // '/'
    if (depth === 0) {
      if (rootSeen) return { offset: lt, reason: 'Only one root element is allowed' };
      rootSeen = true;
    }
    if (!selfClosing) depth += 1;
    i = tag + 1;
  }
  if (!rootSeen) return { offset: n, reason: 'Document has no root element' };
  if (depth > 0) {
    return { offset: n, reason: `Unexpected end of document: ${depth} element(s) not closed` };
  }
  return null;
}

/**
 * Skips a comment, CDATA section, processing instruction or DOCTYPE at `lt`.
 * Returns the offset after it, -1 when `lt` starts none of these, or a problem.
 */
function skipMarkup(xml: string, lt: number): number | LexicalProblem {
  const end = (open: string, close: string, what: string): number | LexicalProblem => {
    const at = xml.indexOf(close, lt + open.length);
    return at === -1 ? { offset: xml.length, reason: `Unexpected end of document inside ${what}` } : at + close.length;
  };
  if (xml.startsWith('<!--', lt)) return end('<!--', '-->', 'a comment');
  if (xml.startsWith('<![CDATA[', lt)) return end('<![CDATA[', ']]>', 'a CDATA section');
  if (xml.startsWith('<?', lt)) return end('<?', '?>', 'a processing instruction');
  if (xml.startsWith('<!DOCTYPE', lt)) {
    // Skip to the '>' that is outside quotes and outside the internal subset.
    let quote = '';
    let brackets = 0;
    for (let j = lt + 9; j < xml.length; j++) {
      const c = xml[j];
      if (quote !== '') {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '[') brackets += 1;
      else if (c === ']') brackets -= 1;
      else if (c === '>' && brackets <= 0) return j + 1;
    }
    return { offset: xml.length, reason: 'Unexpected end of document inside a DOCTYPE' };
  }
  return -1;
}

/** Scans a start tag from `lt`; returns the offset of its closing `>` or a problem. */
function scanStartTag(xml: string, lt: number): number | LexicalProblem {
  let quote = '';
  for (let j = lt + 1; j < xml.length; j++) {
    const c = xml[j];
    if (quote !== '') {
      if (c === quote) quote = '';
      else if (c === '<') return { offset: j, reason: "'<' is not allowed in an attribute value" };
      else if (c === '&') {
        const reason = checkReference(xml, j);
        if (reason !== null) return { offset: j, reason };
      }
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
    else if (c === '<') return { offset: j, reason: "'<' is not allowed inside a tag" };
  }
  return { offset: xml.length, reason: 'Unexpected end of document inside a start tag' };
}

const DECODE = /&(?:#([0-9]+)|#x([0-9A-Fa-f]+)|(lt|gt|amp|quot|apos));/g;

function decodeMatch(_m: string, dec?: string, hex?: string, name?: string): string {
  if (name !== undefined) return PREDEFINED[name] ?? '';
  const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
  return String.fromCodePoint(cp);
}

/** Decodes the references in character data (already checked by findLexicalProblem). */
export function decodeXmlText(raw: string): string {
  return raw.indexOf('&') === -1 ? raw : raw.replace(DECODE, decodeMatch);
}

/** Normalises and decodes an attribute value as XML 1.0, 3.3.3 says (CDATA type). */
export function decodeXmlAttribute(raw: string): string {
  return decodeXmlText(raw.replace(/[\t\n\r]/g, ' '));
}
